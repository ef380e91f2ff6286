package dev.jobc.pytorch;

import dev.jobc.model.ReplicaSpec;
import dev.jobc.model.RunPolicy;
import java.util.Map;

/**
 * {@code spec} of a PyTorchJob (training-operator v1.9.0 {@code PyTorchJobSpec}). Replica keys stay
 * as written: defaulting normalises them case-insensitively.
 */
public record PyTorchJobSpec(
    RunPolicy runPolicy,
    ElasticPolicy elasticPolicy,
    Map<String, ReplicaSpec> pytorchReplicaSpecs,
    String nprocPerNode) {}
