package dev.jobc.tf;

import dev.jobc.k8s.Metadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * With {@code --workers pods} (or {@code jobc.dev/workers: pods}): each replica as the bare Pod
 * {@code <job>-<type>-<i>} the operator creates, with the replica's restart policy (ExitCode runs
 * as Never) and {@code runPolicy.activeDeadlineSeconds} on the pod, and Flux's {@code ssa:
 * IfNotPresent}. Nothing replaces a failed pod.
 */
public final class TfReplicaPodGenerator {

  public List<Pod> generate(TfJobPlan plan) {
    List<Pod> out = new ArrayList<>(plan.replicas().size());
    for (TfReplica r : plan.replicas()) {
      PodTemplateSpec template = TfPodTemplates.of(plan, r, false);
      template.getMetadata().setName(r.name());
      template.getMetadata().setNamespace(plan.namespace());
      Metadata.annotate(template.getMetadata(), Metadata.objectAnnotations(plan.options()));
      // The sidecar ends a running replica by lowering its activeDeadlineSeconds; a re-apply
      // must leave that alone (and could not raise it again).
      Metadata.annotate(template.getMetadata(), Map.of(Metadata.FLUX_SSA, Metadata.IF_NOT_PRESENT));
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
