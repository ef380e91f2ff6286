package dev.jobc.validate;

import static dev.jobc.diag.Finding.error;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jobc.diag.Code;
import dev.jobc.diag.FieldPath;
import dev.jobc.diag.Finding;
import dev.jobc.diag.Quoting;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * What every document must be before jobc does anything with it, job or not: a Kubernetes object
 * whose identity ({@code apiVersion}, {@code kind}, {@code metadata.name}, {@code
 * metadata.namespace}) is safe to use. The identity names output files ({@code <kind>-<name>.yaml})
 * and appears in messages, so a kind such as {@code ../../x/ConfigMap} or a name with a newline in
 * it is an error, never written anywhere.
 *
 * <ul>
 *   <li>{@code kind}: a letter, then letters and digits, at most {@value #KIND_MAX} characters. A
 *       CustomResourceDefinition's kind must lower-case to a DNS-1035 label
 *       (apiextensions-apiserver {@code ValidateCustomResourceDefinitionNames}), which also allows
 *       inner dashes; no real kind uses one, and without them {@code <kind>-<name>} cannot be split
 *       two ways.
 *   <li>{@code metadata.name}: what the API server requires of every name, custom resources
 *       included (apimachinery {@code path.IsValidPathSegmentName}): not {@code .} or {@code ..},
 *       no {@code /} or {@code %}; and no control or invisible character ({@link Quoting}), at most
 *       {@value #NAME_MAX} characters. Built-in kinds are stricter (DNS subdomains), but names such
 *       as {@code system:aggregate-to-admin} (a ClusterRole) or Flux's {@code app-${ENV}} are
 *       legal.
 *   <li>{@code metadata.namespace}, when set: the same rule, at most {@value #NAMESPACE_MAX}
 *       characters (a namespace is a DNS label; {@code ${NS}} stays possible for Flux).
 * </ul>
 *
 * <p>Job documents meet stricter rules of their kind for name and namespace; {@link #header} is
 * checked for every document, {@link #passThrough} for the others.
 */
public final class ObjectIdentity {
  /** Longest accepted kind: a DNS-1035 label's length. */
  public static final int KIND_MAX = 63;

  /** Longest accepted name: a DNS-1123 subdomain's length, the longest any built-in kind allows. */
  public static final int NAME_MAX = 253;

  /** Longest accepted namespace: a DNS-1123 label's length. */
  public static final int NAMESPACE_MAX = 63;

  private static final Pattern KIND = Pattern.compile("[A-Za-z][A-Za-z0-9]*");

  private ObjectIdentity() {}

  /**
   * Whether {@code root} is an object with an {@code apiVersion} and a valid {@code kind}; empty
   * when it is.
   */
  public static List<Finding> header(JsonNode root) {
    if (!root.isObject()) {
      return List.of(
          error(
              Code.INVALID,
              FieldPath.root(),
              "a document must be a Kubernetes object (a map with apiVersion, kind and"
                  + " metadata), not a "
                  + (root.isArray() ? "list" : "scalar")));
    }
    List<Finding> out = new ArrayList<>();
    for (String field : List.of("apiVersion", "kind")) {
      JsonNode value = root.path(field);
      if (absent(value)) {
        out.add(
            error(
                Code.REQUIRED, FieldPath.of(field), "Required value: every object needs " + field));
      } else if (!value.isTextual()) {
        out.add(notAString(FieldPath.of(field), value));
      }
    }
    JsonNode kind = root.path("kind");
    if (kind.isTextual() && !kind.asText().isEmpty()) {
      String k = kind.asText();
      if (k.length() > KIND_MAX || !KIND.matcher(k).matches()) {
        out.add(
            error(
                Code.INVALID,
                FieldPath.of("kind"),
                "Invalid value: "
                    + Quoting.quote(k)
                    + ": a kind must start with a letter and contain only letters and digits, at"
                    + " most "
                    + KIND_MAX
                    + " characters"));
      }
    }
    return out;
  }

  /**
   * Whether a document that {@link #header} accepted can pass through: one object (not a {@code
   * List}) with a valid name and namespace, and labels and annotations that are maps when present;
   * empty when it can.
   */
  public static List<Finding> passThrough(JsonNode root) {
    String kind = root.path("kind").asText();
    if (kind.equals("List") || kind.endsWith("List") && root.has("items")) {
      return List.of(
          error(
              Code.NOT_SUPPORTED,
              FieldPath.of("kind"),
              "Unsupported value: " + Quoting.quote(kind) + ": write one document per object"));
    }
    List<Finding> out = new ArrayList<>();
    FieldPath name = FieldPath.of("metadata", "name");
    JsonNode nameNode = root.path("metadata").path("name");
    if (absent(nameNode)) {
      out.add(
          error(
              Code.REQUIRED,
              name,
              "Required value: every object passed through needs metadata.name"));
    } else {
      segment(name, nameNode, NAME_MAX, out);
    }
    JsonNode namespace = root.path("metadata").path("namespace");
    if (!namespace.isMissingNode() && !namespace.isNull()) {
      segment(FieldPath.of("metadata", "namespace"), namespace, NAMESPACE_MAX, out);
    }
    // The API server decodes both into maps (ObjectMeta) and refuses anything else; jobc krm files
    // what it passes through by adding annotations, so one that is not a map is an error here.
    for (String field : List.of("labels", "annotations")) {
      JsonNode value = root.path("metadata").path(field);
      if (!value.isMissingNode() && !value.isNull() && !value.isObject()) {
        out.add(
            error(
                Code.INVALID,
                FieldPath.of("metadata", field),
                "Invalid value: must be a map, not " + type(value)));
      }
    }
    return out;
  }

  /** apimachinery's path-segment rule, plus printability and a length limit. */
  private static void segment(FieldPath path, JsonNode node, int max, List<Finding> out) {
    if (!node.isTextual()) {
      out.add(notAString(path, node));
      return;
    }
    String value = node.asText();
    List<String> problems = new ArrayList<>();
    if (value.equals(".") || value.equals("..")) {
      problems.add("may not be '" + value + "'");
    }
    if (value.indexOf('/') >= 0) {
      problems.add("may not contain '/'");
    }
    if (value.indexOf('%') >= 0) {
      problems.add("may not contain '%'");
    }
    if (!Quoting.oneLine(value).equals(value)) {
      problems.add("may not contain control or invisible characters");
    }
    if (value.length() > max) {
      problems.add("must be no more than " + max + " characters");
    }
    if (!problems.isEmpty()) {
      out.add(
          error(
              Code.INVALID,
              path,
              "Invalid value: " + Quoting.quote(value) + ": " + String.join("; ", problems)));
    }
  }

  /** Missing, null or the empty string: a required field that is not there. */
  private static boolean absent(JsonNode value) {
    return value.isMissingNode() || value.isNull() || value.isTextual() && value.asText().isEmpty();
  }

  private static Finding notAString(FieldPath path, JsonNode value) {
    return error(Code.INVALID, path, "Invalid value: must be a string, not " + type(value));
  }

  /** What {@code value} is, for a message: "a number", "a string", ... */
  private static String type(JsonNode value) {
    return value.isNumber()
        ? "a number"
        : value.isBoolean()
            ? "a boolean"
            : value.isArray() ? "a list" : value.isTextual() ? "a string" : "a map";
  }
}
