package dev.jobc.sidecar;

import dev.jobc.conventions.DglNaming;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodSchedulingGate;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Starts a DGLJob's workers once its partitioner has succeeded, as dgl-operator creates them only
 * in phase Partitioned ({@code controllers/dgljob_controller.go} {@code Reconcile}): the worker
 * StatefulSet, rendered with 0 replicas, is scaled to its size; bare worker pods, rendered with the
 * scheduling gate {@value DglNaming#PARTITIONED_GATE}, lose that gate (other gates stay). Until
 * then the workers hold no node capacity. Both are idempotent, so a retry after an unclear answer
 * is harmless.
 */
final class WorkerStart {
  /** Attempts and first back-off; the API may be briefly unavailable. */
  static final int ATTEMPTS = 4;

  static final Duration FIRST_BACKOFF = Duration.ofMillis(250);

  private final KubernetesClient client;
  private final String namespace;

  WorkerStart(KubernetesClient client, String namespace) {
    this.client = client;
    this.namespace = namespace;
  }

  /**
   * Scales {@code statefulSet} (when not {@code null}) to {@code replicas} and ungates {@code
   * pods}; returns {@code null} when done, else why not.
   */
  String start(String statefulSet, int replicas, List<String> pods, Termination termination)
      throws InterruptedException {
    RuntimeException last = null;
    Duration backoff = FIRST_BACKOFF;
    for (int attempt = 1; attempt <= ATTEMPTS; attempt++) {
      try {
        if (statefulSet != null) {
          new WorkerScale(client, namespace).scale(statefulSet, replicas);
          Log.info("scaled StatefulSet " + statefulSet + " to " + replicas);
        }
        for (String pod : pods) {
          ungate(pod);
        }
        if (!pods.isEmpty()) {
          Log.info("removed scheduling gate " + DglNaming.PARTITIONED_GATE + ": " + pods);
        }
        return null;
      } catch (RuntimeException e) {
        last = e;
        Log.info("starting the workers, attempt " + attempt + " failed: " + PodWatch.describe(e));
        if (attempt < ATTEMPTS && termination.awaitStop(backoff)) {
          break;
        }
        backoff = backoff.multipliedBy(2);
      }
    }
    return "could not start the workers: " + PodWatch.describe(last);
  }

  private void ungate(String name) {
    client.pods().inNamespace(namespace).withName(name).edit(WorkerStart::withoutOurGate);
  }

  static Pod withoutOurGate(Pod pod) {
    List<PodSchedulingGate> gates = pod.getSpec().getSchedulingGates();
    if (gates == null || gates.isEmpty()) {
      return pod;
    }
    List<PodSchedulingGate> kept = new ArrayList<>();
    for (PodSchedulingGate g : gates) {
      if (!DglNaming.PARTITIONED_GATE.equals(g.getName())) {
        kept.add(g);
      }
    }
    return new PodBuilder(pod).editSpec().withSchedulingGates(kept).endSpec().build();
  }
}
