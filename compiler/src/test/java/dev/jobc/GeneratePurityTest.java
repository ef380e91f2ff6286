package dev.jobc;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jobc.bind.ObjectTrees;
import dev.jobc.dgl.DglJobKind;
import dev.jobc.diag.Finding;
import dev.jobc.kind.JobKind;
import dev.jobc.load.Document;
import dev.jobc.load.YamlLimits;
import dev.jobc.load.YamlLoader;
import dev.jobc.model.Source;
import dev.jobc.mpi.MpiJobKind;
import dev.jobc.mpi.MpiJobPlan;
import dev.jobc.options.CompileOptions;
import dev.jobc.options.OptionTable;
import dev.jobc.render.Templates;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Generators are pure functions of the plan: for every golden case that renders, generating twice
 * from one plan gives equal objects, and the plan (its pod templates included) is unchanged.
 */
class GeneratePurityTest {
  private static final Path CASES = Path.of("..", "golden", "cases");
  private static final Templates TEMPLATES = new Templates();
  private static final List<JobKind<?, ?, ?>> KINDS =
      List.of(new MpiJobKind(TEMPLATES), new DglJobKind(TEMPLATES));

  static Stream<Path> renderingCases() throws IOException {
    try (Stream<Path> dirs = Files.list(CASES)) {
      return dirs.filter(d -> Files.exists(d.resolve("expected.yaml"))).sorted().toList().stream();
    }
  }

  @ParameterizedTest
  @MethodSource("renderingCases")
  void generatingTwiceGivesEqualObjectsAndLeavesThePlanAlone(Path dir) throws IOException {
    CompileOptions options = CaseOptions.of(dir);
    String text = Files.readString(dir.resolve("input.yaml"));
    for (Document doc :
        new YamlLoader(YamlLimits.defaults()).load(new Source("in", text)).documents()) {
      for (JobKind<?, ?, ?> kind : KINDS) {
        if (kind.kind().equals(doc.root().path("kind").asText())
            && doc.root().path("apiVersion").asText().startsWith(kind.group() + "/")) {
          check(kind, doc.root(), options);
        }
      }
    }
  }

  /**
   * The Flux opt-out reaches every object every kind generates: each generator sets it from the
   * plan's options (a generator that forgot would let Flux rewrite ${...} in its object).
   */
  @ParameterizedTest
  @MethodSource("renderingCases")
  void everyGeneratedObjectCarriesTheFluxOptOut(Path dir) throws IOException {
    CompileOptions options = CaseOptions.of(dir).with(OptionTable.DISABLE_FLUX_SUBSTITUTION, true);
    String text = Files.readString(dir.resolve("input.yaml"));
    for (Document doc :
        new YamlLoader(YamlLimits.defaults()).load(new Source("in", text)).documents()) {
      for (JobKind<?, ?, ?> kind : KINDS) {
        if (kind.kind().equals(doc.root().path("kind").asText())
            && doc.root().path("apiVersion").asText().startsWith(kind.group() + "/")) {
          for (JsonNode object : generate(kind, doc.root(), options)) {
            assertThat(
                    object
                        .path("metadata")
                        .path("annotations")
                        .path(CompileOptions.FLUX_SUBSTITUTE_ANNOTATION)
                        .asText())
                .as(object.path("kind").asText() + " " + object.path("metadata").path("name"))
                .isEqualTo("disabled");
          }
        }
      }
    }
  }

  private static <J, M, P> List<JsonNode> generate(
      JobKind<J, M, P> kind, JsonNode root, CompileOptions options) {
    M model = kind.defaults(kind.bind(root), options);
    if (kind.renderedElsewhere(model) != null
        || kind.validate(model).stream().anyMatch(Finding::isError)) {
      return List.of();
    }
    return trees(kind.generate(kind.plan(model)));
  }

  private static <J, M, P> void check(
      JobKind<J, M, P> kind, JsonNode root, CompileOptions options) {
    M model = kind.defaults(kind.bind(root), options);
    if (kind.renderedElsewhere(model) != null
        || kind.validate(model).stream().anyMatch(Finding::isError)) {
      return;
    }
    P plan = kind.plan(model);
    String templatesBefore = templates(plan);
    List<JsonNode> first = trees(kind.generate(plan));
    List<JsonNode> second = trees(kind.generate(plan));
    assertThat(second).isEqualTo(first);
    assertThat(templates(plan)).isEqualTo(templatesBefore);
  }

  private static String templates(Object plan) {
    if (plan instanceof MpiJobPlan mpi) {
      return ObjectTrees.tree(mpi.launcherTemplate().copy())
          + "\n"
          + (mpi.workerTemplate() == null ? "" : ObjectTrees.tree(mpi.workerTemplate().copy()));
    }
    return "";
  }

  private static List<JsonNode> trees(List<HasMetadata> objects) {
    return objects.stream().map(o -> (JsonNode) ObjectTrees.tree(o)).toList();
  }
}
