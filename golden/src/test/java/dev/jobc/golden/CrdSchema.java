package dev.jobc.golden;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jobc.load.Document;
import dev.jobc.load.LoadResult;
import dev.jobc.load.YamlLimits;
import dev.jobc.load.YamlLoader;
import dev.jobc.model.Source;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A CustomResourceDefinition's structural schema ({@code openAPIV3Schema} of one version), applied
 * to an object as the API server applies it with strict field validation ({@code kubectl apply
 * --validate=strict}): every field must be declared (or sit under {@code
 * x-kubernetes-preserve-unknown-fields} or a map's {@code additionalProperties}), of its type and
 * format, and within its {@code enum}, {@code pattern}, lengths, bounds and list rules. The
 * object's own {@code metadata} is the API server's ObjectMeta, checked elsewhere; CEL rules
 * ({@code x-kubernetes-validations}) are not evaluated here.
 */
final class CrdSchema {
  private static final long INT32_MIN = Integer.MIN_VALUE;
  private static final long INT32_MAX = Integer.MAX_VALUE;

  private final JsonNode root;

  private CrdSchema(JsonNode root) {
    this.root = root;
  }

  /** The schema of {@code version} in the CRD at class path resource {@code resource}. */
  static CrdSchema load(String resource, String version) {
    String text;
    try (InputStream in = CrdSchema.class.getResourceAsStream(resource)) {
      if (in == null) {
        throw new AssertionError("no CRD at " + resource);
      }
      text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    LoadResult loaded =
        // The pod template's schema nests deeper than any job's input may.
        new YamlLoader(new YamlLimits(4_000_000, 200, 4_000_000, 0, 0, 100))
            .load(new Source(resource, text));
    if (loaded.diagnostics().stream().anyMatch(d -> d.isError())) {
      throw new AssertionError(resource + " does not load: " + loaded.diagnostics());
    }
    for (Document doc : loaded.documents()) {
      for (JsonNode v : doc.root().path("spec").path("versions")) {
        if (v.path("name").asText().equals(version)) {
          return new CrdSchema(v.path("schema").path("openAPIV3Schema"));
        }
      }
    }
    throw new AssertionError(resource + " has no version " + version);
  }

  /** Every problem of {@code object} against the schema, each as {@code path: problem}. */
  List<String> validate(JsonNode object) {
    List<String> out = new ArrayList<>();
    JsonNode props = root.path("properties");
    for (Map.Entry<String, JsonNode> f : object.properties()) {
      if (f.getKey().equals("metadata")) {
        continue;
      }
      if (!props.has(f.getKey())) {
        out.add(f.getKey() + ": unknown field");
      } else {
        check(props.get(f.getKey()), f.getValue(), f.getKey(), out);
      }
    }
    return out;
  }

  private static void check(JsonNode schema, JsonNode value, String path, List<String> out) {
    if (value.isNull()) {
      out.add(path + ": null");
      return;
    }
    if (schema.path("x-kubernetes-int-or-string").asBoolean(false)) {
      if (!value.isIntegralNumber() && !value.isTextual()) {
        out.add(path + ": must be an integer or a string, not " + value.getNodeType());
      }
    } else if (schema.has("type")) {
      String type = schema.get("type").asText();
      boolean ok =
          switch (type) {
            case "object" -> value.isObject();
            case "array" -> value.isArray();
            case "string" -> value.isTextual();
            case "integer" -> value.isIntegralNumber();
            case "number" -> value.isNumber();
            case "boolean" -> value.isBoolean();
            default -> throw new AssertionError(path + ": schema type " + type);
          };
      if (!ok) {
        out.add(path + ": must be " + type + ", not " + value.getNodeType());
        return;
      }
    }
    if (schema.has("anyOf")) {
      boolean any = false;
      for (JsonNode alternative : schema.get("anyOf")) {
        List<String> problems = new ArrayList<>();
        check(alternative, value, path, problems);
        any |= problems.isEmpty();
      }
      if (!any) {
        out.add(path + ": matches none of anyOf");
      }
    }
    if (schema.has("enum")) {
      boolean found = false;
      for (JsonNode e : schema.get("enum")) {
        found |= e.equals(value);
      }
      if (!found) {
        out.add(path + ": " + value + " is not one of " + schema.get("enum"));
      }
    }
    if (value.isIntegralNumber()) {
      long n = value.asLong();
      if ("int32".equals(schema.path("format").asText()) && (n < INT32_MIN || n > INT32_MAX)) {
        out.add(path + ": " + n + " is out of int32");
      }
      if (schema.has("minimum") && n < schema.get("minimum").asLong()) {
        out.add(path + ": " + n + " is below the minimum " + schema.get("minimum"));
      }
      if (schema.has("maximum") && n > schema.get("maximum").asLong()) {
        out.add(path + ": " + n + " is above the maximum " + schema.get("maximum"));
      }
    }
    if (value.isTextual()) {
      String s = value.asText();
      if (schema.has("maxLength") && s.length() > schema.get("maxLength").asInt()) {
        out.add(path + ": longer than " + schema.get("maxLength"));
      }
      if (schema.has("minLength") && s.length() < schema.get("minLength").asInt()) {
        out.add(path + ": shorter than " + schema.get("minLength"));
      }
      if (schema.has("pattern")
          && !Pattern.compile(schema.get("pattern").asText()).matcher(s).find()) {
        out.add(path + ": " + value + " does not match " + schema.get("pattern").asText());
      }
    }
    if (value.isArray()) {
      checkArray(schema, value, path, out);
    }
    if (value.isObject()) {
      checkObject(schema, value, path, out);
    }
  }

  private static void checkArray(JsonNode schema, JsonNode value, String path, List<String> out) {
    if (schema.has("maxItems") && value.size() > schema.get("maxItems").asInt()) {
      out.add(path + ": more than " + schema.get("maxItems") + " items");
    }
    if (schema.has("minItems") && value.size() < schema.get("minItems").asInt()) {
      out.add(path + ": fewer than " + schema.get("minItems") + " items");
    }
    String listType = schema.path("x-kubernetes-list-type").asText("atomic");
    Set<String> keys = new HashSet<>();
    for (int i = 0; i < value.size(); i++) {
      JsonNode item = value.get(i);
      if (schema.has("items")) {
        check(schema.get("items"), item, path + "[" + i + "]", out);
      }
      String key =
          switch (listType) {
            case "set" -> item.toString();
            case "map" -> mapKey(schema, item);
            default -> null;
          };
      if (key != null && !keys.add(key)) {
        out.add(path + "[" + i + "]: duplicate " + listType + " key " + key);
      }
    }
  }

  private static String mapKey(JsonNode schema, JsonNode item) {
    StringBuilder key = new StringBuilder();
    for (JsonNode k : schema.path("x-kubernetes-list-map-keys")) {
      key.append(k.asText()).append('=').append(item.path(k.asText())).append(';');
    }
    return key.toString();
  }

  private static void checkObject(JsonNode schema, JsonNode value, String path, List<String> out) {
    JsonNode props = schema.path("properties");
    JsonNode additional = schema.get("additionalProperties");
    boolean preserve = schema.path("x-kubernetes-preserve-unknown-fields").asBoolean(false);
    for (JsonNode required : schema.path("required")) {
      if (!value.has(required.asText())) {
        out.add(path + "." + required.asText() + ": Required value");
      }
    }
    for (Map.Entry<String, JsonNode> f : value.properties()) {
      String at = path + "." + f.getKey();
      if (props.has(f.getKey())) {
        check(props.get(f.getKey()), f.getValue(), at, out);
      } else if (additional != null && additional.isObject()) {
        check(additional, f.getValue(), at, out);
      } else if (!preserve) {
        out.add(at + ": unknown field");
      }
    }
  }
}
