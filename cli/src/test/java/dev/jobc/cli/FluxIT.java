package dev.jobc.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The documentation's Flux recipe: render with the substitution guard, then check in CI. */
class FluxIT {
  @TempDir Path repo;

  @Test
  void renderThenCheckCatchesDrift() throws IOException {
    Files.createDirectories(repo.resolve("jobs"));
    String pi = Files.readString(ExternalCommand.root().resolve("examples/pi.yaml"));
    Files.writeString(repo.resolve("jobs/pi.yaml"), pi);
    Map<String, String> env = Map.of("PATH", ExternalCommand.pathWithBin());

    ExternalCommand render = ExternalCommand.sh(repo, env, DocSnippets.get("flux-render"));
    assertThat(render.exitCode()).as(render.toString()).isZero();
    try (Stream<Path> files =
        Files.list(repo.resolve("rendered")).filter(f -> f.toString().endsWith(".yaml"))) {
      assertThat(files)
          .isNotEmpty()
          .allSatisfy(
              f ->
                  assertThat(Files.readString(f))
                      .contains("kustomize.toolkit.fluxcd.io/substitute: disabled"));
    }

    ExternalCommand check = ExternalCommand.sh(repo, env, DocSnippets.get("flux-check"));
    assertThat(check.exitCode()).as(check.toString()).isZero();

    Files.writeString(repo.resolve("jobs/pi.yaml"), pi.replace("replicas: 2", "replicas: 3"));
    ExternalCommand stale = ExternalCommand.sh(repo, env, DocSnippets.get("flux-check"));
    assertThat(stale.exitCode()).as(stale.toString()).isOne();
    assertThat(stale.err()).contains("+    echo pi-worker-2.pi.default.svc");
  }

  /**
   * The same recipe over a job of each other training-operator kind: each rendered into its own
   * files with the substitution guard (Paddle's $(POD_IP_DUMMY) is not Flux's ${...}), then a
   * changed replica count caught as drift.
   */
  @Test
  void renderThenCheckEachTrainingOperatorKind() throws IOException {
    Files.createDirectories(repo.resolve("jobs"));
    for (ChannelInputs.Example example : ChannelInputs.TRAINING_OPERATOR) {
      Files.writeString(repo.resolve("jobs").resolve(example.name()), example.text());
    }
    Map<String, String> env = Map.of("PATH", ExternalCommand.pathWithBin());

    ExternalCommand render = ExternalCommand.sh(repo, env, DocSnippets.get("flux-render"));
    assertThat(render.exitCode()).as(render.toString()).isZero();
    for (ChannelInputs.Example example : ChannelInputs.TRAINING_OPERATOR) {
      for (String id : example.objects()) {
        Path file =
            repo.resolve("rendered")
                .resolve(id.replace('/', '-').toLowerCase(Locale.ROOT) + ".yaml");
        assertThat(file).as(id).exists();
        assertThat(Files.readString(file))
            .contains("kustomize.toolkit.fluxcd.io/substitute: disabled");
      }
    }
    ExternalCommand check = ExternalCommand.sh(repo, env, DocSnippets.get("flux-check"));
    assertThat(check.exitCode()).as(check.toString()).isZero();

    Path jax = repo.resolve("jobs/jax-simple.yaml");
    Files.writeString(jax, Files.readString(jax).replace("replicas: 2", "replicas: 3"));
    ExternalCommand stale = ExternalCommand.sh(repo, env, DocSnippets.get("flux-check"));
    assertThat(stale.exitCode()).as(stale.toString()).isOne();
    assertThat(stale.err()).contains("jaxjob-simple-worker-2");
  }
}
