package dev.jobc.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The KRM function under the real kpt ({@code fn eval --exec}, {@code fn render --allow-exec}) and
 * the kustomize generator under the real {@code kubectl kustomize}, through {@code bin/}.
 */
class KrmIT {
  private static final List<String> PI_KPT =
      List.of(
          "ServiceAccount/pi-kpt-launcher",
          "Role/pi-kpt-launcher",
          "RoleBinding/pi-kpt-launcher",
          "ConfigMap/pi-kpt-config",
          "Service/pi-kpt",
          "StatefulSet/pi-kpt-worker",
          "Job/pi-kpt-launcher");

  @TempDir Path tmp;

  @BeforeAll
  static void tools() {
    ExternalCommand.require("kpt");
    ExternalCommand.require("kubectl");
  }

  private static ExternalCommand snippet(String name) {
    return ExternalCommand.sh(
        ExternalCommand.root(),
        Map.of("PATH", ExternalCommand.pathWithBin()),
        DocSnippets.get(name));
  }

  @Test
  void kptFnEvalRendersTheExamplePackage() {
    ExternalCommand run = snippet("kpt-eval");
    assertThat(run.exitCode()).as(run.toString()).isZero();
    assertThat(YamlStream.ids(run.out()))
        .as(run.toString())
        .containsAll(PI_KPT)
        .contains("ResourceQuota/training-quota")
        .doesNotContain("MPIJob/pi-kpt");
    assertThat(YamlStream.parse(run.out()))
        .filteredOn(o -> !o.path("kind").asText().equals("Kptfile"))
        .allSatisfy(
            o -> assertThat(o.path("metadata").path("namespace").asText()).isEqualTo("training"));
  }

  @Test
  void kptFnRenderRunsTheKptfilePipeline() {
    ExternalCommand run = snippet("kpt-render");
    assertThat(run.exitCode()).as(run.toString()).isZero();
    assertThat(YamlStream.ids(run.out())).as(run.toString()).containsAll(PI_KPT);
    // cluster-domain comes from the Kptfile's configMap.
    assertThat(run.out()).contains("pi-kpt-worker-0.pi-kpt.training.svc.cluster.local");
  }

  /** A TFJob next to the MPIJob: rendered too, with the function's namespace in TF_CONFIG. */
  @Test
  void kptFnRenderRendersATfJob() throws IOException {
    Path pkg = copyOfPackage();
    Files.writeString(pkg.resolve("mnist.yaml"), ChannelInputs.tfJob());
    ExternalCommand run = kptFnRender(pkg);
    assertThat(run.exitCode()).as(run.toString()).isZero();
    assertThat(YamlStream.ids(run.out()))
        .as(run.toString())
        .containsAll(PI_KPT)
        .containsAll(ChannelInputs.TFJOB_OBJECTS)
        .doesNotContain("TFJob/mnist");
    assertThat(run.out()).contains(ChannelInputs.TF_CONFIG_PS_HOST);
  }

  /**
   * A job of each other training-operator kind next to the MPIJob: each rendered, and no job left
   * as written.
   */
  @Test
  void kptFnRenderRendersEachTrainingOperatorKind() throws IOException {
    Path pkg = copyOfPackage();
    for (ChannelInputs.Example example : ChannelInputs.TRAINING_OPERATOR) {
      Files.writeString(pkg.resolve(example.name()), example.text());
    }
    ExternalCommand run = kptFnRender(pkg);
    assertThat(run.exitCode()).as(run.toString()).isZero();
    List<String> ids = YamlStream.ids(run.out());
    assertThat(ids).as(run.toString()).containsAll(PI_KPT);
    for (ChannelInputs.Example example : ChannelInputs.TRAINING_OPERATOR) {
      assertThat(ids).as(example.kind()).containsAll(example.objects());
      assertThat(ids).noneMatch(id -> id.startsWith(example.kind() + "/"));
      assertThat(run.out()).as(example.kind()).contains(example.env());
    }
  }

  @Test
  void anInvalidJobFailsKptFnEval() throws IOException {
    Path pkg = brokenPackage();
    ExternalCommand run =
        ExternalCommand.run(
            ExternalCommand.root(),
            Map.of(),
            "",
            List.of("kpt", "fn", "eval", pkg.toString(), "--exec", "bin/jobc-krm", "-o", "unwrap"));
    assertThat(run.exitCode()).as(run.toString()).isNotZero();
    assertThat(run.out()).isBlank();
    assertThat(run.err()).contains("pi.yaml: error: spec.slotPerWorker: unknown field");
  }

  @Test
  void anInvalidJobFailsKptFnRender() throws IOException {
    Path pkg = brokenPackage();
    ExternalCommand run =
        ExternalCommand.run(
            ExternalCommand.root(),
            Map.of(),
            "",
            List.of(
                "kpt",
                "fn",
                "render",
                pkg.toString(),
                "--allow-exec",
                "-o",
                "unwrap",
                "--results-dir",
                tmp.resolve("results").toString()));
    assertThat(run.exitCode()).as(run.toString()).isNotZero();
    assertThat(run.out()).isBlank();
    assertThat(Files.readString(tmp.resolve("results/results.yaml")))
        .contains("severity: error")
        .contains("path: spec.slotPerWorker")
        .contains("path: pi.yaml");
    // Nothing was written back into the package.
    assertThat(Files.readString(pkg.resolve("pi.yaml"))).contains("slotPerWorker");
  }

  @Test
  void kubectlKustomizeRunsTheGenerator() {
    ExternalCommand run = snippet("kustomize");
    assertThat(run.exitCode()).as(run.toString()).isZero();
    // kubectl skips what it cannot run without a word; an empty build must not pass.
    assertThat(YamlStream.ids(run.out()))
        .as(run.toString())
        .contains("Job/pi-kustomize-launcher", "StatefulSet/pi-kustomize-worker")
        .hasSize(8);
  }

  @Test
  void kubectlKustomizeFailsOnAnInvalidJob() throws IOException {
    Path dir = kustomization();
    Files.writeString(
        dir.resolve("jobs/pi.yaml"),
        Files.readString(dir.resolve("jobs/pi.yaml")).replace("slotsPerWorker", "slotPerWorker"));
    ExternalCommand run = kustomize(dir);
    assertThat(run.exitCode()).as(run.toString()).isNotZero();
    assertThat(run.out()).isBlank();
    assertThat(run.err()).contains("jobs/pi.yaml:").contains("unknown field \"slotPerWorker\"");
  }

  @Test
  void kubectlKustomizeFailsOnAnEmptyRender() throws IOException {
    Path dir = kustomization();
    Files.delete(dir.resolve("jobs/pi.yaml"));
    ExternalCommand run = kustomize(dir);
    assertThat(run.exitCode()).as(run.toString()).isNotZero();
    assertThat(run.out()).isBlank();
    assertThat(run.err()).contains("rendered no objects");
  }

  private ExternalCommand kustomize(Path dir) {
    Path root = ExternalCommand.root();
    return ExternalCommand.run(
        root,
        Map.of(
            "KUSTOMIZE_PLUGIN_HOME",
            root.resolve("deploy/kustomize/plugin").toString(),
            "PATH",
            ExternalCommand.pathWithBin()),
        "",
        List.of("kubectl", "kustomize", "--enable-alpha-plugins", dir.toString()));
  }

  private Path kustomization() throws IOException {
    Path src = ExternalCommand.root().resolve("examples/kustomize");
    Path dir = tmp.resolve("kustomize");
    Files.createDirectories(dir.resolve("jobs"));
    for (String f : List.of("kustomization.yaml", "generator.yaml", "jobs/pi.yaml")) {
      Files.copy(src.resolve(f), dir.resolve(f));
    }
    return dir;
  }

  /** A copy of examples/kpt whose job has a misspelled field. */
  private Path brokenPackage() throws IOException {
    Path pkg = copyOfPackage();
    Files.writeString(
        pkg.resolve("pi.yaml"),
        Files.readString(pkg.resolve("pi.yaml")).replace("slotsPerWorker", "slotPerWorker"));
    return pkg;
  }

  /** {@code kpt fn render} of {@code pkg}, its Kptfile's exec function allowed, unwrapped. */
  private static ExternalCommand kptFnRender(Path pkg) {
    return ExternalCommand.run(
        ExternalCommand.root(),
        Map.of(),
        "",
        List.of("kpt", "fn", "render", pkg.toString(), "--allow-exec", "-o", "unwrap"));
  }

  private Path copyOfPackage() throws IOException {
    Path src = ExternalCommand.root().resolve("examples/kpt");
    Path pkg = tmp.resolve("pkg");
    Files.createDirectories(pkg);
    for (String f : List.of("Kptfile", "pi.yaml", "quota.yaml")) {
      Files.copy(src.resolve(f), pkg.resolve(f));
    }
    return pkg;
  }
}
