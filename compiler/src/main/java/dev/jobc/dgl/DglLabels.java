package dev.jobc.dgl;

import dev.jobc.conventions.MpiLabels;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Pod labels and annotations of a DGLJob: dgl-operator's {@code dgl-replica-name}, {@code
 * dgl-replica-type} and annotation {@code dgl-replica}, plus {@code jobc.dev/job-name}, which the
 * operator has no equivalent of and the job's headless Service selects on.
 */
public final class DglLabels {
  public static final String REPLICA_NAME = "dgl-replica-name";
  public static final String REPLICA_TYPE = "dgl-replica-type";
  public static final String REPLICA_ANNOTATION = "dgl-replica";
  public static final String JOB_NAME = "jobc.dev/job-name";

  private DglLabels() {}

  /** Selects every pod of the job (the headless Service's selector). */
  public static Map<String, String> jobSelector(String job) {
    Map<String, String> out = new LinkedHashMap<>();
    out.put(JOB_NAME, job);
    return out;
  }

  /** Selects the pods of one replica type (the worker StatefulSet's selector). */
  public static Map<String, String> typeSelector(String job, String type) {
    Map<String, String> out = jobSelector(job);
    out.put(REPLICA_TYPE, type);
    return out;
  }

  /**
   * Labels jobc puts on a pod of {@code type}; {@code pod} is its name, or {@code null} for a
   * StatefulSet template, whose pods cannot carry their own name as a label.
   */
  public static Map<String, String> podLabels(String job, String type, String pod) {
    Map<String, String> out = typeSelector(job, type);
    if (pod != null) {
      out.put(REPLICA_NAME, pod);
    }
    out.put(MpiLabels.MANAGED_BY, MpiLabels.JOBC);
    return out;
  }

  public static Map<String, String> podAnnotations(String type) {
    return Map.of(REPLICA_ANNOTATION, type);
  }
}
