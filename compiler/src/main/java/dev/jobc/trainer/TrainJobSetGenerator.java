package dev.jobc.trainer;

import dev.jobc.bind.ObjectTrees;
import dev.jobc.conventions.JobSetNames;
import dev.jobc.k8s.GangScheduling;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import java.util.LinkedHashMap;
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

  /**
   * coscheduling.go and volcano.go Build: the PodGroup of {@link GangScheduling#podGroup}, with
   * Volcano's networkTopology; null without a podGroupPolicy.
   */
  @SuppressWarnings("unchecked")
  static GenericKubernetesResource podGroup(TrainJobPlan plan) {
    if (plan.podGroup() == null) {
      return null;
    }
    ObjectMeta meta = plan.podGroupMetadata();
    GenericKubernetesResource group =
        GangScheduling.podGroup(
            plan.podGroup(),
            meta.getName(),
            meta.getNamespace(),
            meta.getLabels(),
            meta.getAnnotations());
    if (plan.networkTopology() != null) {
      Map<String, Object> spec = (Map<String, Object>) group.getAdditionalProperties().get("spec");
      spec.put("networkTopology", plan.networkTopology().deepCopy());
    }
    return group;
  }

  /** flux.go Build: the ConfigMap of the entrypoint and init scripts; null without Flux. */
  static ConfigMap fluxScripts(TrainJobPlan plan) {
    if (plan.fluxScripts() == null) {
      return null;
    }
    ConfigMap map = new ConfigMap();
    map.setMetadata(ObjectTrees.copy(plan.fluxScripts().metadata(), ObjectMeta.class));
    map.setData(new LinkedHashMap<>(plan.fluxScripts().data()));
    return map;
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
