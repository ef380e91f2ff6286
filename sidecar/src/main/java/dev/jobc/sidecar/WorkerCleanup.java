package dev.jobc.sidecar;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Applies {@code cleanPodPolicy} to the workers once the launcher has ended, as mpi-operator did
 * when an MPIJob finished: {@code None} keeps them; {@code Running} releases running (and pending)
 * ones; {@code All} releases all. Workers in a StatefulSet are released by scaling it to 0 with
 * server-side apply under field manager {@code jobc-sidecar} (a StatefulSet with restart policy
 * Always never has ended pods, so Running and All do the same); bare worker pods are deleted.
 */
final class WorkerCleanup {
  /**
   * How long one clean-up goes on attempting (see {@link Attempts}): far beyond an API server's
   * restart. After SIGTERM the pod's grace period ends it sooner.
   */
  static final Duration LONGEST = Duration.ofHours(1);

  private final KubernetesClient client;
  private final String namespace;
  private final WorkerScale scale;

  WorkerCleanup(KubernetesClient client, String namespace) {
    this.client = client;
    this.namespace = namespace;
    this.scale = new WorkerScale(client, namespace);
  }

  /** What a clean-up did, for the Event. */
  record Result(boolean ok, String reason, String message) {}

  /** Applies {@code cleanPodPolicy} ({@code None}, {@code Running} or {@code All}). */
  Result apply(
      String policy, String workerSet, Map<String, String> workerLabels, Termination termination)
      throws InterruptedException {
    if ("None".equals(policy)) {
      return new Result(true, "WorkersKept", "cleanPodPolicy None: the workers keep running");
    }
    return release(policy, "cleanPodPolicy " + policy, workerSet, workerLabels, termination);
  }

  /**
   * Releases every worker whatever {@code cleanPodPolicy} says: mpi-operator v0.8.2 deletes the
   * workers of a suspended MPIJob, so that a queue (Kueue) can give their resources to others.
   */
  Result suspend(String workerSet, Map<String, String> workerLabels, Termination termination)
      throws InterruptedException {
    return release("All", "all workers released", workerSet, workerLabels, termination);
  }

  private Result release(
      String policy,
      String why,
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
            if (workerSet != null) {
              scale.scale(workerSet, 0);
              return new Result(
                  true, "WorkersScaledDown", why + ": StatefulSet " + workerSet + " scaled to 0");
            }
            List<String> deleted = deletePods(policy, workerLabels);
            return new Result(
                true,
                "WorkersDeleted",
                why + ": deleted " + (deleted.isEmpty() ? "no pods" : String.join(", ", deleted)));
          });
    } catch (RuntimeException e) {
      return new Result(false, "CleanupFailed", why + ": not applied: " + PodWatch.describe(e));
    }
  }

  private List<String> deletePods(String policy, Map<String, String> workerLabels) {
    List<String> deleted = new ArrayList<>();
    for (Pod p : client.pods().inNamespace(namespace).withLabels(workerLabels).list().getItems()) {
      String phase = Pods.phase(p);
      // mpi-operator: with Running, keep pods that are neither Running nor Pending.
      if ("Running".equals(policy) && !phase.equals("Running") && !phase.equals("Pending")) {
        continue;
      }
      client.pods().inNamespace(namespace).withName(p.getMetadata().getName()).delete();
      deleted.add(p.getMetadata().getName());
    }
    return deleted;
  }
}
