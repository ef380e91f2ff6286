package dev.jobc.tf;

import dev.jobc.conventions.TfLabels;
import dev.jobc.replica.Framework;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import java.util.Arrays;

/** A TFJob document as written ({@code kubeflow.org/v1}, training-operator v1.9.0). */
public record TfJob(String apiVersion, String kind, ObjectMeta metadata, TfJobSpec spec) {
  public static final String KIND = "TFJob";
  public static final String API_VERSION = "kubeflow.org/v1";

  /** training-operator {@code TFJobDefaultContainerName}: the container that gets TF_CONFIG. */
  public static final String CONTAINER = "tensorflow";

  /** {@code TFJobDefaultPortName} and {@code TFJobDefaultPort}. */
  public static final String PORT_NAME = "tfjob-port";

  public static final int PORT = 2222;

  /**
   * TFJob as a kind of the family ({@code tfjob_types.go}, {@code tfjob_controller.go}): the
   * constants the shared checks read. Its types are {@link TfReplicaType}'s spellings, in its
   * order.
   */
  static final Framework FRAMEWORK =
      new Framework(
          KIND,
          "tfReplicaSpecs",
          Arrays.stream(TfReplicaType.values()).map(TfReplicaType::specName).toList(),
          CONTAINER,
          PORT_NAME,
          PORT,
          TfJobDefaults.RESTART_POLICY,
          TfLabels.OPERATOR);

  /** {@code SuccessPolicyAllWorkers}; the default policy is the empty string. */
  public static final String ALL_WORKERS = "AllWorkers";
}
