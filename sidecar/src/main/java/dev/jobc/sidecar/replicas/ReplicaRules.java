package dev.jobc.sidecar.replicas;

import dev.jobc.sidecar.replicas.OutcomeRules.Carrier;

/**
 * What the sidecar needs to read the state of a replica of one type ({@link ReplicaStates#of}).
 *
 * @param carrier what carries the replica's pod
 * @param readsJobs whether its Job is read; when not, what the Job controller concludes is
 *     predicted from the replica's pods
 * @param restartPolicy the replica's restart policy as the spec spells it
 * @param container the container whose exit decides
 * @param jobBackoffLimit the {@code backoffLimit} jobc renders on the replica's Job, for a Job not
 *     read
 * @param failedPodRestarted whether the kind's operator starts a failed pod again under {@code
 *     restartPolicy} instead of failing the job (under {@code ExitCode}: for the exit codes it
 *     retries)
 */
record ReplicaRules(
    Carrier carrier,
    boolean readsJobs,
    String restartPolicy,
    String container,
    int jobBackoffLimit,
    boolean failedPodRestarted) {

  /**
   * The restart policy of the replica's pod: a Job's pod has no {@code Always}, and under {@code
   * ExitCode} Kubernetes never restarts the container (the Job's {@code podFailurePolicy}, or
   * nothing for a bare Pod, decides what a failure means).
   */
  String podRestartPolicy() {
    return switch (restartPolicy) {
      case "ExitCode" -> "Never";
      case "Always" -> carrier == Carrier.JOB ? "OnFailure" : "Always";
      default -> restartPolicy;
    };
  }
}
