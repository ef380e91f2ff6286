package dev.jobc.replica;

import dev.jobc.k8s.Metadata;
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
      PodTemplateSpec template = ReplicaPodTemplates.of(plan, r, false);
      template.getMetadata().setName(r.name());
      template.getMetadata().setNamespace(plan.namespace());
      Metadata.annotate(template.getMetadata(), Metadata.objectAnnotations(plan.options()));
      // The sidecar ends a Pod still running once the job has finished by lowering its deadline:
      // Flux must not undo it (nor recreate the Pod, whose deadline may not be raised).
      Metadata.annotate(template.getMetadata(), Map.of(Metadata.FLUX_SSA, "IfNotPresent"));
      if (template.getSpec().getActiveDeadlineSeconds() == null) {
        template.getSpec().setActiveDeadlineSeconds(plan.job().runPolicy().activeDeadlineSeconds());
      }
      Pod pod = new Pod();
      pod.setMetadata(template.getMetadata());
      pod.setSpec(template.getSpec());
      out.add(pod);
    }
    return out;
  }
}
