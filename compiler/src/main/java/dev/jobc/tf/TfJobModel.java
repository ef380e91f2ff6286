package dev.jobc.tf;

import dev.jobc.diag.Finding;
import dev.jobc.model.ReplicaSpec;
import dev.jobc.model.RunPolicy;
import dev.jobc.options.CompileOptions;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * A TFJob after training-operator's defaulting: what the validator checks and the planner reads.
 *
 * @param namespace {@code metadata.namespace}, else the namespace option, else {@code null}
 * @param runPolicy {@code spec.runPolicy} with {@code cleanPodPolicy} defaulted to {@code None}
 * @param successPolicy {@code ""} or {@code AllWorkers}
 * @param replicas the replica specs by normalised type, with replicas, restart policy and the
 *     {@code tfjob-port} port defaulted; {@code null} when {@code tfReplicaSpecs} is absent
 * @param options the compile options with the job's {@code jobc.dev/*} annotations applied
 * @param findings problems found while defaulting (annotations, replica keys)
 */
public record TfJobModel(
    ObjectMeta metadata,
    String namespace,
    RunPolicy runPolicy,
    String successPolicy,
    boolean enableDynamicWorker,
    Map<TfReplicaType, Replica> replicas,
    CompileOptions options,
    List<Finding> findings) {

  /** One replica spec and the key the user wrote for it (diagnostics point there). */
  public record Replica(String key, ReplicaSpec spec) {
    public int count() {
      return spec.replicas() == null ? 1 : spec.replicas();
    }
  }

  public TfJobModel {
    findings = List.copyOf(findings);
    if (replicas != null) {
      replicas = Collections.unmodifiableMap(new EnumMap<>(replicas));
    }
  }

  public String name() {
    return metadata == null ? null : metadata.getName();
  }

  public Replica replica(TfReplicaType type) {
    return replicas == null ? null : replicas.get(type);
  }

  /** {@code ContainsChiefOrMasterSpec}. */
  public boolean hasChiefOrMaster() {
    return replica(TfReplicaType.CHIEF) != null || replica(TfReplicaType.MASTER) != null;
  }

  /** {@code GetTotalReplicas}: every replica of every type. */
  public int totalReplicas() {
    int total = 0;
    if (replicas != null) {
      for (Replica r : replicas.values()) {
        total += Math.max(r.count(), 0);
      }
    }
    return total;
  }
}
