package dev.jobc.migrate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jobc.diag.Finding;
import dev.jobc.replica.ReplicaJob;
import java.util.List;

/**
 * The Trainer v2.3.0 ML policy a kind of training-operator's family becomes ({@code
 * trainingruntime_types.go MLPolicySource}): its name, the ClusterTrainingRuntime Trainer installs
 * for it, and the environment the v1 operator gave that the plugin does not.
 */
interface MlPolicySource {
  /** {@code torch}, {@code jax} or {@code xgboost}: the {@code mlPolicy} field. */
  String name();

  /** The ClusterTrainingRuntime of {@code manifests/base/runtimes/} for this policy. */
  String defaultRuntime();

  /**
   * The variables the v1 operator appended to every container that the plugin does not set under
   * the same name, in the operator's order, with the TrainJob's host names ({@link
   * TrainerObjects#host}) and ranks from the completion index (node 0 is the Master, or Worker 0).
   */
  List<ObjectNode> operatorEnv(ReplicaJob job);

  /** Errors for the kind's own fields that have no equivalent; none by default. */
  default List<Finding> refusals(JsonNode root) {
    return List.of();
  }

  /** The TrainJob's {@code numProcPerNode}, or {@code null} to leave it to the plugin. */
  default Integer numProcPerNode(JsonNode root) {
    return null;
  }

  /** The policy's settings for a runtime whose node pods also run {@code others} containers. */
  default ObjectNode settings(List<String> others) {
    return Trees.NODES.objectNode();
  }
}
