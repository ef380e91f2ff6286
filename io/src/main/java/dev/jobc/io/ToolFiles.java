package dev.jobc.io;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jobc.load.Document;
import dev.jobc.load.YamlLimits;
import dev.jobc.load.YamlLoader;
import dev.jobc.model.Source;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * Files below an input directory that configure a tool rather than describe objects, which jobc
 * leaves out with a note: read as objects they would be errors (a kustomization has no {@code
 * metadata.name}) or wrong output (a strategic-merge patch passed through as a whole Deployment).
 * Each is recognised by its name and its content, so a ConfigMap in a file called {@code
 * plugin.yaml} still renders:
 *
 * <ul>
 *   <li>kustomize's {@code kustomization.yaml} / {@code .yml} (kustomize.config.k8s.io, or no
 *       apiVersion and kind, as kustomize allows), and every file it names as something other than
 *       a resource: patches, generator, transformer and validator configurations, the sources of
 *       generated ConfigMaps and Secrets, replacements, schemas, Helm values (kustomize's {@code
 *       Kustomization} field list, api/types/kustomization.go);
 *   <li>a Helm chart: a directory with a {@code Chart.yaml} (apiVersion v1 or v2, a name, no kind)
 *       is left out whole, since its templates and values become objects only through Helm;
 *   <li>Argo CD's {@code plugin.yaml} of kind {@code ConfigManagementPlugin}, read by the CMP
 *       server, never applied.
 * </ul>
 *
 * kpt's {@code Kptfile} and kustomize's {@code Kustomization} have no {@code .yaml} ending, and
 * pre-commit's {@code .pre-commit-config.yaml} and {@code .pre-commit-hooks.yaml} are hidden, so
 * none of them is read in the first place.
 */
public final class ToolFiles {
  /** A file larger than this is not read to tell what it is: no tool configuration is that big. */
  private static final int MAX_BYTES = 1 << 20;

  private static final YamlLoader LOADER = new YamlLoader(YamlLimits.defaults());

  private static final Set<String> KUSTOMIZATIONS =
      Set.of("kustomization.yaml", "kustomization.yml");

  private ToolFiles() {}

  /** Why {@code dir} is left out whole, or {@code null}: it holds a Helm chart. */
  static String chart(Path dir) {
    JsonNode root = firstDocument(dir.resolve("Chart.yaml"));
    boolean chart =
        root != null
            && root.isObject()
            && !root.has("kind")
            && root.path("name").isTextual()
            && Set.of("v1", "v2").contains(root.path("apiVersion").asText());
    return chart
        ? "skipped: a Helm chart (Chart.yaml); its templates and values become objects only"
            + " through helm template"
        : null;
  }

  /**
   * The files of {@code found} (paths relative to {@code directory}, shown as {@code name/...})
   * that are tool configuration, each with the note that says why it is skipped.
   */
  static Map<String, String> skipped(Path directory, String name, List<String> found) {
    return skipped(name, found, relative -> firstDocument(directory.resolve(relative)));
  }

  /**
   * The same judgement on files that are already read: {@code firstDocument} gives the root of a
   * file's first document, or {@code null}. {@code jobc krm} calls it on the items of a package
   * (kpt hands it every file's objects, a kustomization's included), so a file render skips is
   * skipped there too, with the same note.
   */
  public static Map<String, String> skipped(
      String name, List<String> found, Function<String, JsonNode> firstDocument) {
    Map<String, String> skipped = new LinkedHashMap<>();
    for (String relative : found) {
      String fileName = relative.substring(relative.lastIndexOf('/') + 1);
      if (KUSTOMIZATIONS.contains(fileName)) {
        JsonNode root = firstDocument.apply(relative);
        if (root != null && isKustomization(root)) {
          skipped.putIfAbsent(relative, "skipped: a kustomization (kustomize's configuration)");
          String base =
              relative.contains("/") ? relative.substring(0, relative.lastIndexOf('/') + 1) : "";
          String from = name.isEmpty() ? relative : InputFiles.join(name, relative);
          references(root)
              .forEach(
                  (path, role) -> {
                    String target = normalize(base + path);
                    if (target != null && found.contains(target)) {
                      // Usually the kustomization beside it, which then goes without its path.
                      boolean beside =
                          target.substring(0, target.lastIndexOf('/') + 1).equals(base);
                      skipped.putIfAbsent(
                          target,
                          "skipped: "
                              + role
                              + " named by "
                              + (beside ? "the " + fileName + " beside it" : from));
                    }
                  });
        }
      } else if (fileName.equals("plugin.yaml") || fileName.equals("plugin.yml")) {
        JsonNode root = firstDocument.apply(relative);
        if (root != null
            && root.path("kind").asText().equals("ConfigManagementPlugin")
            && root.path("apiVersion").asText().startsWith("argoproj.io/")) {
          skipped.put(
              relative, "skipped: an Argo CD ConfigManagementPlugin (Argo CD's configuration)");
        }
      }
    }
    return skipped;
  }

  private static boolean isKustomization(JsonNode root) {
    if (!root.isObject()) {
      return false;
    }
    String apiVersion = root.path("apiVersion").asText("");
    String kind = root.path("kind").asText("");
    return (apiVersion.isEmpty() || apiVersion.startsWith("kustomize.config.k8s.io/"))
        && (kind.isEmpty() || kind.equals("Kustomization") || kind.equals("Component"));
  }

  /** Every local path a kustomization names other than as a resource, with what it is. */
  private static Map<String, String> references(JsonNode k) {
    Map<String, String> out = new LinkedHashMap<>();
    strings(k.path("generators"), "a generator configuration", out);
    strings(k.path("transformers"), "a transformer configuration", out);
    strings(k.path("validators"), "a validator configuration", out);
    strings(k.path("patchesStrategicMerge"), "a patch", out);
    for (String list : List.of("patches", "patchesJson6902", "replacements")) {
      for (JsonNode item : k.path(list)) {
        add(item.path("path"), list.equals("replacements") ? "a replacement" : "a patch", out);
      }
    }
    for (String generator : List.of("configMapGenerator", "secretGenerator")) {
      String role =
          generator.equals("configMapGenerator")
              ? "the data of a ConfigMap"
              : "the data of a Secret";
      for (JsonNode item : k.path(generator)) {
        for (JsonNode file : item.path("files")) {
          // "key=path" or "path".
          String entry = file.asText("");
          add(entry.substring(entry.indexOf('=') + 1), role, out);
        }
        strings(item.path("envs"), role, out);
        add(item.path("env"), role, out);
      }
    }
    add(k.path("openapi").path("path"), "an OpenAPI schema", out);
    strings(k.path("crds"), "a CRD schema", out);
    strings(k.path("configurations"), "a transformer configuration", out);
    for (JsonNode chart : k.path("helmCharts")) {
      add(chart.path("valuesFile"), "Helm values", out);
      strings(chart.path("additionalValuesFiles"), "Helm values", out);
    }
    return out;
  }

  private static void strings(JsonNode list, String role, Map<String, String> out) {
    for (JsonNode item : list) {
      add(item, role, out);
    }
  }

  private static void add(JsonNode value, String role, Map<String, String> out) {
    if (value.isTextual()) {
      add(value.asText(), role, out);
    }
  }

  private static void add(String path, String role, Map<String, String> out) {
    // Inline patches and URLs are no file of this directory.
    if (!path.isEmpty() && !path.contains("\n") && !path.contains("://")) {
      out.putIfAbsent(path, role);
    }
  }

  /** {@code a/./b/../c.yaml} as {@code a/c.yaml}, or {@code null} when it leaves the directory. */
  private static String normalize(String path) {
    Path p = Path.of(path).normalize();
    if (p.isAbsolute() || p.startsWith("..")) {
      return null;
    }
    StringBuilder out = new StringBuilder();
    for (Path part : p) {
      out.append(out.length() == 0 ? "" : "/").append(part);
    }
    return out.toString();
  }

  /**
   * The first document of a small UTF-8 YAML file, or {@code null} when there is none, or the file
   * is missing, too big, not UTF-8 or not YAML (then it is read, and reported, like any other).
   */
  private static JsonNode firstDocument(Path file) {
    String text;
    try (InputStream in = Files.newInputStream(file)) {
      byte[] bytes = in.readNBytes(MAX_BYTES + 1);
      if (bytes.length > MAX_BYTES) {
        return null;
      }
      text = StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(bytes)).toString();
    } catch (IOException e) {
      // Missing, unreadable or not UTF-8 (CharacterCodingException): not tool configuration, so
      // the ordinary read takes it and reports the problem.
      return null;
    }
    List<Document> documents = LOADER.load(new Source(file.toString(), text)).documents();
    return documents.isEmpty() ? null : documents.get(0).root();
  }
}
