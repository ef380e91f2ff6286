package dev.jobc.trainer;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jobc.k8s.GangPlan;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The JobSet a TrainJob becomes, the MPI plugin's hostfile ConfigMap, the gang plugins' PodGroup
 * and the Flux plugin's scripts.
 *
 * @param metadata its name and namespace (the TrainJob's), the runtime template's labels and
 *     annotations with the runtime patches' on top, and jobc's
 * @param spec the JobSet's spec, the plan's own tree (generators copy it)
 * @param hostfileMetadata the hostfile ConfigMap's metadata, or null without an MPI policy
 * @param hostfile the hostfile's text, or null without an MPI policy
 * @param podGroupMetadata the PodGroup's metadata, or null without a {@code podGroupPolicy}
 * @param podGroup the PodGroup of the {@code podGroupPolicy}, or null without one
 * @param networkTopology Volcano's {@code networkTopology} for the PodGroup, or null
 * @param fluxScripts the Flux plugin's ConfigMap of scripts, or null without a Flux policy
 */
public record TrainJobPlan(
    ObjectMeta metadata,
    ObjectNode spec,
    ObjectMeta hostfileMetadata,
    String hostfile,
    ObjectMeta podGroupMetadata,
    GangPlan podGroup,
    JsonNode networkTopology,
    ConfigMapPlan fluxScripts) {

  /**
   * A ConfigMap to generate.
   *
   * @param metadata its metadata
   * @param data its data, in order
   */
  public record ConfigMapPlan(ObjectMeta metadata, Map<String, String> data) {
    public ConfigMapPlan {
      data = Collections.unmodifiableMap(new LinkedHashMap<>(data));
    }
  }
}
