package dev.jobc.dgl;

import dev.jobc.model.ReplicaSpec;
import java.util.Map;

/**
 * {@code spec} of a DGLJob, field for field as dgl-operator's {@code DGLJobSpec}. A DGLJob replica
 * has no {@code restartPolicy}; the schema rejects it, so {@link ReplicaSpec#restartPolicy()} is
 * always {@code null} here.
 */
public record DglJobSpec(
    Integer slotsPerWorker,
    String partitionMode,
    String cleanPodPolicy,
    Map<String, ReplicaSpec> dglReplicaSpecs) {}
