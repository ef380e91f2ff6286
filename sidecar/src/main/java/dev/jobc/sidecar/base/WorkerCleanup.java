package dev.jobc.sidecar.base;

import dev.jobc.sidecar.client.ClusterApi;
import io.fabric8.kubernetes.api.model.Pod;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Applies {@code cleanPodPolicy} to the workers once the launcher has ended, as mpi-operator did
 * when an MPIJob finished: {@code None} keeps them; {@code Running} releases running (and pending)
 * ones; {@code All} releases all. Workers in a StatefulSet are released by scaling it to 0 with
 * server-side apply under field manager {@code jobc-sidecar} (a StatefulSet with restart policy
 * Always never has ended pods, so Running and All do the same); bare worker pods are ended (see
 * {@link #endPods}), never deleted: at run time nothing jobc rendered is deleted.
 */
public final class WorkerCleanup {
  /**
   * How long one clean-up goes on attempting (see {@link Attempts}): far beyond an API server's
   * restart. After SIGTERM the pod's grace period ends it sooner.
   */
  public static final Duration LONGEST = Duration.ofHours(1);

  /** The annotation an ended worker pod gets: the pod whose sidecar ended it. */
  public static final String ENDED_BY = "jobc.dev/stopped-by";

  private final ClusterApi client;
  private final String namespace;
  private final WorkerScale scale;
  private final String endedBy;

  /** A clean-up by the sidecar of pod {@code endedBy}. */
  public WorkerCleanup(ClusterApi client, String namespace, String endedBy) {
    this.client = client;
    this.namespace = namespace;
    this.scale = new WorkerScale(client, namespace);
    this.endedBy = endedBy;
  }

  /** What a clean-up did, for the Event. */
  public record Result(boolean ok, String reason, String message) {}

  /** Applies {@code cleanPodPolicy} ({@code None}, {@code Running} or {@code All}). */
  public Result apply(
      String policy, String workerSet, Map<String, String> workerLabels, Termination termination)
      throws InterruptedException {
    if ("None".equals(policy)) {
      return new Result(true, "WorkersKept", "cleanPodPolicy None: the workers keep running");
    }
    return release(policy, "cleanPodPolicy " + policy, null, workerSet, workerLabels, termination);
  }

  /**
   * Releases every worker whatever {@code cleanPodPolicy} says: mpi-operator v0.8.2 deletes the
   * workers of a suspended MPIJob, so that a queue (Kueue) can give their resources to others. Each
   * attempt first reads {@code launcherJob} again and releases nothing once it is no longer
   * suspended: a retry that outlived an API outage must not undo a resumption (mpi-operator's
   * syncHandler acts on the MPIJob as it is at each sync, not on the event that queued it).
   */
  public Result suspend(
      String launcherJob,
      String workerSet,
      Map<String, String> workerLabels,
      Termination termination)
      throws InterruptedException {
    return release(
        "All", "all workers released", launcherJob, workerSet, workerLabels, termination);
  }

  /** Whether {@code job} asks to be suspended ({@code spec.suspend}). */
  static boolean suspended(io.fabric8.kubernetes.api.model.batch.v1.Job job) {
    return job.getSpec() != null && Boolean.TRUE.equals(job.getSpec().getSuspend());
  }

  /** With {@code whileSuspended}, each attempt first checks that this Job is still suspended. */
  private Result release(
      String policy,
      String why,
      String whileSuspended,
      String workerSet,
      Map<String, String> workerLabels,
      Termination termination)
      throws InterruptedException {
    try {
      return Attempts.until(
          "releasing the workers",
          LONGEST,
          termination,
          () -> {
            if (whileSuspended != null) {
              var job = client.getJob(namespace, whileSuspended);
              if (job != null && !suspended(job)) {
                return new Result(
                    true,
                    "WorkersKept",
                    why.replace("released", "kept") + ": Job " + whileSuspended + " was resumed");
              }
            }
            if (workerSet != null) {
              scale.scale(workerSet, 0);
              return new Result(
                  true, "WorkersScaledDown", why + ": StatefulSet " + workerSet + " scaled to 0");
            }
            List<String> ended = endPods(policy, workerLabels);
            return new Result(
                true,
                "WorkersEnded",
                why + ": ended " + (ended.isEmpty() ? "no pods" : String.join(", ", ended)));
          });
    } catch (RuntimeException e) {
      return new Result(false, "CleanupFailed", why + ": not applied: " + PodWatch.describe(e));
    }
  }

  /**
   * Ends the worker pods {@code policy} selects, without deleting them (they are jobc's, in Git): a
   * JSON merge patch under field manager {@code jobc-sidecar} lowers {@code
   * spec.activeDeadlineSeconds} to 1, so the kubelet stops the pod (phase Failed, reason
   * DeadlineExceeded), and annotates it with {@value #ENDED_BY}. The rendered pods carry Flux's
   * {@code ssa: IfNotPresent}; Argo CD ignores the sidecar's fields (docs/gitops.md).
   */
  private List<String> endPods(String policy, Map<String, String> workerLabels) {
    List<String> ended = new ArrayList<>();
    for (Pod p : client.listPods(namespace, workerLabels)) {
      String phase = Pods.phase(p);
      // mpi-operator: with Running, keep pods that are neither Running nor Pending; a pod that has
      // ended needs nothing either way.
      if (phase.equals("Succeeded") || phase.equals("Failed")) {
        continue;
      }
      if ("Running".equals(policy) && !phase.equals("Running") && !phase.equals("Pending")) {
        continue;
      }
      String name = p.getMetadata().getName();
      client.patchPod(
          namespace,
          name,
          ClusterApi.PatchType.MERGE,
          "{\"metadata\":{\"annotations\":{\""
              + ENDED_BY
              + "\":\""
              + endedBy
              + "\"}},\"spec\":{\"activeDeadlineSeconds\":1}}");
      ended.add(name);
    }
    return ended;
  }
}
