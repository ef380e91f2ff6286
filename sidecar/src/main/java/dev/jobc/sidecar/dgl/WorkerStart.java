package dev.jobc.sidecar.dgl;

import dev.jobc.conventions.DglNaming;
import dev.jobc.sidecar.base.Attempts;
import dev.jobc.sidecar.base.Log;
import dev.jobc.sidecar.base.PodWatch;
import dev.jobc.sidecar.base.Termination;
import dev.jobc.sidecar.base.WorkerScale;
import dev.jobc.sidecar.client.ApiException;
import dev.jobc.sidecar.client.ClusterApi;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodSchedulingGate;
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

  private final ClusterApi client;
  private final String namespace;

  WorkerStart(ClusterApi client, String namespace) {
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

  /**
   * Removes jobc's gate from pod {@code name}, keeping any other (Kueue's, say): a JSON patch under
   * field manager {@code jobc-sidecar} that tests the gate is still at the index read, then removes
   * it, so that a gate another controller removed meanwhile makes the request fail (and the next
   * attempt read again) instead of taking the wrong one. The rendered pod carries Flux's {@code
   * ssa: IfNotPresent}; Argo CD ignores the field (docs/gitops.md).
   */
  private void ungate(String name) {
    Pod pod = client.getPod(namespace, name);
    if (pod == null) {
      throw new ApiException(404, "pod " + name + " not found");
    }
    List<PodSchedulingGate> gates = pod.getSpec().getSchedulingGates();
    int at = -1;
    for (int i = 0; gates != null && i < gates.size(); i++) {
      if (DglNaming.PARTITIONED_GATE.equals(gates.get(i).getName())) {
        at = i;
      }
    }
    if (at < 0) {
      return; // lifted already
    }
    String path = "/spec/schedulingGates/" + at;
    client.patchPod(
        namespace,
        name,
        ClusterApi.PatchType.JSON,
        "[{\"op\":\"test\",\"path\":\""
            + path
            + "/name\",\"value\":\""
            + DglNaming.PARTITIONED_GATE
            + "\"},{\"op\":\"remove\",\"path\":\""
            + path
            + "\"}]");
  }

  /** The pod's scheduling gates but jobc's. */
  static List<PodSchedulingGate> withoutOurGate(Pod pod) {
    List<PodSchedulingGate> kept = new ArrayList<>();
    List<PodSchedulingGate> gates = pod.getSpec().getSchedulingGates();
    if (gates != null) {
      for (PodSchedulingGate g : gates) {
        if (!DglNaming.PARTITIONED_GATE.equals(g.getName())) {
          kept.add(g);
        }
      }
    }
    return kept;
  }
}
