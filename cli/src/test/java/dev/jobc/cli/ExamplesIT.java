package dev.jobc.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jobc.ManifestCompiler;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code examples/} holds a job of every kind jobc compiles, and renders whole with {@code bin/jobc
 * render examples/}: its kpt and kustomize packages' tool configuration is skipped with a note, and
 * kubectl reads the result. {@code kubectl apply --dry-run=client} asks an API server for its
 * resource types even so, and there is none here; {@code kubectl kustomize} reads the stream
 * offline and fails on anything that is not a list of distinct objects.
 */
class ExamplesIT {
  @TempDir Path tmp;

  @BeforeAll
  static void tools() {
    ExternalCommand.require("kubectl");
  }

  @Test
  void everyKindJobcCompilesHasAnExample() throws IOException {
    Set<String> accepted = new TreeSet<>(new ManifestCompiler().acceptedKinds());
    Set<String> kinds =
        accepted.stream().map(k -> k.split(" ")[1]).collect(Collectors.toCollection(TreeSet::new));
    Set<String> examples = new TreeSet<>();
    try (Stream<Path> files = Files.walk(ExternalCommand.root().resolve("examples"))) {
      for (Path file : files.filter(f -> f.toString().endsWith(".yaml")).toList()) {
        for (JsonNode doc : YamlStream.parse(Files.readString(file))) {
          String id = doc.path("apiVersion").asText() + " " + doc.path("kind").asText();
          if (accepted.contains(id)) {
            examples.add(doc.path("kind").asText());
          }
        }
      }
    }
    assertThat(examples).as("kinds with an example in examples/").isEqualTo(kinds);
  }

  @Test
  void theExamplesRenderWholeAndKubectlReadsThem() throws IOException {
    // As the README has it, from the repository root.
    ExternalCommand render =
        ExternalCommand.run(
            ExternalCommand.root(),
            Map.of("PATH", ExternalCommand.pathWithBin()),
            "",
            List.of("jobc", "render", "examples/", "--namespace", "training"));
    assertThat(render.exitCode()).as(render.toString()).isZero();
    assertThat(render.err())
        .isEqualTo(
            "examples/kustomize/generator.yaml: note: skipped: a generator configuration named by"
                + " the kustomization.yaml beside it\n"
                + "examples/kustomize/kustomization.yaml: note: skipped: a kustomization"
                + " (kustomize's configuration)\n");
    List<String> ids = YamlStream.ids(render.out());
    // Each package's job, and what passes through.
    assertThat(ids)
        .contains(
            "Job/pi-launcher",
            "Job/pi-kpt-launcher",
            "ResourceQuota/training-quota",
            "Job/dist-mnist-worker-1",
            "Pod/dgl-graphsage-launcher");

    Path check = tmp.resolve("check");
    Files.createDirectories(check);
    Files.writeString(check.resolve("rendered.yaml"), render.out());
    Files.writeString(check.resolve("kustomization.yaml"), "resources:\n- rendered.yaml\n");
    ExternalCommand kubectl =
        ExternalCommand.run(tmp, Map.of(), "", List.of("kubectl", "kustomize", check.toString()));
    assertThat(kubectl.exitCode()).as(kubectl.toString()).isZero();
    assertThat(YamlStream.ids(kubectl.out())).containsExactlyInAnyOrderElementsOf(ids);
  }
}
