package dev.jobc.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code jobc migrate} as the command line runs it: what it reads, where the TrainJobs go, exit
 * codes. What a job migrates to is golden/migrate-cases' (MigrateCasesTest).
 */
class MigrateCommandTest {
  @TempDir Path dir;

  private static final String JAX =
      """
      apiVersion: kubeflow.org/v1
      kind: JAXJob
      metadata:
        name: jax
      spec:
        jaxReplicaSpecs:
          Worker:
            replicas: 2
            restartPolicy: OnFailure
            template:
              spec:
                containers:
                - name: jax
                  image: example.com/jax:0.4
      """;

  private static final String TF =
      """
      apiVersion: kubeflow.org/v1
      kind: TFJob
      metadata:
        name: tf
        namespace: ml
      spec:
        tfReplicaSpecs:
          Worker:
            template:
              spec:
                containers:
                - name: tensorflow
                  image: example.com/tf:2.15
      """;

  @Test
  void stdinToStdoutWithTheNamespaceOption() {
    Run run = Run.withStdin(dir, JAX.getBytes(StandardCharsets.UTF_8), "migrate", "-", "-n", "ml");
    assertThat(run.err()).isEmpty();
    assertThat(run.exitCode()).isZero();
    assertThat(run.out())
        .startsWith(
            "apiVersion: trainer.kubeflow.org/v1alpha1\n"
                + "kind: TrainJob\n"
                + "metadata:\n"
                + "  name: jax\n"
                + "  namespace: ml\n")
        .contains("    name: jax-distributed\n", "      value: jax-node-0-0.jax\n");
  }

  @Test
  void aJobWithoutNamespaceBecomesATrainJobWithoutOne() {
    Run run = Run.withStdin(dir, JAX.getBytes(StandardCharsets.UTF_8), "migrate", "-");
    assertThat(run.err()).isEmpty();
    assertThat(run.exitCode()).isZero();
    assertThat(run.out())
        .startsWith(
            "apiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainJob\nmetadata:\n  name: jax\nspec:\n");
  }

  @Test
  void outputDirectoryHoldsAFilePerObject() throws IOException {
    Files.writeString(dir.resolve("jax.yaml"), JAX);
    Run run = Run.in(dir, "migrate", "jax.yaml", "-n", "ml", "-o", "migrated");
    assertThat(run.err()).isEmpty();
    assertThat(run.exitCode()).isZero();
    assertThat(run.out()).isEmpty();
    try (var files = Files.list(dir.resolve("migrated"))) {
      assertThat(files.map(f -> f.getFileName().toString()).sorted())
          .containsExactly(".jobc-files", "trainjob-jax.yaml");
    }
    // What migrate wrote renders: the TrainJob becomes its JobSet.
    Run render = Run.in(dir, "render", "migrated");
    assertThat(render.err()).isEmpty();
    assertThat(render.out()).contains("kind: JobSet", "JAX_COORDINATOR_ADDRESS");
  }

  @Test
  void aKindWithoutRuntimeIsAnErrorAndNothingIsWritten() throws IOException {
    Files.writeString(dir.resolve("jobs.yaml"), JAX + "---\n" + TF);
    Run run = Run.in(dir, "migrate", "jobs.yaml", "-n", "ml", "-o", "migrated");
    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.err())
        .isEqualTo(
            "jobs.yaml:17:1: error: kind: Forbidden: Trainer v2.3.0 has no runtime for a TFJob"
                + " (its ML policies are torch, jax, xgboost, mpi and flux); keep rendering it with"
                + " jobc render\n");
    assertThat(dir.resolve("migrated")).doesNotExist();
  }

  @Test
  void noJobIsAWarning() throws IOException {
    Files.writeString(
        dir.resolve("cm.yaml"), "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n");
    Run run = Run.in(dir, "migrate", "cm.yaml");
    assertThat(run.exitCode()).isZero();
    assertThat(run.out()).isEmpty();
    assertThat(run.err())
        .isEqualTo(
            "jobc: warning: no job to migrate: the input holds no PyTorchJob, MPIJob, JAXJob or"
                + " XGBoostJob\n");
  }

  @Test
  void usageErrors() {
    Run none = Run.in(dir, "migrate", "-o", "out");
    assertThat(none.exitCode()).isEqualTo(2);
    assertThat(none.err())
        .startsWith(
            "jobc: error: no input: give a file, a directory or - (stdin); out was taken as the"
                + " DIR of -o DIR\n");
    Run twice = Run.in(dir, "migrate", "-", "-");
    assertThat(twice.exitCode()).isEqualTo(2);
    assertThat(twice.err()).startsWith("jobc: error: - (stdin) can be given only once\n");
    Run empty = Run.in(dir, "migrate", "x.yaml", "-o", "");
    assertThat(empty.exitCode()).isEqualTo(2);
    assertThat(empty.err()).startsWith("jobc: error: -o: the directory name is empty\n");
    Run badOption = Run.in(dir, "migrate", "x.yaml", "--target", "nope");
    assertThat(badOption.exitCode()).isEqualTo(2);
    assertThat(badOption.err()).startsWith("jobc: error: ");
  }

  @Test
  void helpNamesTheKindsAndTheDocs() {
    Run run = Run.in(dir, "migrate", "--help");
    assertThat(run.exitCode()).isZero();
    assertThat(run.out())
        .contains("PyTorchJob, MPIJob (kubeflow.org/v2beta1), JAXJob and XGBoostJob")
        .contains("docs/trainjob.md#migrate", "--output=DIR", "--namespace=NS", "Exit codes:");
    assertThat(Run.in(dir, "--help").out()).containsPattern("migrate +Writes each PyTorchJob");
  }
}
