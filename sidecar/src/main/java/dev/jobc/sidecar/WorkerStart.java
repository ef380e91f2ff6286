package dev.jobc.sidecar;

import dev.jobc.conventions.DglNaming;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodSchedulingGate;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;

/**
 * Starts a DGLJob's workers once its partitioner has succeeded, as dgl-operator creates them only
 * in phase Partitioned ({@code controllers/dgljob_controller.go} {@code Reconcile}): the worker
 * StatefulSet, rendered with 0 replicas, is scaled to its size; bare worker pods, rendered with the
 * scheduling gate {@value DglNaming#PARTITIONED_GATE}, lose that gate (other gates stay). Until
 * then the workers hold no node capacity. Both are idempotent, so a retry after an unclear answer
 * is harmless.
 */
final class WorkerStart {
  /**
   * How long the start goes on attempting (see {@link Attempts}): partitioning may have taken
   * hours, and an API server that is restarting or overloaded must not throw that away.
   */
  static final Duration LONGEST = Duration.ofHours(1);

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
    try {
      return Attempts.until(
          "starting the workers",
          LONGEST,
          termination,
          () -> {
            if (termination.stopRequested()) {
              // The pod is stopping: its release sidecar is about to let the workers go.
              throw new CancellationException("stopped (SIGTERM)");
            }
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
          });
    } catch (RuntimeException e) {
      return "could not start the workers: " + PodWatch.describe(e);
    }
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
