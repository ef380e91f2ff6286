package dev.jobc.trainer;

import dev.jobc.bind.ObjectTrees;
import dev.jobc.conventions.JobSetNames;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import java.util.Map;

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

  /** mpi.go buildHostFileConfigMap: the hostfile under its key {@code hostfile}; null without. */
  static ConfigMap hostfile(TrainJobPlan plan) {
    if (plan.hostfile() == null) {
      return null;
    }
    ConfigMap map = new ConfigMap();
    map.setMetadata(ObjectTrees.copy(plan.hostfileMetadata(), ObjectMeta.class));
    map.setData(Map.of(TrainJobPlanner.HOSTFILE, plan.hostfile()));
    return map;
  }
}
