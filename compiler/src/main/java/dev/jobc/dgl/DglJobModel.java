package dev.jobc.dgl;

import dev.jobc.diag.Finding;
import dev.jobc.model.ReplicaSpec;
import dev.jobc.options.CompileOptions;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import java.util.List;
import java.util.Map;

/**
 * A DGLJob after defaulting: what the validator checks and the planner reads. Values are as the
 * user wrote them or as dgl-operator's CRD defaults them; they are not yet known to be valid.
 *
 * @param namespace {@code metadata.namespace}, else the namespace option, else {@code null}
 * @param partitionMode {@code spec.partitionMode} as written (validated against {@link
 *     PartitionMode})
 * @param replicaSpecs {@code spec.dglReplicaSpecs}, {@code null} when absent
 * @param options the compile options with the job's {@code jobc.dev/*} annotations applied
 * @param distParMetisImage the job's {@code jobc.dev/dist-parmetis-image} annotation, or {@code
 *     null}
 * @param findings problems found while defaulting (annotations)
 */
public record DglJobModel(
    ObjectMeta metadata,
    String namespace,
    Integer slotsPerWorker,
    String partitionMode,
    String cleanPodPolicy,
    Map<String, ReplicaSpec> replicaSpecs,
    CompileOptions options,
    Boolean distParMetisImage,
    List<Finding> findings) {

  public DglJobModel {
    findings = List.copyOf(findings);
  }

  /** {@code metadata.name}, or {@code null}. */
  public String name() {
    return metadata == null ? null : metadata.getName();
  }

  /** The partition mode, or empty when {@link #partitionMode} is not one jobc knows. */
  public java.util.Optional<PartitionMode> mode() {
    return PartitionMode.of(partitionMode);
  }

  public ReplicaSpec launcher() {
    return replicaSpecs == null ? null : replicaSpecs.get(DglJob.LAUNCHER);
  }

  public ReplicaSpec worker() {
    return replicaSpecs == null ? null : replicaSpecs.get(DglJob.WORKER);
  }

  public ReplicaSpec partitioner() {
    return replicaSpecs == null ? null : replicaSpecs.get(DglJob.PARTITIONER);
  }

  /** {@code Worker.replicas}, 0 without a Worker spec or count. */
  public int workerReplicas() {
    ReplicaSpec w = worker();
    return w == null || w.replicas() == null ? 0 : w.replicas();
  }
}
