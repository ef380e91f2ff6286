package dev.jobc.sidecar.mpi;

import dev.jobc.sidecar.base.Pods;
import io.fabric8.kubernetes.api.model.ContainerStateTerminated;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobCondition;
import java.util.List;

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
 *       FailureTarget} before deleting the pod), the Job is gone, or this pod's end is the failure
 *       that uses up {@code backoffLimit}, predicted as the Job controller will count it ({@code
 *       syncJob}): the pod ends in phase Failed once all its containers, this sidecar's included,
 *       have ended, and the Job fails when {@code status.failed} then exceeds {@code backoffLimit}.
 *       A pod ends Failed when its main container failed under restart policy {@code Never}, and,
 *       under either policy, when it is evicted, preempted, drained or deleted (its {@code
 *       deletionTimestamp} is set, or it is gone): the Job counts that too, and an {@code
 *       OnFailure} launcher on its last retry is then final. Under {@code OnFailure} the Job also
 *       fails once the restarts of its running pod reach {@code backoffLimit} ({@code
 *       pastBackoffLimitOnFailure}, which counts init and sidecar containers' restarts as well).
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
   * What the launcher Job says by itself: suspended, finished, or {@code null} while it runs (or
   * could not be read).
   */
  static JobOutcome ofJob(Job job) {
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
    return null;
  }

  /**
   * Decides from the launcher Job ({@code null} when it could not be read) and this launcher pod
   * ({@code null} when it could not be read), whose main container is {@code container}; {@code
   * jobGone} and {@code podGone} say the API answered that the object does not exist.
   */
  static JobOutcome of(Job job, boolean jobGone, Pod self, boolean podGone, String container) {
    JobOutcome byJob = ofJob(job);
    if (byJob != null) {
      return byJob;
    }
    if (jobGone) {
      // Deleted (kubectl delete, or a GitOps prune): its pods go with it, and so does the run.
      return new JobOutcome(Kind.FAILED, "launcher Job deleted");
    }
    ContainerStateTerminated ended = Pods.terminated(self, container);
    if (ended != null && Integer.valueOf(0).equals(ended.getExitCode())) {
      return new JobOutcome(Kind.SUCCEEDED, "launcher succeeded");
    }
    boolean stopping =
        podGone || (self != null && self.getMetadata().getDeletionTimestamp() != null);
    String policy = restartPolicy(job, self);
    String failed =
        ended != null
            ? "launcher failed (exit code "
                + (ended.getExitCode() == null ? -1 : ended.getExitCode())
                + ")"
            : stopping ? "launcher pod " + (podGone ? "gone" : "deleted or evicted") : null;
    if (failed == null || (!stopping && !"Never".equals(policy))) {
      // Still running, or (OnFailure) kubelet restarts the main container in this pod.
      return new JobOutcome(
          Kind.UNDECIDED, failed == null ? "launcher not ended" : failed + "; kubelet restarts it");
    }
    if (job == null || job.getSpec() == null) {
      return new JobOutcome(Kind.UNDECIDED, failed + "; its Job could not be read");
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
    if (!"Never".equals(policy)) {
      int restarts = restarts(self);
      if (limit == 0 ? restarts > 0 : restarts >= limit) {
        return new JobOutcome(
            Kind.FAILED,
            failed + ", " + restarts + " restart(s) of backoffLimit " + limit + ": no retry left");
      }
    }
    return new JobOutcome(
        Kind.UNDECIDED,
        failed + ", failure " + (before + 1) + " of backoffLimit " + limit + ": the Job retries");
  }

  /** The pod's restart policy, else its Job's template's ({@code OnFailure} when unknown). */
  private static String restartPolicy(Job job, Pod self) {
    if (self != null && self.getSpec() != null && self.getSpec().getRestartPolicy() != null) {
      return self.getSpec().getRestartPolicy();
    }
    if (job != null
        && job.getSpec() != null
        && job.getSpec().getTemplate() != null
        && job.getSpec().getTemplate().getSpec() != null
        && job.getSpec().getTemplate().getSpec().getRestartPolicy() != null) {
      return job.getSpec().getTemplate().getSpec().getRestartPolicy();
    }
    return "OnFailure";
  }

  /** Restarts of every container of the pod, init and sidecar containers included. */
  private static int restarts(Pod self) {
    if (self == null || self.getStatus() == null) {
      return 0;
    }
    return sum(self.getStatus().getInitContainerStatuses())
        + sum(self.getStatus().getContainerStatuses());
  }

  private static int sum(List<ContainerStatus> statuses) {
    int sum = 0;
    if (statuses != null) {
      for (ContainerStatus s : statuses) {
        sum += s.getRestartCount() == null ? 0 : s.getRestartCount();
      }
    }
    return sum;
  }
}
