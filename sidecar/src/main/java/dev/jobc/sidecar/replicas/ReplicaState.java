package dev.jobc.sidecar.replicas;

/**
 * What one replica's carrier, its Job or its bare Pod, says about the replica now.
 *
 * @param phase where the replica is
 * @param reason why it failed, as the Job controller or kubelet says it ({@code
 *     BackoffLimitExceeded}, {@code PodFailurePolicy}, {@code DeadlineExceeded}, ...), or {@code
 *     null}
 * @param restarts container restarts of a running bare Pod (what training-operator's {@code
 *     PastBackoffLimit} adds up); 0 for a Job
 */
record ReplicaState(Phase phase, String reason, int restarts) {
  enum Phase {
    /** No Job or Pod of that name (not created yet, or deleted). */
    ABSENT,
    /** Pending or running, or failed with retries left. */
    ACTIVE,
    /** Its Job is suspended: not running, not ended. */
    SUSPENDED,
    SUCCEEDED,
    FAILED,
    /** Ended by a jobc sidecar once the job's outcome was decided: a consequence, not a cause. */
    STOPPED
  }

  static final ReplicaState ABSENT = new ReplicaState(Phase.ABSENT, null, 0);
  static final ReplicaState ACTIVE = new ReplicaState(Phase.ACTIVE, null, 0);
  static final ReplicaState SUSPENDED = new ReplicaState(Phase.SUSPENDED, null, 0);
  static final ReplicaState SUCCEEDED = new ReplicaState(Phase.SUCCEEDED, null, 0);
  static final ReplicaState STOPPED = new ReplicaState(Phase.STOPPED, null, 0);

  static ReplicaState failed(String reason) {
    return new ReplicaState(Phase.FAILED, reason, 0);
  }

  static ReplicaState active(int restarts) {
    return restarts == 0 ? ACTIVE : new ReplicaState(Phase.ACTIVE, null, restarts);
  }

  /**
   * Whether its carrier still runs a pod, or will: it is active, or it failed by a pod its Job
   * starts again ({@link ReplicaStates#UNRETRIED_POD}).
   */
  boolean runsOn() {
    return phase == Phase.ACTIVE
        || (phase == Phase.FAILED && ReplicaStates.UNRETRIED_POD.equals(reason));
  }

  /** Ended, for good: succeeded, failed or stopped. */
  boolean finished() {
    return phase == Phase.SUCCEEDED || phase == Phase.FAILED || phase == Phase.STOPPED;
  }
}
