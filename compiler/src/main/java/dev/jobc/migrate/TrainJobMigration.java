package dev.jobc.migrate;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jobc.diag.Code;
import dev.jobc.diag.FieldPath;
import dev.jobc.diag.Finding;
import dev.jobc.diag.Quoting;
import dev.jobc.jax.JaxJob;
import dev.jobc.mpi.MpiJobModel;
import dev.jobc.pytorch.PyTorchJobModel;
import dev.jobc.replica.ReplicaJob;
import dev.jobc.xgboost.XGBoostJob;
import java.util.List;

/**
 * Which v1 jobs migrate to Trainer v2.3.0, and the migration of one: a PyTorchJob, JAXJob or
 * XGBoostJob ({@link FamilyMigration}), an MPIJob {@code v2beta1} ({@link MpiMigration}).
 */
public final class TrainJobMigration {
  /** The MPIJob version Trainer v2's MPI policy follows (mpi-operator v2beta1). */
  public static final String MPI_VERSION = "kubeflow.org/v2beta1";

  /** The kinds Trainer v2.3.0 has a runtime for, as {@code jobc migrate}'s help lists them. */
  public static final List<String> KINDS = List.of("PyTorchJob", "MPIJob", "JAXJob", "XGBoostJob");

  /** v1 kinds jobc renders that Trainer v2.3.0 has no ML policy for. */
  private static final List<String> WITHOUT_RUNTIME = List.of("TFJob", "PaddleJob", "DGLJob");

  private TrainJobMigration() {}

  /**
   * Why a job document of {@code apiVersion} and {@code kind} that jobc renders does not migrate,
   * or {@code null} when it does; {@code null} too for a TrainJob, which is Trainer v2 already.
   */
  public static Finding refusal(String apiVersion, String kind) {
    if (WITHOUT_RUNTIME.contains(kind)) {
      return Finding.error(
          Code.FORBIDDEN,
          FieldPath.of("kind"),
          "Forbidden: Trainer v2.3.0 has no runtime for a "
              + kind
              + " (its ML policies are torch, jax, xgboost, mpi and flux); keep rendering it with"
              + " jobc render");
    }
    if (kind.equals("MPIJob") && !apiVersion.equals(MPI_VERSION)) {
      return Finding.error(
          Code.NOT_SUPPORTED,
          FieldPath.of("apiVersion"),
          "Unsupported value: "
              + Quoting.quote(apiVersion)
              + ": migrate reads MPIJob "
              + MPI_VERSION
              + ", the API Trainer v2's MPI policy follows (mpi-operator v0.8); write the job in"
              + " it first");
    }
    return null;
  }

  /**
   * Migrates a job that passed its kind's checks: {@code root} as written, {@code model} its kind's
   * defaulted model ({@link dev.jobc.kind.JobKind#defaults}).
   *
   * @throws IllegalArgumentException for a model of a kind that does not migrate
   */
  public static Migration of(JsonNode root, Object model) {
    if (model instanceof PyTorchJobModel m) {
      return FamilyMigration.migrate(root, m.job(), TorchSource.of(root));
    }
    if (model instanceof MpiJobModel m) {
      return MpiMigration.migrate(root, m);
    }
    if (model instanceof ReplicaJob j && j.framework().equals(JaxJob.FRAMEWORK)) {
      return FamilyMigration.migrate(root, j, JaxSource.INSTANCE);
    }
    if (model instanceof ReplicaJob j && j.framework().equals(XGBoostJob.FRAMEWORK)) {
      return FamilyMigration.migrate(root, j, XGBoostSource.INSTANCE);
    }
    throw new IllegalArgumentException("no migration for " + model.getClass().getName());
  }
}
