package dev.jobc.jax;

import dev.jobc.model.ReplicaSpec;
import dev.jobc.model.RunPolicy;
import dev.jobc.replica.Framework;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import java.util.List;
import java.util.Map;

/** A JAXJob document as written ({@code kubeflow.org/v1}, training-operator v1.9.0). */
public record JaxJob(String apiVersion, String kind, ObjectMeta metadata, Spec spec) {
  public static final String KIND = "JAXJob";
  public static final String WORKER = "Worker";

  /** {@code jax_types.go}'s constants and {@code jaxjob_controller.go}'s name. */
  public static final Framework FRAMEWORK =
      new Framework(
          KIND,
          "jaxReplicaSpecs",
          List.of(WORKER),
          "jax",
          "jaxjob-port",
          6666,
          "Never",
          "jaxjob-controller");

  /** {@code JAXJobSpec}; replica keys as written. */
  public record Spec(RunPolicy runPolicy, Map<String, ReplicaSpec> jaxReplicaSpecs) {}
}
