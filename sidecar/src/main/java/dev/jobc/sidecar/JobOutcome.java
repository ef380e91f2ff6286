package dev.jobc.sidecar;

import io.fabric8.kubernetes.api.model.ContainerStateTerminated;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobCondition;

/**
 * What the end of a launcher pod means for the MPIJob, decided from the launcher Job and the pod
 * alone, since no operator records it. mpi-operator v0.8.2 ({@code mpi_job_controller.go}
 * syncHandler) releases the workers by {@code cleanPodPolicy} once the MPIJob has finished,
 * succeeded or failed, and deletes them whenever it is suspended; it keeps them while the launcher
 * Job may still run another pod.
 *
 * <ul>
 *   <li>{@link Kind#SUSPENDED}: the Job's {@code spec.suspend} is true (Kueue, or the user); the
 *       Job controller deletes the launcher pod, and the workers must not run either.
 *   <li>{@link Kind#SUCCEEDED}: the launcher's main container exited 0 (the Job wants one
 *       completion), or the Job has condition {@code Complete} or {@code SuccessCriteriaMet}.
 *   <li>{@link Kind#FAILED}: the Job has condition {@code Failed} or {@code FailureTarget}
 *       (backoffLimit used up, {@code DeadlineExceeded}: Kubernetes 1.31 and later set {@code
 *       FailureTarget} before deleting the pod), or this pod's failure is the one that uses up
 *       {@code backoffLimit}: with restart policy {@code Never} the Job counts a pod as failed only
 *       once all its containers, this sidecar's included, have ended, so the sidecar predicts it as
 *       the Job controller will count it ({@code status.failed + 1 > backoffLimit}).
 *   <li>{@link Kind#UNDECIDED}: anything else, e.g. an evicted pod the Job will replace; the
 *       workers are kept for the next launcher.
 * </ul>
 */
record JobOutcome(Kind kind, String description) {
  enum Kind {
    SUSPENDED,
    SUCCEEDED,
    FAILED,
    UNDECIDED
  }

  /** The Job controller's default backoffLimit. */
  static final int DEFAULT_BACKOFF_LIMIT = 6;

  boolean decided() {
    return kind != Kind.UNDECIDED;
  }

  /**
   * Decides from the launcher Job ({@code null} when it could not be read) and this launcher pod
   * ({@code null} when gone), whose main container is {@code container}.
   */
  static JobOutcome of(Job job, Pod self, String container) {
    if (job != null && job.getSpec() != null && Boolean.TRUE.equals(job.getSpec().getSuspend())) {
      return new JobOutcome(Kind.SUSPENDED, "launcher Job suspended");
    }
    if (job != null && job.getStatus() != null && job.getStatus().getConditions() != null) {
      for (JobCondition c : job.getStatus().getConditions()) {
        if (!"True".equals(c.getStatus())) {
          continue;
        }
        switch (String.valueOf(c.getType())) {
          case "Complete", "SuccessCriteriaMet" -> {
            return new JobOutcome(Kind.SUCCEEDED, "launcher Job complete");
          }
          case "Failed", "FailureTarget" -> {
            return new JobOutcome(
                Kind.FAILED,
                "launcher Job failed" + (c.getReason() == null ? "" : " (" + c.getReason() + ")"));
          }
          default -> {
            // Suspended is mirrored by spec.suspend; other conditions say nothing about the end.
          }
        }
      }
    }
    ContainerStateTerminated ended = terminated(self, container);
    if (ended == null) {
      return new JobOutcome(Kind.UNDECIDED, "launcher not ended");
    }
    int code = ended.getExitCode() == null ? -1 : ended.getExitCode();
    if (code == 0) {
      return new JobOutcome(Kind.SUCCEEDED, "launcher succeeded");
    }
    String failed = "launcher failed (exit code " + code + ")";
    if (job == null || job.getSpec() == null) {
      return new JobOutcome(Kind.UNDECIDED, failed + "; its Job could not be read");
    }
    if (!"Never".equals(self.getSpec() == null ? null : self.getSpec().getRestartPolicy())) {
      // OnFailure: kubelet restarts the container in this pod; the Job controller counts the
      // restarts and, once backoffLimit is used up, sets a condition and deletes the pod.
      return new JobOutcome(Kind.UNDECIDED, failed + "; kubelet restarts it");
    }
    int limit =
        job.getSpec().getBackoffLimit() == null
            ? DEFAULT_BACKOFF_LIMIT
            : job.getSpec().getBackoffLimit();
    int before =
        job.getStatus() == null || job.getStatus().getFailed() == null
            ? 0
            : job.getStatus().getFailed();
    if (before + 1 > limit) {
      return new JobOutcome(
          Kind.FAILED,
          failed + ", failure " + (before + 1) + " of backoffLimit " + limit + ": no retry left");
    }
    return new JobOutcome(
        Kind.UNDECIDED,
        failed + ", failure " + (before + 1) + " of backoffLimit " + limit + ": the Job retries");
  }

  /** The main container's terminated state, or {@code null} while it runs or has not started. */
  static ContainerStateTerminated terminated(Pod self, String container) {
    if (self == null) {
      return null;
    }
    ContainerStatus status = Pods.container(self, container);
    if (status == null || status.getState() == null) {
      return null;
    }
    return status.getState().getTerminated();
  }
}
