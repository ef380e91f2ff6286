package dev.jobc.paddle;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jobc.model.ReplicaSpec;
import dev.jobc.model.RunPolicy;
import dev.jobc.replica.Framework;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import java.util.List;
import java.util.Map;

/** A PaddleJob document as written ({@code kubeflow.org/v1}, training-operator v1.9.0). */
public record PaddleJob(String apiVersion, String kind, ObjectMeta metadata, Spec spec) {
  public static final String KIND = "PaddleJob";
  public static final String MASTER = "Master";
  public static final String WORKER = "Worker";

  /** {@code paddlepaddle_types.go}'s constants and {@code paddlepaddle_controller.go}'s name. */
  public static final Framework FRAMEWORK =
      new Framework(
          KIND,
          "paddleReplicaSpecs",
          List.of(MASTER, WORKER),
          "paddle",
          "master",
          36543,
          "OnFailure",
          "paddlejob-controller");

  /** {@code PaddleJobSpec}; replica keys as written. */
  public record Spec(
      RunPolicy runPolicy,
      ElasticPolicy elasticPolicy,
      Map<String, ReplicaSpec> paddleReplicaSpecs) {}

  /** {@code PaddleElasticPolicy}: defaulted upstream, read by nothing. */
  public record ElasticPolicy(
      Integer minReplicas, Integer maxReplicas, Integer maxRestarts, JsonNode metrics) {}
}
