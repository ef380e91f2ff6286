package dev.jobc.replica;

import dev.jobc.k8s.Metadata;
import dev.jobc.options.CompileOptions;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * With {@code --workers pods} (or {@code jobc.dev/workers: pods}), or a Kueue queue name: each
 * replica as the bare Pod {@code <job>-<type>-<i>} the operator creates, with the replica's restart
 * policy (ExitCode runs as Never), {@code runPolicy.activeDeadlineSeconds} on the pod and Flux's
 * {@code ssa: IfNotPresent}. Nothing replaces a failed pod.
 */
public final class ReplicaPodGenerator {

  public List<Pod> generate(ReplicaPlan plan) {
    List<Pod> out = new ArrayList<>(plan.replicas().size());
    for (ReplicaPod r : plan.replicas()) {
      out.add(
          pod(
              ReplicaPodTemplates.of(plan, r, false),
              r.name(),
              plan.namespace(),
              plan.options(),
              plan.job().runPolicy().activeDeadlineSeconds()));
    }
    return out;
  }

  /**
   * The bare Pod {@code name} of a replica's fresh {@code template}, which it takes over; the
   * template's own deadline, else {@code activeDeadlineSeconds}. TFJob's generator builds its Pods
   * here too.
   */
  public static Pod pod(
      PodTemplateSpec template,
      String name,
      String namespace,
      CompileOptions options,
      Long activeDeadlineSeconds) {
    template.getMetadata().setName(name);
    template.getMetadata().setNamespace(namespace);
    Metadata.annotate(template.getMetadata(), Metadata.objectAnnotations(options));
    // The sidecar ends a Pod still running once the job's outcome is decided by lowering its
    // deadline: Flux must not undo it (nor recreate the Pod, whose deadline may not be raised).
    Metadata.annotate(template.getMetadata(), Map.of(Metadata.FLUX_SSA, Metadata.IF_NOT_PRESENT));
    if (template.getSpec().getActiveDeadlineSeconds() == null) {
      template.getSpec().setActiveDeadlineSeconds(activeDeadlineSeconds);
    }
    Pod pod = new Pod();
    pod.setMetadata(template.getMetadata());
    pod.setSpec(template.getSpec());
    return pod;
  }
}
