package dev.jobc.replica;

import dev.jobc.k8s.Metadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import java.util.ArrayList;
import java.util.List;

/**
 * With {@code --workers pods} (or {@code jobc.dev/workers: pods}), or a Kueue queue name: each
 * replica as the bare Pod {@code <job>-<type>-<i>} the operator creates, with the replica's restart
 * policy (ExitCode runs as Never) and {@code runPolicy.activeDeadlineSeconds} on the pod. Nothing
 * replaces a failed pod.
 */
public final class ReplicaPodGenerator {

  public List<Pod> generate(ReplicaPlan plan) {
    List<Pod> out = new ArrayList<>(plan.replicas().size());
    for (ReplicaPod r : plan.replicas()) {
      PodTemplateSpec template = ReplicaPodTemplates.of(plan, r, false);
      template.getMetadata().setName(r.name());
      template.getMetadata().setNamespace(plan.namespace());
      Metadata.annotate(template.getMetadata(), Metadata.objectAnnotations(plan.options()));
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
