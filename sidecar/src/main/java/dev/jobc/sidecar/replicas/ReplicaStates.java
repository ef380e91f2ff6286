package dev.jobc.sidecar.replicas;

import dev.jobc.conventions.ReplicaLabels;
import dev.jobc.sidecar.base.Pods;
import dev.jobc.sidecar.replicas.OutcomeRules.Carrier;
import io.fabric8.kubernetes.api.model.ContainerStateTerminated;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobCondition;
import io.fabric8.kubernetes.api.model.batch.v1.PodFailurePolicy;
import io.fabric8.kubernetes.api.model.batch.v1.PodFailurePolicyBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.PodFailurePolicyOnExitCodesRequirement;
import io.fabric8.kubernetes.api.model.batch.v1.PodFailurePolicyRule;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

/**
 * A replica's {@link ReplicaState}, read in one pass from what the sidecar sees of it:
 *
 * <ol>
 *   <li>a bare Pod has no controller: its phase and its main container decide ({@link #ofPod});
 *   <li>a Job the sidecar reads says what its controller applied ({@code backoffLimit}, {@code
 *       podFailurePolicy}, the deadline): finished, suspended, or running, so the sidecar never
 *       recounts those;
 *   <li>a failed pod of the replica that the kind's operator would not have started again fails it,
 *       where the Job would retry it;
 *   <li>this sidecar's own pod adds what its Job will conclude once this sidecar, its last
 *       container, has exited ({@link #predicted});
 *   <li>the pods of a Job the sidecar does not read say what its controller concludes ({@link
 *       #ofJobPods}).
 * </ol>
 */
final class ReplicaStates {
  /** Annotation a sidecar puts on what it stopped, naming the replica that decided. */
  static final String STOPPED_BY = "jobc.dev/stopped-by";

  static final String DEADLINE_EXCEEDED = "DeadlineExceeded";
  static final String BACKOFF_LIMIT_EXCEEDED = "BackoffLimitExceeded";
  static final String POD_FAILURE_POLICY = "PodFailurePolicy";
  static final String FAILED = "Failed";

  /**
   * A replica failed by a pod that training-operator would not have started again, while its Job
   * starts another one: the replica still runs ({@link ReplicaState#runsOn}).
   */
  static final String UNRETRIED_POD = "UnretriedPod";

  private ReplicaStates() {}

  /**
   * The state of a replica of rules {@code r}: {@code job} its Job ({@code null}: none, or not
   * read), {@code pods} its pods, {@code own} this sidecar's pod when the replica is this one's.
   */
  static ReplicaState of(ReplicaRules r, Job job, List<Pod> pods, Pod own) {
    if (r.carrier() == Carrier.POD) {
      return ofPod(own != null ? own : pods.isEmpty() ? null : pods.get(0), r);
    }
    if (r.readsJobs()) {
      if (job == null) {
        return ReplicaState.ABSENT;
      }
      ReplicaState byJob = ofJobStatus(job);
      if (byJob != null) {
        return byJob;
      }
    }
    for (Pod p : pods) {
      if (p != own && failedForGood(p, r)) {
        return ReplicaState.failed(retriedByItsJob(p, r) ? UNRETRIED_POD : FAILED);
      }
    }
    if (own != null) {
      return predicted(job, own, r, failedBefore(job, pods, own));
    }
    return r.readsJobs() ? ReplicaState.ACTIVE : ofJobPods(pods, r);
  }

  /** What a Job's conditions and {@code spec.suspend} say, or {@code null} while it runs. */
  private static ReplicaState ofJobStatus(Job job) {
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
    return null;
  }

  /**
   * Whether {@code pod} has failed in a way the kind's operator does not retry ({@code
   * ReconcilePods} in training-operator v1.9.0 {@code pkg/controller.v1/common/pod.go}, then the
   * kind's {@code UpdateJobStatus}): under {@code Never} any failed pod, under {@code ExitCode} one
   * whose main container's exit code is not retryable ({@link #retryable}), and under {@code
   * OnFailure} and {@code Always} one the kind does not start again. A pod being deleted was killed
   * (evicted, preempted, its Job suspended or failed): it says nothing of the program, and the Job
   * counts it.
   */
  private static boolean failedForGood(Pod pod, ReplicaRules r) {
    if (!FAILED.equals(Pods.phase(pod)) || pod.getMetadata().getDeletionTimestamp() != null) {
      return false;
    }
    if (!r.failedPodRestarted()) {
      return true;
    }
    return "ExitCode".equals(r.restartPolicy()) && !retryable(exitCode(pod, r.container()));
  }

  /**
   * training-operator's {@code IsRetryableExitCode} ({@code pkg/util/train/train_util.go}): 128 and
   * above, a signal, and no exit code at all ({@code ReconcilePods} starts from {@code 0xbeef} when
   * the main container has not terminated: an evicted pod, say). 0 is not: a failed pod whose
   * program exited 0 (another of its containers failed) fails the job.
   */
  static boolean retryable(Integer exitCode) {
    return exitCode == null || exitCode >= 128;
  }

  /**
   * Whether the replica's Job starts another pod after {@code pod}, which {@link #failedForGood},
   * where training-operator would not: under {@code OnFailure} and {@code Always} (the Job counts
   * the failed pod against its limit), and under {@code ExitCode} for exit code 0, which its {@code
   * podFailurePolicy} cannot name. Under {@code Never} the Job's limit is 0, and under {@code
   * ExitCode} the policy fails it on 1 to 127.
   */
  private static boolean retriedByItsJob(Pod pod, ReplicaRules r) {
    return switch (r.restartPolicy()) {
      case "Never" -> false;
      case "ExitCode" -> Integer.valueOf(0).equals(exitCode(pod, r.container()));
      default -> true;
    };
  }

  private static Integer exitCode(Pod pod, String container) {
    ContainerStateTerminated ended = Pods.terminated(pod, container);
    return ended == null ? null : ended.getExitCode();
  }

  /** The failed pods its Job has counted, or, unread, those of {@code pods} but {@code own}. */
  private static int failedBefore(Job job, List<Pod> pods, Pod own) {
    if (job != null) {
      Integer failed = job.getStatus() == null ? null : job.getStatus().getFailed();
      return failed == null ? 0 : failed;
    }
    int failed = 0;
    for (Pod p : pods) {
      if (p != own && FAILED.equals(Pods.phase(p))) {
        failed++;
      }
    }
    return failed;
  }

  /**
   * What the Job controller will make of this sidecar's own pod, whose status it reads as this
   * sidecar does (Kubernetes {@code pkg/controller/job/job_controller.go}): a main container that
   * exited 0 completes the Job; a pod being deleted tells nothing (its Job's condition will); with
   * restart policy OnFailure the container restarts of the pod count against {@code backoffLimit}
   * ({@code pastBackoffLimitOnFailure}: at least the limit, or any with a limit of 0), a main
   * container that has just failed among them, as the kubelet restarts it; with Never the pod fails
   * once this sidecar has exited, and either a {@code podFailurePolicy} rule fails the Job ({@code
   * FailJob}), ignores the failure ({@code Ignore}), or it counts: the Job fails once its failed
   * pods then exceed the limit.
   *
   * @param job the replica's Job, or {@code null} when not read: then the limit and {@code
   *     podFailurePolicy} are what jobc renders, and the failed pods those seen
   */
  static ReplicaState predicted(Job job, Pod self, ReplicaRules r, int failedBefore) {
    ContainerStateTerminated ended = Pods.terminated(self, r.container());
    if (ended != null && exitCode(ended) == 0) {
      return ReplicaState.SUCCEEDED;
    }
    if (self.getMetadata().getDeletionTimestamp() != null) {
      // Killed, not ended by itself: the Job controller deletes its pod when the Job fails or is
      // suspended (before 1.31 ahead of writing why), an eviction deletes it too. The Job says.
      return ReplicaState.ACTIVE;
    }
    int limit = limit(job, r);
    if ("OnFailure".equals(r.podRestartPolicy())) {
      int restarts = active(self) ? restarts(self) : 0;
      int failures = restarts + (ended == null ? 0 : 1);
      return failedBefore > limit || (limit == 0 ? failures > 0 : failures >= limit)
          ? ReplicaState.failed(BACKOFF_LIMIT_EXCEEDED)
          : ReplicaState.active(restarts);
    }
    if (ended == null) {
      return ReplicaState.ACTIVE;
    }
    String action = failurePolicyAction(podFailurePolicy(job, r), self);
    if ("FailJob".equals(action)) {
      return ReplicaState.failed(POD_FAILURE_POLICY);
    }
    if ("Ignore".equals(action)) {
      return ReplicaState.ACTIVE;
    }
    return failedBefore + mainRestarts(self, r.container()) + 1 > limit
        ? ReplicaState.failed(BACKOFF_LIMIT_EXCEEDED)
        : ReplicaState.ACTIVE;
  }

  /**
   * A replica whose Job the sidecar does not read, from its pods: what the Job controller has
   * concluded from them. A pod that succeeded (or whose main container exited 0 in a pod that has
   * not failed) completes it; failed pods beyond the limit, or under OnFailure the restarts of its
   * running pods reaching it ({@code pastBackoffLimitOnFailure}), fail it.
   */
  static ReplicaState ofJobPods(List<Pod> pods, ReplicaRules r) {
    boolean onFailure = "OnFailure".equals(r.podRestartPolicy());
    int failed = 0;
    int restarts = 0;
    for (Pod p : pods) {
      String phase = Pods.phase(p);
      ContainerStateTerminated ended = Pods.terminated(p, r.container());
      if ("Succeeded".equals(phase)
          || (!FAILED.equals(phase) && ended != null && exitCode(ended) == 0)) {
        return ReplicaState.SUCCEEDED;
      }
      if (FAILED.equals(phase)) {
        failed++;
      } else if (onFailure && active(p)) {
        restarts += restarts(p);
      }
    }
    int limit = r.jobBackoffLimit();
    boolean usedUp =
        failed > limit || (onFailure && (limit == 0 ? restarts > 0 : restarts >= limit));
    return usedUp ? ReplicaState.failed(BACKOFF_LIMIT_EXCEEDED) : ReplicaState.ACTIVE;
  }

  private static int limit(Job job, ReplicaRules r) {
    if (job == null) {
      return r.jobBackoffLimit();
    }
    Integer given = job.getSpec() == null ? null : job.getSpec().getBackoffLimit();
    return given == null ? OutcomeRules.DEFAULT_BACKOFF_LIMIT : given;
  }

  /** The Job's {@code podFailurePolicy}, or unread, the one jobc renders for {@code ExitCode}. */
  private static PodFailurePolicy podFailurePolicy(Job job, ReplicaRules r) {
    if (job != null) {
      return job.getSpec() == null ? null : job.getSpec().getPodFailurePolicy();
    }
    return "ExitCode".equals(r.restartPolicy()) ? exitCodePolicy(r.container()) : null;
  }

  /**
   * What jobc renders on the Job of a replica under {@code ExitCode}: exit codes 1 to 127 of the
   * main container fail it at once ({@code IsRetryableExitCode}); 128 and above count against
   * {@code backoffLimit}, and the Job starts another pod.
   */
  static PodFailurePolicy exitCodePolicy(String container) {
    return new PodFailurePolicyBuilder()
        .addNewRule()
        .withAction("FailJob")
        .withNewOnExitCodes()
        .withContainerName(container)
        .withOperator("In")
        .withValues(IntStream.range(1, 128).boxed().toList())
        .endOnExitCodes()
        .endRule()
        .build();
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
  static ReplicaState ofPod(Pod pod, ReplicaRules r) {
    if (pod == null) {
      return ReplicaState.ABSENT;
    }
    String phase = Pods.phase(pod);
    if (FAILED.equals(phase)) {
      if (stoppedBy(pod.getMetadata().getAnnotations())) {
        return ReplicaState.STOPPED;
      }
      String reason = pod.getStatus().getReason();
      return ReplicaState.failed(reason == null ? FAILED : reason);
    }
    if ("Succeeded".equals(phase)) {
      return ReplicaState.SUCCEEDED;
    }
    String restartPolicy = r.podRestartPolicy();
    ContainerStateTerminated ended = Pods.terminated(pod, r.container());
    if (ended != null && exitCode(ended) == 0 && !"Always".equals(restartPolicy)) {
      return ReplicaState.SUCCEEDED;
    }
    if (ended != null && exitCode(ended) != 0 && "Never".equals(restartPolicy)) {
      return ReplicaState.failed(FAILED);
    }
    // training-operator's PastBackoffLimit counts restarts of Running pods only.
    return ReplicaState.active("Running".equals(phase) ? restarts(pod) : 0);
  }

  /** Pods by replica name, {@code <job>-<type>-<index>}, from the operator's labels. */
  static Map<String, List<Pod>> byReplica(String job, Map<String, Pod> pods) {
    Map<String, List<Pod>> out = new LinkedHashMap<>();
    for (Pod p : pods.values()) {
      Map<String, String> labels = p.getMetadata().getLabels();
      String type = labels == null ? null : labels.get(ReplicaLabels.REPLICA_TYPE);
      String index = labels == null ? null : labels.get(ReplicaLabels.REPLICA_INDEX);
      if (type == null || index == null) {
        continue;
      }
      out.computeIfAbsent(job + "-" + type + "-" + index, k -> new ArrayList<>()).add(p);
    }
    return out;
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

  /**
   * Restarts of the main container alone: under restart policy Never only the native sidecars
   * restart (this one among them), which the Job controller does not count; the main container's
   * count is 0 there, but is taken as a failed attempt all the same.
   */
  private static int mainRestarts(Pod pod, String container) {
    ContainerStatus status = Pods.container(pod, container);
    return status == null || status.getRestartCount() == null ? 0 : status.getRestartCount();
  }

  private static List<ContainerStatus> nonNull(List<ContainerStatus> list) {
    return list == null ? List.of() : list;
  }

  private static int exitCode(ContainerStateTerminated ended) {
    return ended.getExitCode() == null ? -1 : ended.getExitCode();
  }
}
