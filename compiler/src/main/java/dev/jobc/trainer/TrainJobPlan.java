package dev.jobc.trainer;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.ObjectMeta;

/**
 * The JobSet a TrainJob becomes.
 *
 * @param metadata its name and namespace (the TrainJob's), the runtime template's labels and
 *     annotations with the runtime patches' on top, and jobc's
 * @param spec the JobSet's spec, the plan's own tree (generators copy it)
 */
public record TrainJobPlan(ObjectMeta metadata, ObjectNode spec) {}
