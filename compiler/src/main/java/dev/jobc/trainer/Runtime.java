package dev.jobc.trainer;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * The runtime a TrainJob's {@code runtimeRef} resolved to.
 *
 * @param kind {@code TrainingRuntime} or {@code ClusterTrainingRuntime}
 * @param name its name
 * @param at where it is written ({@code file:line}), for messages
 * @param spec its {@code spec} (an empty object when it has none)
 */
public record Runtime(String kind, String name, String at, JsonNode spec) {}
