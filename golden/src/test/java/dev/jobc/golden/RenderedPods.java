package dev.jobc.golden;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jobc.conventions.DglNaming;
import dev.jobc.conventions.Naming;
import dev.jobc.load.Document;
import dev.jobc.load.YamlLimits;
import dev.jobc.load.YamlLoader;
import dev.jobc.model.Source;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

/**
 * The pods the golden cases render: every case with an {@code expected.yaml} rendered afresh
 * through {@code jobc render} (never the committed file, which an update run can rewrite to
 * anything, and which would hide a break of the code from every check made on it), and each Pod,
 * Job or StatefulSet's pod spec taken out of the output.
 */
record RenderedPods(String caseName, String object, JsonNode spec) {

  /** The containers jobc adds to pods; the user's may not use these names (reserved). */
  static final Set<String> JOBC_CONTAINERS =
      Set.of(
          Naming.KUBECTL_DELIVERY,
          Naming.SIDECAR,
          DglNaming.KUBECTL_DOWNLOAD,
          DglNaming.PARTITIONER_WATCHER,
          DglNaming.WORKER_WATCHER,
          DglNaming.RESOLVE_HOSTS);

  /** Every rendering golden case's directory, by name. */
  static List<Path> renderingCases() {
    String dir = System.getProperty("golden.dir");
    if (dir == null || dir.isBlank()) {
      throw new AssertionError("golden.dir is not set: run through Maven (golden/pom.xml sets it)");
    }
    try (Stream<Path> dirs = Files.list(Path.of(dir))) {
      return dirs.filter(d -> Files.exists(d.resolve(GoldenCase.EXPECTED))).sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Each case's pods, rendered once per JVM (the checks over them share the renders). */
  private static final Map<Path, List<RenderedPods>> RENDERED = new ConcurrentHashMap<>();

  /** The pod specs of what {@code jobc render} prints for one case today, in output order. */
  static List<RenderedPods> of(Path caseDir) {
    return RENDERED.computeIfAbsent(caseDir, RenderedPods::render);
  }

  /** Each case's output, rendered once per JVM. */
  private static final Map<Path, List<JsonNode>> DOCUMENTS = new ConcurrentHashMap<>();

  /** The objects {@code jobc render} prints for one case today, in output order. */
  static List<JsonNode> documents(Path caseDir) {
    return DOCUMENTS.computeIfAbsent(caseDir, RenderedPods::renderDocuments);
  }

  private static List<JsonNode> renderDocuments(Path caseDir) {
    List<String> args = new GoldenCase(caseDir, GoldenCase.Expectation.SUCCESS, false).arguments();
    GoldenCasesTest.Run run = GoldenCasesTest.run(caseDir, args);
    if (run.exit() != 0 || !run.crash().isEmpty()) {
      throw new AssertionError(
          caseDir
              + ": jobc "
              + String.join(" ", args)
              + " exited "
              + run.exit()
              + "\n"
              + run.err()
              + run.crash());
    }
    List<JsonNode> out = new ArrayList<>();
    for (Document doc :
        new YamlLoader(YamlLimits.defaults()).load(new Source("stdout", run.out())).documents()) {
      out.add(doc.root());
    }
    return out;
  }

  private static List<RenderedPods> render(Path caseDir) {
    List<RenderedPods> out = new ArrayList<>();
    for (JsonNode root : documents(caseDir)) {
      String kind = root.path("kind").asText();
      JsonNode spec =
          switch (kind) {
            case "Pod" -> root.path("spec");
            case "Job", "StatefulSet" -> root.path("spec").path("template").path("spec");
            default -> null;
          };
      if (spec != null && spec.isObject()) {
        out.add(
            new RenderedPods(
                caseDir.getFileName().toString(),
                kind + " " + root.path("metadata").path("name").asText(),
                spec));
      }
    }
    return out;
  }

  /** Init containers, then containers. */
  List<JsonNode> containers() {
    List<JsonNode> out = new ArrayList<>();
    spec.path("initContainers").forEach(out::add);
    spec.path("containers").forEach(out::add);
    return out;
  }

  static boolean addedByJobc(JsonNode container) {
    return JOBC_CONTAINERS.contains(container.path("name").asText());
  }

  @Override
  public String toString() {
    return caseName + ": " + object;
  }
}
