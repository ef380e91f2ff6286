package dev.jobc.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bin/jobc migrate} as a user runs it from the repository root (docs/trainjob.md#migrate):
 * the examples of the kinds Trainer v2 has a runtime for become a directory of TrainJobs and their
 * runtimes, which {@code bin/jobc render} renders into JobSets; the whole examples/ directory
 * names, at the field, every job that cannot migrate, and writes nothing.
 */
class MigrateIT {
  @TempDir Path tmp;

  private static final Map<String, String> ENV = Map.of("PATH", ExternalCommand.pathWithBin());

  @Test
  void theExamplesMigrateIntoADirectoryThatRenders() throws IOException {
    Path out = tmp.resolve("trainjobs");
    ExternalCommand migrate =
        ExternalCommand.run(
            ExternalCommand.root(),
            ENV,
            "",
            List.of(
                "jobc",
                "migrate",
                "examples/pytorch-simple.yaml",
                "examples/pi.yaml",
                "examples/jax-simple.yaml",
                "-o",
                out.toString()));
    assertThat(migrate.exitCode()).as(migrate.toString()).isZero();
    assertThat(migrate.err()).isEmpty();
    assertThat(migrate.out()).isEmpty();
    try (Stream<Path> files = Files.list(out)) {
      assertThat(files.map(f -> f.getFileName().toString()).sorted())
          .containsExactly(
              ".jobc-files",
              "trainingruntime-jaxjob-simple-runtime.yaml",
              "trainingruntime-pi-runtime.yaml",
              "trainingruntime-pytorch-simple-runtime.yaml",
              "trainjob-jaxjob-simple.yaml",
              "trainjob-pi.yaml",
              "trainjob-pytorch-simple.yaml");
    }
    // The MPI TrainJob needs the SSH key Secret jobc mounts (Trainer would generate one).
    ExternalCommand render =
        ExternalCommand.run(
            tmp, ENV, "", List.of("jobc", "render", "trainjobs", "--ssh-secret", "pi-ssh"));
    assertThat(render.exitCode()).as(render.toString()).isZero();
    assertThat(YamlStream.ids(render.out()))
        .containsExactly(
            "ConfigMap/pi-mpi-hostfile",
            "JobSet/jaxjob-simple",
            "JobSet/pi",
            "JobSet/pytorch-simple");
    // A second run in another process writes the same bytes.
    Map<String, String> first = contents(out);
    ExternalCommand again =
        ExternalCommand.run(
            ExternalCommand.root(),
            ENV,
            "",
            List.of(
                "jobc",
                "migrate",
                "examples/pytorch-simple.yaml",
                "examples/pi.yaml",
                "examples/jax-simple.yaml",
                "-o",
                out.toString()));
    assertThat(again.exitCode()).as(again.toString()).isZero();
    assertThat(contents(out)).isEqualTo(first);
  }

  private static Map<String, String> contents(Path dir) throws IOException {
    Map<String, String> out = new java.util.TreeMap<>();
    try (Stream<Path> files = Files.list(dir)) {
      for (Path f : files.toList()) {
        out.put(f.getFileName().toString(), Files.readString(f));
      }
    }
    return out;
  }

  @Test
  void theWholeExamplesDirectorySaysWhatCannotMigrate() {
    Path out = tmp.resolve("trainjobs");
    ExternalCommand migrate =
        ExternalCommand.run(
            ExternalCommand.root(),
            ENV,
            "",
            List.of("jobc", "migrate", "examples/", "-o", out.toString()));
    assertThat(migrate.exitCode()).as(migrate.toString()).isEqualTo(1);
    assertThat(migrate.out()).isEmpty();
    assertThat(migrate.err())
        .contains(
            "examples/graphsage-dist.yaml:5:1: error: kind: Forbidden: Trainer v2.3.0 has no"
                + " runtime for a DGLJob",
            "examples/paddle-simple.yaml:4:1: error: kind: Forbidden:",
            "examples/pi-intel.yaml:8:22: error: spec.mpiImplementation: Unsupported value:"
                + " \"Intel\"",
            "examples/tensorflow-benchmarks-v1.yaml:1:13: error: apiVersion: Unsupported value:"
                + " \"kubeflow.org/v1\"",
            "examples/tf-dist-mnist.yaml:5:1: error: kind: Forbidden:",
            "examples/xgboost-iris.yaml:35:22: error: spec.xgbReplicaSpecs[Worker].restartPolicy:");
    assertThat(out).doesNotExist();
  }
}
