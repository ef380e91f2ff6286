package dev.jobc;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.jobc.diag.Diagnostic;
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
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * One compile of many sources, whose jobs the compiler spreads over threads, gives exactly what
 * compiling each source alone gives: the same objects in the same order, the same diagnostics. The
 * sources are the golden inputs, each job moved to a namespace of its own so that they can share
 * one output.
 */
class ManyJobsTest {
  private static final Path CASES = Path.of("..", "golden", "cases");
  private static final Set<String> JOB_KINDS = Set.of("MPIJob", "DGLJob", "TFJob");
  private static final YAMLMapper YAML = new YAMLMapper();
  private static final ManifestCompiler COMPILER = new ManifestCompiler();

  @Test
  void renderingCasesTogetherGiveWhatEachGivesAlone() throws IOException {
    List<Source> sources = sources("expected.yaml");
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

  @Test
  void errorCasesTogetherReportWhatEachReportsAlone() throws IOException {
    List<Source> sources = new ArrayList<>();
    List<Diagnostic> diagnostics = new ArrayList<>();
    for (Source source : sources("expected-errors.txt")) {
      List<Diagnostic> alone =
          COMPILER.compile(List.of(source), CompileOptions.defaults()).diagnostics();
      // Objects that clash are found only once every job has rendered, which no compile with
      // errors elsewhere reaches: such a case says nothing about the others.
      if (alone.stream().noneMatch(d -> d.message().contains(" also produced by the document"))) {
        sources.add(source);
        diagnostics.addAll(alone);
      }
    }
    assertThat(sources).hasSizeGreaterThan(20);
    CompileResult together = COMPILER.compile(sources, CompileOptions.defaults());
    diagnostics.sort(Diagnostic.ORDER);
    assertThat(together.objects()).isEmpty();
    assertThat(lines(together.diagnostics())).isEqualTo(lines(diagnostics));
  }

  /**
   * The input of every case with {@code expected} and default options whose documents are all jobs,
   * each job in namespace {@code case-N}; the source is named after the case.
   */
  private static List<Source> sources(String expected) throws IOException {
    List<Path> dirs;
    try (Stream<Path> list = Files.list(CASES)) {
      dirs =
          list.filter(d -> Files.exists(d.resolve(expected)))
              .filter(d -> !Files.exists(d.resolve("options.yaml")))
              .sorted()
              .toList();
    }
    List<Source> sources = new ArrayList<>();
    for (Path dir : dirs) {
      List<JsonNode> docs;
      try {
        docs =
            YAML.readValues(YAML.createParser(dir.resolve("input.yaml").toFile()), JsonNode.class)
                .readAll();
      } catch (IOException | RuntimeException e) {
        continue; // input errors the YAML reader refuses too: not what this test is about
      }
      if (docs.isEmpty()
          || !docs.stream()
              .allMatch(d -> d.isObject() && JOB_KINDS.contains(d.path("kind").asText()))) {
        continue;
      }
      StringBuilder text = new StringBuilder();
      for (JsonNode doc : docs) {
        JsonNode meta = doc.path("metadata");
        if (meta.isObject()) {
          ((ObjectNode) meta).put("namespace", "case-" + sources.size());
        }
        text.append(YAML.writeValueAsString(doc));
      }
      sources.add(new Source(dir.getFileName() + ".yaml", text.toString()));
    }
    return sources;
  }
}
