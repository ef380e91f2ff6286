package dev.jobc.sidecar;

import io.fabric8.kubernetes.api.model.HasMetadata;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The run-time rule as the documentation states it to users (DEVELOPERS.md, "The run-time rule"): a
 * running sidecar may change a rendered object only when that object carries Flux's {@code
 * kustomize.toolkit.fluxcd.io/ssa: IfNotPresent} and the documented Argo CD {@code
 * ignoreDifferences} (the snippet {@code argocd-ignore-differences}, read from the docs themselves)
 * leaves the sidecar's fields of its kind alone; it deletes none.
 */
final class GitOpsRules {
  static final String SNIPPET = "argocd-ignore-differences";
  static final String FLUX_SSA = "kustomize.toolkit.fluxcd.io/ssa";
  static final String MANAGER = "jobc-sidecar";

  /**
   * One documented {@code ignoreDifferences} entry: what it matches (group, kind, and name and
   * namespace when given) and what it ignores there.
   */
  record Entry(
      String group,
      String kind,
      String name,
      String namespace,
      List<String> managers,
      List<String> jqPathExpressions,
      List<String> jsonPointers) {}

  /** The documented Application settings: its entries and whether syncs respect them. */
  record Recipe(List<Entry> entries, boolean respectIgnoreDifferences) {}

  private static List<Entry> documented;

  private GitOpsRules() {}

  /** The repository's root: {@code jobc.root} when Maven sets it, else the module's parent. */
  static Path root() {
    return Path.of(System.getProperty("jobc.root", ".."));
  }

  /** The documented entries. */
  static synchronized List<Entry> documented() {
    if (documented == null) {
      documented = parse(snippet(root()));
    }
    return documented;
  }

  /** The fenced block after {@code <!-- snippet: argocd-ignore-differences -->}, in the docs. */
  static String snippet(Path root) {
    List<Path> docs = new ArrayList<>();
    docs.add(root.resolve("README.md"));
    if (Files.isDirectory(root.resolve("docs"))) {
      try (Stream<Path> files = Files.list(root.resolve("docs"))) {
        files.filter(f -> f.toString().endsWith(".md")).sorted().forEach(docs::add);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    String marker = "<!-- snippet: " + SNIPPET + " -->";
    for (Path doc : docs) {
      String text;
      try {
        text = Files.readString(doc);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      int at = text.indexOf(marker);
      if (at < 0) {
        continue;
      }
      int open = text.indexOf("```", at);
      int start = text.indexOf('\n', open) + 1;
      int end = text.indexOf("```", start);
      return text.substring(start, end).stripIndent();
    }
    throw new AssertionError("no " + marker + " in " + docs);
  }

  static List<Entry> parse(String yaml) {
    Recipe recipe = recipe(yaml);
    if (!recipe.respectIgnoreDifferences()) {
      throw new AssertionError(
          "the documented ignoreDifferences need syncOptions RespectIgnoreDifferences=true,"
              + " or a sync restores the ignored fields");
    }
    return recipe.entries();
  }

  /** The entries and sync options of an Application's {@code spec} in {@code yaml}. */
  @SuppressWarnings("unchecked")
  static Recipe recipe(String yaml) {
    Map<String, Object> doc = RenderedJob.YAML.unmarshal(yaml, Map.class);
    Map<String, Object> spec = (Map<String, Object>) doc.get("spec");
    List<Entry> out = new ArrayList<>();
    for (Map<String, Object> e : (List<Map<String, Object>>) spec.get("ignoreDifferences")) {
      out.add(
          new Entry(
              e.get("group") == null ? "" : (String) e.get("group"),
              (String) e.get("kind"),
              (String) e.get("name"),
              (String) e.get("namespace"),
              strings(e.get("managedFieldsManagers")),
              strings(e.get("jqPathExpressions")),
              strings(e.get("jsonPointers"))));
    }
    Map<String, Object> sync = (Map<String, Object>) spec.get("syncPolicy");
    List<String> options = sync == null ? null : (List<String>) sync.get("syncOptions");
    return new Recipe(
        List.copyOf(out), options != null && options.contains("RespectIgnoreDifferences=true"));
  }

  @SuppressWarnings("unchecked")
  private static List<String> strings(Object list) {
    return list == null ? List.of() : List.copyOf((List<String>) list);
  }

  /** The API group of a kind's {@code apiVersion} ({@code batch/v1} → batch, {@code v1} → ""). */
  static String group(HasMetadata o) {
    String v = o.getApiVersion();
    return v.contains("/") ? v.substring(0, v.indexOf('/')) : "";
  }

  /**
   * Why the sidecar may not change {@code o}, a rendered object, or {@code null} when it may: it
   * needs Flux's annotation and a documented entry for its kind with the sidecar's manager.
   */
  static String whyNotChangeable(HasMetadata o) {
    Map<String, String> annotations = o.getMetadata().getAnnotations();
    if (annotations == null || !"IfNotPresent".equals(annotations.get(FLUX_SSA))) {
      return "has no " + FLUX_SSA + ": IfNotPresent (Flux re-applies it)";
    }
    for (Entry e : documented()) {
      if (e.group().equals(group(o))
          && e.kind().equals(o.getKind())
          && (e.name() == null || e.name().equals(o.getMetadata().getName()))
          && e.managers().contains(MANAGER)) {
        return null;
      }
    }
    return "its kind has no documented ignoreDifferences entry for "
        + MANAGER
        + " (Argo CD self-heal restores it)";
  }
}
