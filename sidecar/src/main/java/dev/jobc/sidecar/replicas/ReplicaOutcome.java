package dev.jobc.sidecar.replicas;

import dev.jobc.conventions.ReplicaLabels;
import dev.jobc.sidecar.base.Pods;
import io.fabric8.kubernetes.api.model.ContainerStateTerminated;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A job's outcome from its pods, as training-operator v1.9.0's controllers decide it in {@code
 * UpdateJobStatus} for every kind of its family: a pure function of the rules below and the pods as
 * the watch sees them, knowing nothing of any one kind.
 *
 * <ul>
 *   <li><b>Success</b>: the deciding type's replicas have succeeded (their main container exited
 *       0): all of them, or with {@code any} the first (PyTorchJob's elastic workers). The sidecar
 *       runs beside every replica of that type, so the last to succeed (or the first) decides.
 *   <li><b>Failure</b>: a replica has failed for good under its type's restart policy: under {@code
 *       Never} a failed pod; under {@code ExitCode} an exit code of 1-127 (128 and above, killed by
 *       a signal, are retried: {@code IsRetryableExitCode}) or more failed pods than {@code
 *       backoffLimit}, or any failure of a bare Pod, which nothing replaces; under {@code
 *       OnFailure} and {@code Always} failed attempts, container restarts included, reaching {@code
 *       backoffLimit}, as the Job controller fails the Job and deletes its pods then. Types in
 *       {@code tolerated} never fail the job.
 * </ul>
 */
final class ReplicaOutcome {
  /**
   * What decides a job.
   *
   * @param job the job's name
   * @param self this replica, {@code <job>-<type>-<index>}, of the deciding type
   * @param deciding the lower-case type whose replicas decide success
   * @param any whether the first deciding replica to succeed completes the job
   * @param others every other replica, name to lower-case type
   * @param tolerated lower-case types whose failures do not fail the job
   */
  record Rules(
      String job,
      String self,
      String mainContainer,
      Map<String, String> restartPolicies,
      int backoffLimit,
      String deciding,
      boolean any,
      boolean podCarrier,
      Map<String, String> others,
      Set<String> tolerated) {

    /** This replica's lower-case type: what lies between the job's name and the index. */
    String selfType() {
      String rest = self.substring(Math.min(self.length(), job.length() + 1));
      return rest.contains("-") ? rest.substring(0, rest.lastIndexOf('-')) : rest;
    }

    /** This replica's index: what follows the type. */
    int selfIndex() {
      String index = self.substring(self.lastIndexOf('-') + 1);
      return index.matches("[0-9]{1,9}") ? Integer.parseInt(index) : -1;
    }

    /**
     * Whether this replica's sidecar watches all the job's pods: replica 0 of the deciding type.
     * Every other deciding sidecar watches its own replica's pods alone, so that the pods watched
     * and the watch events per job grow linearly with the replicas, not with their square.
     */
    boolean watchesAll() {
      return self.equals(ReplicaLabels.replica(job, deciding, 0));
    }
  }

  /** The job has succeeded, or failed because replicas of {@code failedType} failed. */
  record Decision(boolean succeeded, String failedType, int failedReplicas) {}

  private final Rules r;

  ReplicaOutcome(Rules rules) {
    this.r = rules;
  }

  /**
   * The outcome, or {@code null} while the job runs on.
   *
   * @param pods the job's pods by name
   * @param me this replica's own pod, or {@code null} before the watch has seen it
   */
  Decision decide(Map<String, Pod> pods, Pod me) {
    Map<String, List<Pod>> byReplica = byReplica(pods);
    String failed = null;
    int count = 0;
    if (me != null && failedForGood(r.selfType(), byReplica.get(r.self()), me)) {
      failed = r.selfType();
      count = 1;
    }
    for (Map.Entry<String, String> other : r.others().entrySet()) {
      String type = other.getValue();
      if (r.tolerated().contains(type) || failed != null && !failed.equals(type)) {
        continue;
      }
      if (failedForGood(type, byReplica.get(other.getKey()), null)) {
        failed = type;
        count++;
      }
    }
    if (failed != null) {
      return new Decision(false, failed, count);
    }
    if (me == null || !succeeded(me)) {
      return null;
    }
    if (!r.any()) {
      for (Map.Entry<String, String> other : r.others().entrySet()) {
        if (r.deciding().equals(other.getValue())
            && !anySucceeded(byReplica.getOrDefault(other.getKey(), List.of()))) {
          return null;
        }
      }
    }
    return new Decision(true, null, 0);
  }

  /** Pods by replica name, from the operator's replica-type and replica-index labels. */
  Map<String, List<Pod>> byReplica(Map<String, Pod> pods) {
    Map<String, List<Pod>> out = new LinkedHashMap<>();
    for (Pod p : pods.values()) {
      Map<String, String> labels = p.getMetadata().getLabels();
      String type = labels == null ? null : labels.get(ReplicaLabels.REPLICA_TYPE);
      String index = labels == null ? null : labels.get(ReplicaLabels.REPLICA_INDEX);
      if (type == null || index == null) {
        continue;
      }
      out.computeIfAbsent(r.job() + "-" + type + "-" + index, k -> new ArrayList<>()).add(p);
    }
    return out;
  }

  /**
   * Whether a replica has failed for good, given its pods; {@code me} is this replica's own pod,
   * whose ended attempt counts although the pod is not Failed while this sidecar runs.
   */
  private boolean failedForGood(String type, List<Pod> pods, Pod me) {
    String policy = r.restartPolicies().getOrDefault(type, "Never");
    int failures = 0;
    boolean nonRetryable = false;
    if (me != null) {
      ContainerStateTerminated ended = terminated(me);
      if (ended == null || exitCode(ended) == 0) {
        return false;
      }
      failures = 1 + restarts(me);
      nonRetryable = exitCode(ended) > 0 && exitCode(ended) < 128;
    }
    for (Pod p : pods == null ? List.<Pod>of() : pods) {
      if (me != null && p.getMetadata().getName().equals(me.getMetadata().getName())) {
        continue;
      }
      if ("Failed".equals(Pods.phase(p))) {
        failures++;
        ContainerStateTerminated ended = terminated(p);
        int c = ended == null ? 0 : exitCode(ended);
        nonRetryable |= c > 0 && c < 128;
      } else {
        failures += restarts(p);
      }
    }
    if (failures == 0) {
      return false;
    }
    return switch (policy) {
      case "Never" -> true;
      // A Job whose pods are never restarted fails when its failed pods exceed backoffLimit
      // (kubernetes/kubernetes pkg/controller/job/job_controller.go, exceedsBackoffLimit).
      case "ExitCode" -> nonRetryable || r.podCarrier() || failures > r.backoffLimit();
      // Under OnFailure the restarts REACHING backoffLimit fail the Job, and any restart under a
      // limit of 0 (pastBackoffLimitOnFailure: result >= backoffLimit; training-operator
      // v1.9.0 pkg/core/job.go PastBackoffLimit likewise); failures > 0 here.
      default -> failures >= r.backoffLimit();
    };
  }

  private boolean anySucceeded(List<Pod> pods) {
    for (Pod p : pods) {
      if ("Succeeded".equals(Pods.phase(p)) || succeeded(p)) {
        return true;
      }
    }
    return false;
  }

  private boolean succeeded(Pod p) {
    ContainerStateTerminated ended = terminated(p);
    return ended != null && exitCode(ended) == 0;
  }

  private ContainerStateTerminated terminated(Pod p) {
    ContainerStatus status = Pods.container(p, r.mainContainer());
    if (status == null || status.getState() == null) {
      return null;
    }
    return status.getState().getTerminated();
  }

  private int restarts(Pod p) {
    ContainerStatus status = Pods.container(p, r.mainContainer());
    return status == null || status.getRestartCount() == null ? 0 : status.getRestartCount();
  }

  private static int exitCode(ContainerStateTerminated ended) {
    return ended.getExitCode() == null ? -1 : ended.getExitCode();
  }
}
