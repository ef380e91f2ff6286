package dev.jobc.xgboost;

import dev.jobc.model.ReplicaSpec;
import dev.jobc.model.RunPolicy;
import dev.jobc.replica.Framework;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import java.util.List;
import java.util.Map;

/** An XGBoostJob document as written ({@code kubeflow.org/v1}, training-operator v1.9.0). */
public record XGBoostJob(String apiVersion, String kind, ObjectMeta metadata, Spec spec) {
  public static final String KIND = "XGBoostJob";
  public static final String MASTER = "Master";
  public static final String WORKER = "Worker";

  /** {@code xgboost_types.go}'s constants and {@code xgboostjob_controller.go}'s name. */
  public static final Framework FRAMEWORK =
      new Framework(
          KIND,
          "xgbReplicaSpecs",
          List.of(MASTER, WORKER),
          "xgboost",
          "xgboostjob-port",
          9999,
          "Never",
          "xgboostjob-controller");

  /** {@code XGBoostJobSpec}; replica keys as written. */
  public record Spec(RunPolicy runPolicy, Map<String, ReplicaSpec> xgbReplicaSpecs) {}
}
