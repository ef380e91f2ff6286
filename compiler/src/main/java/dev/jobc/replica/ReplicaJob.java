package dev.jobc.replica;

import dev.jobc.diag.Finding;
import dev.jobc.model.ReplicaSpec;
import dev.jobc.model.RunPolicy;
import dev.jobc.options.CompileOptions;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A job of the family after {@code SetDefaults_<Kind>}, as far as every kind shares it: what the
 * common validator checks and the planners read. A kind's model adds its own fields beside it.
 *
 * @param namespace {@code metadata.namespace}, else the namespace option, else {@code null}
 * @param runPolicy {@code spec.runPolicy} with {@code cleanPodPolicy} defaulted to {@code None}
 * @param replicas the replica specs by type as the spec spells it, in {@link Framework#types()}
 *     order, with replicas, restart policy and the default port defaulted; {@code null} when the
 *     replica specs are absent
 * @param options the compile options with the job's {@code jobc.dev/*} annotations applied
 * @param findings problems found while defaulting (annotations, replica keys, templates)
 */
public record ReplicaJob(
    Framework framework,
    ObjectMeta metadata,
    String namespace,
    RunPolicy runPolicy,
    Map<String, Replica> replicas,
    CompileOptions options,
    List<Finding> findings) {

  /** One replica spec, its type as the spec spells it and the key the user wrote for it. */
  public record Replica(String type, String key, ReplicaSpec spec) {
    /** {@code *spec.Replicas}, defaulted to 1. */
    public int count() {
      return spec.replicas() == null ? 1 : spec.replicas();
    }

    public String lower() {
      return Framework.lower(type);
    }
  }

  public ReplicaJob {
    findings = List.copyOf(findings);
    if (replicas != null) {
      replicas = Collections.unmodifiableMap(new LinkedHashMap<>(replicas));
    }
  }

  public String name() {
    return metadata == null ? null : metadata.getName();
  }

  /** The replica of {@code type} (as the spec spells it), or {@code null}. */
  public Replica replica(String type) {
    return replicas == null ? null : replicas.get(type);
  }

  /** The replicas in type order; none when the specs are absent. */
  public Iterable<Replica> each() {
    return replicas == null ? List.of() : replicas.values();
  }

  /** {@code getTotalReplicas}: every replica of every type (negative counts as none). */
  public int totalReplicas() {
    int total = 0;
    for (Replica r : each()) {
      total += Math.max(r.count(), 0);
    }
    return total;
  }
}
