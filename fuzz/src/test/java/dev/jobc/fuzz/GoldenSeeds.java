package dev.jobc.fuzz;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The golden cases ({@code golden/cases/<case>/input.yaml} and {@code options.yaml}) as fuzzing
 * seeds, read where the {@code golden.cases} system property (set by fuzz/pom.xml) points, so that
 * every new case seeds the fuzzers too: all of them in regression mode, a sample in fuzzing mode
 * (see {@link #seedInputs}).
 *
 * <p>Uses Jackson's YAML mapper rather than jobc's loader and writer: seeds are made before Jazzer
 * installs its agent, and every jobc class loaded by then must be instrumented again afterwards, at
 * a cost of a class-path scan each.
 */
final class GoldenSeeds {
  private static final YAMLMapper YAML =
      YAMLMapper.builder()
          .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
          .enable(YAMLGenerator.Feature.MINIMIZE_QUOTES)
          .build();

  /** One golden case: its directory name, input text and options by name, in file order. */
  record GoldenInput(String name, String text, Map<String, String> options) {}

  private GoldenSeeds() {} // don't instantiate

  /** Every golden case, sorted by name. */
  static List<GoldenInput> inputs() {
    String dir = System.getProperty("golden.cases");
    if (dir == null || dir.isBlank()) {
      throw new AssertionError("golden.cases is not set: run through Maven (fuzz/pom.xml sets it)");
    }
    List<GoldenInput> inputs = new ArrayList<>();
    try (Stream<Path> cases = Files.list(Path.of(dir))) {
      for (Path c : cases.sorted().toList()) {
        Path input = c.resolve("input.yaml");
        if (Files.isRegularFile(input)) {
          Path options = c.resolve("options.yaml");
          inputs.add(
              new GoldenInput(
                  c.getFileName().toString(),
                  Files.readString(input, StandardCharsets.UTF_8),
                  Files.exists(options) ? options(options) : Map.of()));
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    if (inputs.isEmpty()) {
      throw new AssertionError("no golden case in " + dir);
    }
    return inputs;
  }

  /**
   * The cases a run of a fuzz test starts from: every case, but in fuzzing mode at most {@code
   * fuzz.seeds} of them (a system property; 0 or none is no limit), evenly spread over the sorted
   * names so that every kind and version contributes. libFuzzer replays its seeds within its bound
   * on executions (-runs); without a limit, each new case would take from the inputs it makes.
   */
  static List<GoldenInput> seedInputs() {
    List<GoldenInput> all = inputs();
    return TargetRuns.fuzzing() ? sample(all, Integer.getInteger("fuzz.seeds", 0)) : all;
  }

  /** At most {@code max} of {@code all} (all of them when {@code max} is 0), evenly spread. */
  static <T> List<T> sample(List<T> all, int max) {
    if (max <= 0 || all.size() <= max) {
      return all;
    }
    List<T> sample = new ArrayList<>(max);
    for (int i = 0; i < max; i++) {
      sample.add(all.get((int) ((long) i * all.size() / max)));
    }
    return sample;
  }

  /** Seeds of {@link CompileFuzzTest}: each input behind its options line. */
  static Stream<byte[]> compileSeeds() {
    return seedInputs().stream()
        .map(i -> CompileInput.encode(i.options(), i.text()).getBytes(StandardCharsets.UTF_8));
  }

  /**
   * Seeds of {@link KrmFuzzTest}: each input as the items of a ResourceList, annotated as kpt
   * annotates them, with its options as a ConfigMap functionConfig and again as a JobcConfig; an
   * input that Jackson does not read is a seed as it stands (not a ResourceList at all).
   */
  static Stream<byte[]> krmSeeds() {
    List<String> seeds = new ArrayList<>();
    for (GoldenInput input : seedInputs()) {
      List<JsonNode> documents;
      try (MappingIterator<JsonNode> docs =
          YAML.readerFor(JsonNode.class).readValues(input.text())) {
        documents = docs.readAll();
      } catch (IOException | RuntimeException e) {
        seeds.add(input.text());
        continue;
      }
      seeds.add(resourceList(input.name(), documents, configMap(input.options())));
      if (!input.options().isEmpty()) {
        seeds.add(resourceList(input.name(), documents, jobcConfig(input.options())));
      }
    }
    return seeds.stream().map(s -> s.getBytes(StandardCharsets.UTF_8));
  }

  private static String resourceList(
      String name, List<JsonNode> documents, ObjectNode functionConfig) {
    ObjectNode list = YAML.createObjectNode();
    list.put("apiVersion", "config.kubernetes.io/v1");
    list.put("kind", "ResourceList");
    var items = list.putArray("items");
    for (int i = 0; i < documents.size(); i++) {
      JsonNode item = documents.get(i).deepCopy();
      if (item instanceof ObjectNode object && annotatable(object)) {
        ObjectNode annotations = object.withObject("metadata").withObject("annotations");
        String path = "cases/" + name + "/input.yaml";
        annotations.put("config.kubernetes.io/path", path);
        annotations.put("config.kubernetes.io/index", String.valueOf(i));
        annotations.put("internal.config.kubernetes.io/path", path);
        annotations.put("internal.config.kubernetes.io/index", String.valueOf(i));
      }
      items.add(item);
    }
    if (functionConfig != null) {
      list.set("functionConfig", functionConfig);
    }
    try {
      return YAML.writeValueAsString(list);
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Whether kpt's annotations fit: metadata and its annotations are maps or absent. */
  private static boolean annotatable(ObjectNode item) {
    JsonNode metadata = item.path("metadata");
    JsonNode annotations = metadata.path("annotations");
    return (metadata.isMissingNode() || metadata.isObject())
        && (annotations.isMissingNode() || annotations.isObject());
  }

  private static ObjectNode configMap(Map<String, String> options) {
    if (options.isEmpty()) {
      return null;
    }
    ObjectNode config = YAML.createObjectNode();
    config.put("apiVersion", "v1");
    config.put("kind", "ConfigMap");
    config.putObject("metadata").put("name", "jobc");
    ObjectNode data = config.putObject("data");
    options.forEach(data::put);
    return config;
  }

  private static ObjectNode jobcConfig(Map<String, String> options) {
    ObjectNode config = YAML.createObjectNode();
    config.put("apiVersion", "fn.jobc.dev/v1");
    config.put("kind", "JobcConfig");
    config.putObject("metadata").put("name", "jobc");
    options.forEach(config::put);
    return config;
  }

  /** An options.yaml: a map of option name to scalar value. */
  private static Map<String, String> options(Path file) throws IOException {
    JsonNode root = YAML.readTree(file.toFile());
    if (root == null || !root.isObject()) {
      throw new AssertionError(file + ": not a map of option name to value");
    }
    Map<String, String> options = new LinkedHashMap<>();
    root.properties().forEach(e -> options.put(e.getKey(), e.getValue().asText()));
    return options;
  }
}
