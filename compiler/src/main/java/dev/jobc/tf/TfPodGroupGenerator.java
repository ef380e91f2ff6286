package dev.jobc.tf;

import dev.jobc.conventions.MpiLabels;
import dev.jobc.k8s.GangScheduling;
import dev.jobc.k8s.Metadata;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;

/** PodGroup {@code <job>} for gang scheduling (training-operator v1.9.0 {@code ReconcileJobs}). */
public final class TfPodGroupGenerator {

  public GenericKubernetesResource generate(TfJobPlan plan) {
    return GangScheduling.podGroup(
        plan.gang(),
        plan.name(),
        plan.namespace(),
        MpiLabels.objectLabels(plan.name()),
        Metadata.objectAnnotations(plan.options()));
  }
}
