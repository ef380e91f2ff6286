package dev.jobc.plan;

import dev.jobc.api.MpiEra;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Label keys and values per MPIJob era, as mpi-operator sets them, so selectors, dashboards and
 * policies written for operator-made pods keep matching. Every object also gets {@code
 * app.kubernetes.io/managed-by: jobc}.
 */
public final class MpiLabels {
  public static final String MANAGED_BY = "app.kubernetes.io/managed-by";
  public static final String JOBC = "jobc";

  // mpi-operator v2 (kubeflow/common v0.4+ keys).
  public static final String OPERATOR_NAME = "training.kubeflow.org/operator-name";
  public static final String JOB_NAME = "training.kubeflow.org/job-name";
  public static final String JOB_ROLE = "training.kubeflow.org/job-role";
  public static final String REPLICA_INDEX = "training.kubeflow.org/replica-index";
  public static final String OPERATOR = "mpi-operator";

  // mpi-operator v1 keys.
  public static final String V1_GROUP_NAME = "group-name";
  public static final String V1_JOB_NAME = "mpi-job-name";
  public static final String V1_JOB_ROLE = "mpi-job-role";
  public static final String V1_GROUP = "kubeflow.org";

  public static final String LAUNCHER = "launcher";
  public static final String WORKER = "worker";

  private MpiLabels() {}

  /** Labels of the objects themselves: {@code app: <job>} as upstream, plus managed-by. */
  public static Map<String, String> objectLabels(String job) {
    Map<String, String> out = new LinkedHashMap<>();
    out.put("app", job);
    out.put(MANAGED_BY, JOBC);
    return out;
  }

  /** What selects every pod of the job (the headless Service's selector). */
  public static Map<String, String> jobSelector(MpiEra era, String job) {
    Map<String, String> out = new LinkedHashMap<>();
    if (era == MpiEra.V2BETA1) {
      out.put(OPERATOR_NAME, OPERATOR);
      out.put(JOB_NAME, job);
    } else {
      out.put(V1_GROUP_NAME, V1_GROUP);
      out.put(V1_JOB_NAME, job);
    }
    return out;
  }

  /** What selects the pods of one role (the worker StatefulSet's selector). */
  public static Map<String, String> roleSelector(MpiEra era, String job, String role) {
    Map<String, String> out = jobSelector(era, job);
    out.put(era == MpiEra.V2BETA1 ? JOB_ROLE : V1_JOB_ROLE, role);
    return out;
  }

  /** Labels jobc adds to a pod template of the given role (on top of the user's). */
  public static Map<String, String> podLabels(MpiEra era, String job, String role) {
    Map<String, String> out = roleSelector(era, job, role);
    out.put(MANAGED_BY, JOBC);
    return out;
  }
}
