package dev.jobc.conventions;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Label keys and values per MPIJob era, as mpi-operator set them, so selectors, dashboards and
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
  public static final String GROUP = "kubeflow.org";

  /** Labels on the job that jobc copies to the objects Kueue admits (Job, StatefulSet, Pods). */
  public static final String KUEUE_PREFIX = "kueue.x-k8s.io/";

  /** The label that puts an object in a Kueue LocalQueue. */
  public static final String KUEUE_QUEUE_NAME = KUEUE_PREFIX + "queue-name";

  public static final String LAUNCHER = "launcher";
  public static final String WORKER = "worker";

  /** The three label vocabularies mpi-operator used over its history. */
  private enum Style {
    // v1alpha1, v1alpha2: group_name, mpi_job_name, mpi_role_type.
    UNDERSCORE("group_name", "mpi_job_name", "mpi_role_type"),
    // v1: group-name, mpi-job-name, mpi-job-role.
    DASH("group-name", "mpi-job-name", "mpi-job-role"),
    // v2beta1.
    TRAINING(OPERATOR_NAME, JOB_NAME, JOB_ROLE);

    final String group;
    final String job;
    final String role;

    Style(String group, String job, String role) {
      this.group = group;
      this.job = job;
      this.role = role;
    }

    static Style of(MpiEra era) {
      return switch (era) {
        case V1ALPHA1, V1ALPHA2 -> UNDERSCORE;
        case V1 -> DASH;
        case V2BETA1 -> TRAINING;
      };
    }

    String groupValue() {
      return this == TRAINING ? OPERATOR : GROUP;
    }
  }

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
    Style s = Style.of(era);
    Map<String, String> out = new LinkedHashMap<>();
    out.put(s.group, s.groupValue());
    out.put(s.job, job);
    return out;
  }

  /** What selects the pods of one role (the worker StatefulSet's selector). */
  public static Map<String, String> roleSelector(MpiEra era, String job, String role) {
    Map<String, String> out = jobSelector(era, job);
    out.put(Style.of(era).role, role);
    return out;
  }

  /** Labels jobc adds to a pod template of the given role (on top of the user's). */
  public static Map<String, String> podLabels(MpiEra era, String job, String role) {
    Map<String, String> out = roleSelector(era, job, role);
    out.put(MANAGED_BY, JOBC);
    return out;
  }

  /** The Kueue labels of the job ({@code kueue.x-k8s.io/queue-name}, ...), to copy onwards. */
  public static Map<String, String> kueueLabels(Map<String, String> jobLabels) {
    Map<String, String> out = new LinkedHashMap<>();
    if (jobLabels != null) {
      jobLabels.forEach(
          (k, v) -> {
            if (k.startsWith(KUEUE_PREFIX)) {
              // YAML's null is the empty string once the API server has decoded the label.
              out.put(k, v == null ? "" : v);
            }
          });
    }
    return out;
  }
}
