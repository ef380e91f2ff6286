package dev.jobc.trainer;

import dev.jobc.bind.ObjectTrees;
import dev.jobc.conventions.JobSetNames;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMeta;

/**
 * The JobSet, as {@code pkg/runtime/framework/plugins/jobset/jobset.go Build} applies it, without
 * the owner reference to the TrainJob: jobc renders the JobSet instead of the TrainJob, so there is
 * no TrainJob object to own it.
 */
final class TrainJobSetGenerator {
  private TrainJobSetGenerator() {}

  static GenericKubernetesResource generate(TrainJobPlan plan) {
    GenericKubernetesResource jobSet = new GenericKubernetesResource();
    jobSet.setApiVersion(JobSetNames.API_VERSION);
    jobSet.setKind(JobSetNames.KIND);
    jobSet.setMetadata(ObjectTrees.copy(plan.metadata(), ObjectMeta.class));
    jobSet.setAdditionalProperty("spec", plan.spec().deepCopy());
    return jobSet;
  }
}
