package dev.jobc.mpi;

import dev.jobc.conventions.MpiLabels;
import dev.jobc.k8s.GangScheduling;
import dev.jobc.k8s.Metadata;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;

/**
 * PodGroup {@code <job>} for gang scheduling, as mpi-operator v2's {@code newPodGroup} builds it
 * (see {@link GangScheduling#podGroup}), with the labels every jobc object carries.
 */
public final class PodGroupGenerator {
  public GenericKubernetesResource generate(MpiJobPlan plan) {
    return GangScheduling.podGroup(
        plan.gang(),
        plan.name(),
        plan.namespace(),
        MpiLabels.objectLabels(plan.name()),
        Metadata.objectAnnotations(plan.options()));
  }
}
