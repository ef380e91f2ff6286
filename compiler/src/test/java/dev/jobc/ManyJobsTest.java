package dev.jobc;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.jobc.diag.Diagnostic;
import dev.jobc.load.Document;
import dev.jobc.load.LoadResult;
import dev.jobc.load.YamlLimits;
import dev.jobc.load.YamlLoader;
import dev.jobc.model.CompileResult;
import dev.jobc.model.OutputObject;
import dev.jobc.model.Source;
import dev.jobc.options.CompileOptions;
import dev.jobc.render.Ordering;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * One compile of many sources, whose jobs the compiler spreads over threads, gives exactly what
 * compiling each source alone gives: the same objects in the same order, the same diagnostics. The
 * sources are the golden inputs with default options, all of them: a rendering case's documents
 * each moved to a namespace of its own so that they can share one output, an error case's input as
 * written.
 */
class ManyJobsTest {
  private static final Path CASES = Path.of("..", "golden", "cases");
  private static final YAMLMapper YAML = new YAMLMapper();
  private static final ManifestCompiler COMPILER = new ManifestCompiler();

  @Test
  void renderingCasesTogetherGiveWhatEachGivesAlone() throws IOException {
    List<Source> sources = renderingSources();
    assertThat(sources).hasSizeGreaterThan(50);
    CompileResult together = COMPILER.compile(sources, CompileOptions.defaults());

    List<OutputObject> objects = new ArrayList<>();
    List<Diagnostic> diagnostics = new ArrayList<>();
    for (Source source : sources) {
      CompileResult alone = COMPILER.compile(List.of(source), CompileOptions.defaults());
      assertThat(alone.ok()).as(source.name() + ": " + alone.diagnostics()).isTrue();
      objects.addAll(alone.objects());
      diagnostics.addAll(alone.diagnostics());
    }
    objects.sort(Ordering.ORDER);
    diagnostics.sort(Diagnostic.ORDER);
    assertThat(together.ok()).as(together.diagnostics().toString()).isTrue();
    assertThat(together.objects()).containsExactlyElementsOf(objects);
    assertThat(lines(together.diagnostics())).isEqualTo(lines(diagnostics));
  }

  private static String lines(List<Diagnostic> diagnostics) {
    StringBuilder text = new StringBuilder();
    diagnostics.forEach(d -> text.append(d.format()).append('\n'));
    return text.toString();
  }

  /**
   * Every error case's input as written (no rewriting: a compile with errors renders nothing, so
   * the cases cannot clash), each its own source.
   */
  @Test
  void errorCasesTogetherReportWhatEachReportsAlone() throws IOException {
    List<Source> sources = new ArrayList<>();
    List<Diagnostic> diagnostics = new ArrayList<>();
    List<String> leftOut = new ArrayList<>();
    for (Path dir : cases("expected-errors.txt")) {
      Source source = new Source(dir.getFileName() + ".yaml", Files.readString(input(dir)));
      List<Diagnostic> alone =
          COMPILER.compile(List.of(source), CompileOptions.defaults()).diagnostics();
      // Objects that clash are found only once every job has rendered, and the output a run may
      // render and each object's size as written are checked only once every job is valid, which
      // no compile with errors elsewhere reaches: such a case says nothing about the others.
      if (alone.stream()
          .anyMatch(
              d ->
                  d.message().contains(" also produced by the document")
                      || d.message().contains(" jobc renders in one run")
                      || d.message().contains(" the API server stores in one object")
                      || d.message().contains(" (Too long: may not be more than "))) {
        leftOut.add(dir.getFileName().toString());
        continue;
      }
      sources.add(source);
      diagnostics.addAll(alone);
    }
    assertThat(leftOut)
        .as(
            "left out: a clash of objects, a run's output or an object's size, which only its own"
                + " case shows")
        .allMatch(
            name ->
                name.contains("duplicate")
                    || name.contains("output-too-large")
                    || name.contains("object-too-"));
    assertThat(sources).hasSizeGreaterThan(20);
    CompileResult together = COMPILER.compile(sources, CompileOptions.defaults());
    diagnostics.sort(Diagnostic.ORDER);
    assertThat(together.objects()).isEmpty();
    assertThat(lines(together.diagnostics())).isEqualTo(lines(diagnostics));
  }

  /** The golden cases with {@code expected} and default options, by name. */
  private static List<Path> cases(String expected) throws IOException {
    try (Stream<Path> list = Files.list(CASES)) {
      return list.filter(d -> Files.exists(d.resolve(expected)))
          .filter(d -> !Files.exists(d.resolve("options.yaml")))
          .sorted()
          .toList();
    }
  }

  private static Path input(Path dir) {
    return dir.resolve("input.yaml");
  }

  /**
   * The input of every rendering case with default options, each document with a {@code metadata}
   * map moved to namespace {@code case-N}; the source is named after the case.
   */
  private static List<Source> renderingSources() throws IOException {
    List<Source> sources = new ArrayList<>();
    for (Path dir : cases("expected.yaml")) {
      LoadResult loaded =
          new YamlLoader(YamlLimits.defaults())
              .load(new Source(dir.getFileName() + ".yaml", Files.readString(input(dir))));
      assertThat(loaded.diagnostics()).as("%s renders, so it loads", dir).isEmpty();
      StringBuilder text = new StringBuilder();
      // A ClusterTrainingRuntime has no namespace: one case's would serve every TrainJob of the
      // run that names it, as in a cluster. Each case's get a name of their own instead.
      String suffix = "-case-" + sources.size();
      java.util.Set<String> clusterRuntimes = new java.util.HashSet<>();
      for (Document doc : loaded.documents()) {
        if (doc.root().path("kind").asText().equals("ClusterTrainingRuntime")) {
          ObjectNode meta = (ObjectNode) doc.root().path("metadata");
          clusterRuntimes.add(meta.path("name").asText());
          meta.put("name", meta.path("name").asText() + suffix);
        }
      }
      for (Document doc : loaded.documents()) {
        JsonNode ref = doc.root().path("spec").path("runtimeRef");
        if (doc.root().path("kind").asText().equals("TrainJob")
            && ref.path("kind").asText("ClusterTrainingRuntime").equals("ClusterTrainingRuntime")
            && clusterRuntimes.contains(ref.path("name").asText())) {
          ((ObjectNode) ref).put("name", ref.path("name").asText() + suffix);
        }
      }
      for (Document doc : loaded.documents()) {
        JsonNode meta = doc.root().path("metadata");
        if (meta.isObject()) {
          ((ObjectNode) meta).put("namespace", "case-" + sources.size());
        }
        text.append(YAML.writeValueAsString(doc.root()));
      }
      sources.add(new Source(dir.getFileName() + ".yaml", text.toString()));
    }
    return sources;
  }
}
