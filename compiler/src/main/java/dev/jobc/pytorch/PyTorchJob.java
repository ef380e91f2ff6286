package dev.jobc.pytorch;

import dev.jobc.replica.Framework;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import java.util.List;

/** A PyTorchJob document as written ({@code kubeflow.org/v1}, training-operator v1.9.0). */
public record PyTorchJob(String apiVersion, String kind, ObjectMeta metadata, PyTorchJobSpec spec) {
  public static final String KIND = "PyTorchJob";
  public static final String MASTER = "Master";
  public static final String WORKER = "Worker";

  /** {@code pytorch_types.go}'s constants and {@code pytorchjob_controller.go}'s name. */
  public static final Framework FRAMEWORK =
      new Framework(
          KIND,
          "pytorchReplicaSpecs",
          List.of(MASTER, WORKER),
          "pytorch",
          "pytorchjob-port",
          23456,
          "OnFailure",
          "pytorchjob-controller");
}
