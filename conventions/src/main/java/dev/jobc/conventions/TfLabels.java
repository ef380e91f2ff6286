package dev.jobc.conventions;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The labels training-operator v1.9.0 puts on a TFJob's pods and Services ({@code
 * pkg/controller.v1/common/pod.go}, {@code service.go}, {@code GenLabels}), so selectors and
 * dashboards written for operator-made pods keep matching, and the names of a replica's objects
 * ({@code GenGeneralName}).
 */
public final class TfLabels {
  public static final String OPERATOR_NAME = MpiLabels.OPERATOR_NAME;
  public static final String JOB_NAME = MpiLabels.JOB_NAME;
  public static final String JOB_ROLE = MpiLabels.JOB_ROLE;
  public static final String REPLICA_INDEX = MpiLabels.REPLICA_INDEX;
  public static final String REPLICA_TYPE = "training.kubeflow.org/replica-type";

  /** The value of {@link #OPERATOR_NAME}: training-operator's {@code controllerName}. */
  public static final String OPERATOR = "tfjob-controller";

  /** The value of {@link #JOB_ROLE} on the replica that decides the job's outcome. */
  public static final String MASTER = "master";

  private TfLabels() {}

  /** {@code GenGeneralName}: {@code <job>-<type>-<index>}, type in lower case, "/" → "-". */
  public static String replica(String job, String lowerType, int index) {
    return (job + "-" + lowerType + "-" + index).replace('/', '-');
  }

  /** What selects every pod of the job. */
  public static Map<String, String> jobSelector(String job) {
    Map<String, String> out = new LinkedHashMap<>();
    out.put(OPERATOR_NAME, OPERATOR);
    out.put(JOB_NAME, job.replace('/', '-'));
    return out;
  }

  /** What selects one replica's pod: its Service's selector and labels. */
  public static Map<String, String> replicaSelector(String job, String lowerType, int index) {
    Map<String, String> out = jobSelector(job);
    out.put(REPLICA_TYPE, lowerType);
    out.put(REPLICA_INDEX, Integer.toString(index));
    return out;
  }
}
