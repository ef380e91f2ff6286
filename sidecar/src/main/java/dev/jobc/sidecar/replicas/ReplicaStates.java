package dev.jobc.sidecar.replicas;

import dev.jobc.sidecar.base.Pods;
import io.fabric8.kubernetes.api.model.ContainerStateTerminated;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobCondition;
import io.fabric8.kubernetes.api.model.batch.v1.PodFailurePolicy;
import io.fabric8.kubernetes.api.model.batch.v1.PodFailurePolicyOnExitCodesRequirement;
import io.fabric8.kubernetes.api.model.batch.v1.PodFailurePolicyRule;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A replica's {@link ReplicaState} read from what carries it. A Job's own status decides (the Job
 * controller applies {@code backoffLimit}, {@code podFailurePolicy} and the deadline, so the
 * sidecar never recounts them); the deciding replica's own pod adds what its Job will conclude once
 * this sidecar, its last container, has exited. A bare Pod has no controller: its phase and its
 * main container decide.
 */
final class ReplicaStates {
  /** Annotation a sidecar puts on what it stopped, naming the replica that decided. */
  static final String STOPPED_BY = "jobc.dev/stopped-by";

  /** The Job controller's default {@code backoffLimit}. */
  static final int DEFAULT_BACKOFF_LIMIT = 6;

  static final String DEADLINE_EXCEEDED = "DeadlineExceeded";
  static final String BACKOFF_LIMIT_EXCEEDED = "BackoffLimitExceeded";
  static final String POD_FAILURE_POLICY = "PodFailurePolicy";

  private ReplicaStates() {}

  /**
   * A replica carried by {@code job} ({@code null}: none). {@code self} is this sidecar's own pod
   * when the Job is its own, else {@code null}.
   */
  static ReplicaState ofJob(Job job, Pod self, String container) {
    if (job == null) {
      return ReplicaState.ABSENT;
    }
    if (job.getStatus() != null && job.getStatus().getConditions() != null) {
      for (JobCondition c : job.getStatus().getConditions()) {
        if (!"True".equals(c.getStatus())) {
          continue;
        }
        switch (String.valueOf(c.getType())) {
          case "Complete", "SuccessCriteriaMet" -> {
            return ReplicaState.SUCCEEDED;
          }
          // Kubernetes 1.31 and later set FailureTarget first, then Failed once the pods are gone.
          case "Failed", "FailureTarget" -> {
            return stoppedBy(job.getMetadata().getAnnotations())
                ? ReplicaState.STOPPED
                : ReplicaState.failed(c.getReason());
          }
          default -> {
            // Suspended mirrors spec.suspend; other conditions say nothing about the end.
          }
        }
      }
    }
    if (job.getSpec() != null && Boolean.TRUE.equals(job.getSpec().getSuspend())) {
      return ReplicaState.SUSPENDED;
    }
    return self == null ? ReplicaState.ACTIVE : predicted(job, self, container);
  }

  /**
   * What the Job controller will make of this sidecar's own pod, whose status it reads as this
   * sidecar does (Kubernetes {@code pkg/controller/job/job_controller.go}): a main container that
   * exited 0 completes the Job; a pod being deleted tells nothing (its Job's condition will); with
   * restart policy OnFailure the container restarts of the pod count against {@code backoffLimit}
   * ({@code pastBackoffLimitOnFailure}: at least the limit, or any with a limit of 0); with Never
   * the pod fails once this sidecar has exited, and either a {@code podFailurePolicy} rule fails
   * the Job ({@code FailJob}), ignores the failure ({@code Ignore}), or it counts: the Job fails
   * once {@code status.failed} exceeds the limit.
   */
  static ReplicaState predicted(Job job, Pod self, String container) {
    ContainerStateTerminated ended = Pods.terminated(self, container);
    if (ended != null && exitCode(ended) == 0) {
      return ReplicaState.SUCCEEDED;
    }
    if (self.getMetadata().getDeletionTimestamp() != null) {
      // Killed, not ended by itself: the Job controller deletes its pod when the Job fails or is
      // suspended (before 1.31 ahead of writing why), an eviction deletes it too. The Job says.
      return ReplicaState.ACTIVE;
    }
    Integer given = job.getSpec() == null ? null : job.getSpec().getBackoffLimit();
    int limit = given == null ? DEFAULT_BACKOFF_LIMIT : given;
    String restartPolicy = self.getSpec() == null ? null : self.getSpec().getRestartPolicy();
    if ("OnFailure".equals(restartPolicy)) {
      int restarts = active(self) ? restarts(self) : 0;
      return (limit == 0 ? restarts > 0 : restarts >= limit)
          ? ReplicaState.failed(BACKOFF_LIMIT_EXCEEDED)
          : ReplicaState.active(restarts);
    }
    if (ended == null) {
      return ReplicaState.ACTIVE;
    }
    String action = failurePolicyAction(job.getSpec().getPodFailurePolicy(), self);
    if ("FailJob".equals(action)) {
      return ReplicaState.failed(POD_FAILURE_POLICY);
    }
    if ("Ignore".equals(action)) {
      return ReplicaState.ACTIVE;
    }
    Integer failedBefore = job.getStatus() == null ? null : job.getStatus().getFailed();
    return (failedBefore == null ? 0 : failedBefore) + 1 > limit
        ? ReplicaState.failed(BACKOFF_LIMIT_EXCEEDED)
        : ReplicaState.ACTIVE;
  }

  /**
   * The action of the first {@code onExitCodes} rule of {@code policy} that a terminated container
   * of {@code pod} matches, or {@code null}: Kubernetes {@code matchPodFailurePolicy} for the rules
   * a pod can match before it has ended (no pod conditions yet).
   */
  static String failurePolicyAction(PodFailurePolicy policy, Pod pod) {
    if (policy == null || policy.getRules() == null || pod.getStatus() == null) {
      return null;
    }
    List<ContainerStatus> statuses = new ArrayList<>();
    if (pod.getStatus().getContainerStatuses() != null) {
      statuses.addAll(pod.getStatus().getContainerStatuses());
    }
    if (pod.getStatus().getInitContainerStatuses() != null) {
      statuses.addAll(pod.getStatus().getInitContainerStatuses());
    }
    for (PodFailurePolicyRule rule : policy.getRules()) {
      PodFailurePolicyOnExitCodesRequirement on = rule.getOnExitCodes();
      if (on == null) {
        continue;
      }
      for (ContainerStatus s : statuses) {
        ContainerStateTerminated t = s.getState() == null ? null : s.getState().getTerminated();
        if (t == null
            || exitCode(t) == 0
            || (on.getContainerName() != null && !on.getContainerName().equals(s.getName()))) {
          continue;
        }
        boolean listed = on.getValues() != null && on.getValues().contains(exitCode(t));
        if ("In".equals(on.getOperator()) ? listed : "NotIn".equals(on.getOperator()) && !listed) {
          return rule.getAction();
        }
      }
    }
    return null;
  }

  /**
   * A replica that is the bare Pod {@code pod} ({@code null}: none). Nothing replaces a bare Pod,
   * so a main container that ended with restart policy Never has decided: exit 0 succeeds, anything
   * else fails. A pod the kubelet ended at its {@code activeDeadlineSeconds} has reason {@code
   * DeadlineExceeded}.
   */
  static ReplicaState ofPod(Pod pod, String container) {
    if (pod == null) {
      return ReplicaState.ABSENT;
    }
    String phase = Pods.phase(pod);
    if ("Failed".equals(phase)) {
      if (stoppedBy(pod.getMetadata().getAnnotations())) {
        return ReplicaState.STOPPED;
      }
      String reason = pod.getStatus().getReason();
      return ReplicaState.failed(reason == null ? "Failed" : reason);
    }
    if ("Succeeded".equals(phase)) {
      return ReplicaState.SUCCEEDED;
    }
    String restartPolicy = pod.getSpec() == null ? null : pod.getSpec().getRestartPolicy();
    ContainerStateTerminated ended = Pods.terminated(pod, container);
    if (ended != null && exitCode(ended) == 0 && !"Always".equals(restartPolicy)) {
      return ReplicaState.SUCCEEDED;
    }
    if (ended != null && exitCode(ended) != 0 && "Never".equals(restartPolicy)) {
      return ReplicaState.failed("Failed");
    }
    // training-operator's PastBackoffLimit counts restarts of Running pods only.
    return ReplicaState.active("Running".equals(phase) ? restarts(pod) : 0);
  }

  private static boolean stoppedBy(Map<String, String> annotations) {
    return annotations != null && annotations.containsKey(STOPPED_BY);
  }

  private static boolean active(Pod pod) {
    String phase = Pods.phase(pod);
    return "Running".equals(phase) || "Pending".equals(phase);
  }

  /** Restarts of every container of the pod, init containers (and so this sidecar) included. */
  static int restarts(Pod pod) {
    int sum = 0;
    if (pod.getStatus() == null) {
      return 0;
    }
    for (List<ContainerStatus> list :
        List.of(
            nonNull(pod.getStatus().getInitContainerStatuses()),
            nonNull(pod.getStatus().getContainerStatuses()))) {
      for (ContainerStatus s : list) {
        sum += s.getRestartCount() == null ? 0 : s.getRestartCount();
      }
    }
    return sum;
  }

  private static List<ContainerStatus> nonNull(List<ContainerStatus> list) {
    return list == null ? List.of() : list;
  }

  private static int exitCode(ContainerStateTerminated ended) {
    return ended.getExitCode() == null ? -1 : ended.getExitCode();
  }
}
