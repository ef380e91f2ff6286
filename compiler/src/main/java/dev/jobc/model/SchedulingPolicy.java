package dev.jobc.model;

import io.fabric8.kubernetes.api.model.Quantity;
import java.util.Map;

/** {@code runPolicy.schedulingPolicy} (gang scheduling hints). */
public record SchedulingPolicy(
    Integer minAvailable,
    String queue,
    Map<String, Quantity> minResources,
    String priorityClass,
    Integer scheduleTimeoutSeconds) {}
