package dev.jobc;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jobc.bind.ObjectTrees;
import dev.jobc.diag.Finding;
import dev.jobc.kind.JobKind;
import dev.jobc.load.Document;
import dev.jobc.load.YamlLimits;
import dev.jobc.load.YamlLoader;
import dev.jobc.model.Source;
import dev.jobc.options.CompileOptions;
import dev.jobc.options.OptionTable;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Generators are pure functions of the plan: for every golden case that renders, generating twice
 * from one plan gives equal objects, and everything the plan reaches (its model and pod templates
 * included) is unchanged. The kinds are the compiler's own registration, so a new kind is checked
 * the day it is registered.
 */
class GeneratePurityTest {
  private static final Path CASES = Path.of("..", "golden", "cases");
  private static final List<JobKind<?, ?, ?>> KINDS = new ManifestCompiler().kinds();

  static Stream<Path> renderingCases() throws IOException {
    try (Stream<Path> dirs = Files.list(CASES)) {
      return dirs.filter(d -> Files.exists(d.resolve("expected.yaml"))).sorted().toList().stream();
    }
  }

  @ParameterizedTest
  @MethodSource("renderingCases")
  void generatingTwiceGivesEqualObjectsAndLeavesThePlanAlone(Path dir) throws IOException {
    CompileOptions options = CaseOptions.of(dir);
    for (Job<?> job : jobs(dir)) {
      check(job.kind(), job.root(), options);
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
    for (Job<?> job : jobs(dir)) {
      for (JsonNode object : generate(job.kind(), job.root(), options)) {
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

  /** Every registered kind has rendering cases here, so none goes through these checks unseen. */
  @Test
  void everyRegisteredKindRendersInSomeCase() throws IOException {
    Map<String, Integer> rendered = new TreeMap<>();
    KINDS.forEach(k -> rendered.put(k.kind(), 0));
    for (Path dir : renderingCases().toList()) {
      for (Job<?> job : jobs(dir)) {
        if (!generate(job.kind(), job.root(), CaseOptions.of(dir)).isEmpty()) {
          rendered.merge(job.kind().kind(), 1, Integer::sum);
        }
      }
    }
    assertThat(rendered)
        .as(
            "jobs generated per registered kind in golden/cases; add rendering cases for a new kind")
        .doesNotContainValue(0);
  }

  /** The plan check itself: a change anywhere a plan reaches changes its state. */
  @Test
  void aChangeDeepInsideAPlanChangesItsState() throws IOException {
    for (JobKind<?, ?, ?> kind : KINDS) {
      Path dir =
          renderingCases()
              .filter(d -> jobs(d).stream().anyMatch(j -> j.kind() == kind))
              .findFirst()
              .orElseThrow();
      Job<?> job = jobs(dir).stream().filter(j -> j.kind() == kind).findFirst().orElseThrow();
      Object plan = plan(kind, job.root(), CaseOptions.of(dir));
      String before = ReachableState.of(plan);
      assertThat(ReachableState.of(plan)).as("the state of one plan, twice").isEqualTo(before);
      List<ObjectMeta> metas = new ArrayList<>();
      collect(plan, ObjectMeta.class, metas, new IdentityHashMap<>());
      assertThat(metas).as(kind.kind() + ": metadata reachable from its plan").isNotEmpty();
      for (ObjectMeta meta : metas) {
        Map<String, String> labels = meta.getLabels();
        meta.setLabels(Map.of("changed", "by the test"));
        assertThat(ReachableState.of(plan)).as(kind.kind() + ": " + meta).isNotEqualTo(before);
        meta.setLabels(labels);
      }
      assertThat(ReachableState.of(plan)).isEqualTo(before);
    }
  }

  /** A job document of a golden input and the registered kind it belongs to. */
  record Job<K extends JobKind<?, ?, ?>>(K kind, JsonNode root) {}

  /** The job documents of a case's input, matched to a kind as the compiler matches them. */
  private static List<Job<?>> jobs(Path dir) {
    String text;
    try {
      text = Files.readString(dir.resolve("input.yaml"));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    List<Job<?>> jobs = new ArrayList<>();
    List<Document> documents =
        new YamlLoader(YamlLimits.defaults()).load(new Source("in", text)).documents();
    for (Document doc : documents) {
      INPUTS.put(doc.root(), documents);
      String apiVersion = doc.root().path("apiVersion").asText();
      for (JobKind<?, ?, ?> kind : KINDS) {
        if (kind.kind().equals(doc.root().path("kind").asText())
            && kind.apiVersions().contains(apiVersion)) {
          jobs.add(new Job<>(kind, doc.root()));
        }
      }
    }
    return jobs;
  }

  /** Each job document's whole input, for the documents it refers to (a TrainJob's runtime). */
  private static final Map<JsonNode, List<Document>> INPUTS =
      java.util.Collections.synchronizedMap(new IdentityHashMap<>());

  private static final ManifestCompiler COMPILER = new ManifestCompiler();

  /** The plan of a job that renders, else null. */
  private static <J, M, P> P plan(JobKind<J, M, P> kind, JsonNode root, CompileOptions options) {
    J bound = COMPILER.withReferences(kind, kind.bind(root), INPUTS.get(root));
    M model = kind.defaults(bound, options);
    if (kind.renderedElsewhere(model) != null
        || kind.validate(model).stream().anyMatch(Finding::isError)) {
      return null;
    }
    return kind.plan(model);
  }

  private static <J, M, P> List<JsonNode> generate(
      JobKind<J, M, P> kind, JsonNode root, CompileOptions options) {
    P plan = plan(kind, root, options);
    return plan == null ? List.of() : trees(kind.generate(plan));
  }

  private static <J, M, P> void check(
      JobKind<J, M, P> kind, JsonNode root, CompileOptions options) {
    P plan = plan(kind, root, options);
    if (plan == null) {
      return;
    }
    String before = ReachableState.of(plan);
    List<JsonNode> first = trees(kind.generate(plan));
    assertThat(ReachableState.of(plan)).as("the plan after generating").isEqualTo(before);
    List<JsonNode> second = trees(kind.generate(plan));
    assertThat(second).as("generating again from the same plan").isEqualTo(first);
    assertThat(ReachableState.of(plan)).as("the plan after generating twice").isEqualTo(before);
  }

  /** Every {@code type} reachable from {@code value} through fields and collections. */
  private static <T> void collect(
      Object value, Class<T> type, List<T> found, Map<Object, Boolean> seen) {
    if (value == null
        || value.getClass().getName().startsWith("java.")
            && !(value instanceof Iterable<?>)
            && !(value instanceof Map<?, ?>)
        || seen.put(value, true) != null) {
      return;
    }
    if (type.isInstance(value)) {
      found.add(type.cast(value));
    }
    if (value instanceof Iterable<?> items) {
      items.forEach(i -> collect(i, type, found, seen));
    } else if (value instanceof Map<?, ?> map) {
      map.values().forEach(v -> collect(v, type, found, seen));
    } else if (!value.getClass().isEnum() && !(value instanceof JsonNode)) {
      for (Class<?> c = value.getClass(); c != null && c != Object.class; c = c.getSuperclass()) {
        for (Field field : c.getDeclaredFields()) {
          if (!Modifier.isStatic(field.getModifiers()) && !field.getType().isPrimitive()) {
            field.setAccessible(true);
            try {
              collect(field.get(value), type, found, seen);
            } catch (IllegalAccessException e) {
              throw new AssertionError(e);
            }
          }
        }
      }
    }
  }

  private static List<JsonNode> trees(List<HasMetadata> objects) {
    return objects.stream().map(o -> (JsonNode) ObjectTrees.tree(o)).toList();
  }
}
