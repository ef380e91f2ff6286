package dev.jobc.model;

/** {@code spec.runPolicy} of MPIJob v1 (kubeflow/common v0.4.0) and v2beta1. */
public record RunPolicy(
    String cleanPodPolicy,
    Integer ttlSecondsAfterFinished,
    Long activeDeadlineSeconds,
    Integer backoffLimit,
    SchedulingPolicy schedulingPolicy,
    Boolean suspend,
    String managedBy) {

  public static RunPolicy empty() {
    return new RunPolicy(null, null, null, null, null, null, null);
  }

  public RunPolicy withCleanPodPolicy(String value) {
    return new RunPolicy(
        value,
        ttlSecondsAfterFinished,
        activeDeadlineSeconds,
        backoffLimit,
        schedulingPolicy,
        suspend,
        managedBy);
  }
}
