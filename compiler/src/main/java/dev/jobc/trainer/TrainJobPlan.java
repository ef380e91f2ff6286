package dev.jobc.trainer;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.ObjectMeta;

/**
 * The JobSet a TrainJob becomes, and the MPI plugin's hostfile ConfigMap.
 *
 * @param metadata its name and namespace (the TrainJob's), the runtime template's labels and
 *     annotations with the runtime patches' on top, and jobc's
 * @param spec the JobSet's spec, the plan's own tree (generators copy it)
 * @param hostfileMetadata the hostfile ConfigMap's metadata, or null without an MPI policy
 * @param hostfile the hostfile's text, or null without an MPI policy
 */
public record TrainJobPlan(
    ObjectMeta metadata, ObjectNode spec, ObjectMeta hostfileMetadata, String hostfile) {}
