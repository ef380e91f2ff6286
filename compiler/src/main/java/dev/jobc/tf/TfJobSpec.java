package dev.jobc.tf;

import dev.jobc.model.ReplicaSpec;
import dev.jobc.model.RunPolicy;
import java.util.Map;

/**
 * {@code spec} of a TFJob (training-operator v1.9.0 {@code TFJobSpec}). Replica keys stay as
 * written: defaulting normalises them case-insensitively.
 */
public record TfJobSpec(
    RunPolicy runPolicy,
    String successPolicy,
    Map<String, ReplicaSpec> tfReplicaSpecs,
    Boolean enableDynamicWorker) {}
