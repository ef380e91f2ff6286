package dev.jobc;

import com.fasterxml.jackson.core.JsonPointer;
import com.fasterxml.jackson.databind.JsonNode;
import dev.jobc.diag.FieldPath;
import dev.jobc.options.CompileOptions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What Flux's post-build substitution would do to an object jobc writes. Flux's kustomize-controller
 * runs envsubst over every object's YAML unless the object carries the label or annotation {@code
 * kustomize.toolkit.fluxcd.io/substitute: disabled} (fluxcd/pkg, {@code
 * kustomize/kustomize_varsub.go}). envsubst (fluxcd/pkg {@code envsubst/parse/scan.go}, forked from
 * drone/envsubst) reads {@code $$} as an escaped {@code $}, so {@code $${VAR}} becomes the literal
 * {@code ${VAR}} and only a {@code $} that ends an odd-length run of dollars before a {@code
 * {}starts a substitution.
 */
final class FluxSubstitution {
  private FluxSubstitution() {}

  /** True when Flux would substitute something in {@code text}. */
  static boolean substitutes(String text) {
    // Every substitution contains "${"; most texts (every whole rendered object is one) have none,
    // and indexOf finds that far faster than the loop below walks the text.
    int start = text.indexOf("${");
    if (start < 0) {
      return false;
    }
    // The run of '$' before the first "${" decides whether it is escaped ($${): count from there.
    while (start > 0 && text.charAt(start - 1) == '$') {
      start--;
    }
    int dollars = 0;
    for (int i = start; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '{' && dollars % 2 == 1) {
        return true;
      }
      dollars = c == '$' ? dollars + 1 : 0;
    }
    return false;
  }

  /** True when {@code object} opts out of substitution with Flux's label or annotation. */
  static boolean disabled(JsonNode object) {
    JsonNode metadata = object.path("metadata");
    String key = CompileOptions.FLUX_SUBSTITUTE_ANNOTATION;
    return "disabled".equals(metadata.path("annotations").path(key).textValue())
        || "disabled".equals(metadata.path("labels").path(key).textValue());
  }

  /** {@link #disabled(JsonNode)} of an object with these annotations and labels (maybe null). */
  static boolean disabled(Map<String, String> annotations, Map<String, String> labels) {
    String key = CompileOptions.FLUX_SUBSTITUTE_ANNOTATION;
    return (annotations != null && "disabled".equals(annotations.get(key)))
        || (labels != null && "disabled".equals(labels.get(key)));
  }

  /**
   * The paths of the map keys and string values below {@code root} in which Flux would substitute
   * something, in document order.
   */
  static List<FieldPath> fields(JsonNode root) {
    List<FieldPath> out = new ArrayList<>();
    collect(root, JsonPointer.empty(), root, out);
    return out;
  }

  private static void collect(
      JsonNode root, JsonPointer pointer, JsonNode node, List<FieldPath> out) {
    if (node.isTextual() && substitutes(node.asText())) {
      out.add(FieldPath.fromPointer(pointer.toString(), p -> root.at(p).isArray()));
    } else if (node.isArray()) {
      for (int i = 0; i < node.size(); i++) {
        collect(root, pointer.appendIndex(i), node.get(i), out);
      }
    } else if (node.isObject()) {
      for (Map.Entry<String, JsonNode> field : node.properties()) {
        JsonPointer child = pointer.appendProperty(field.getKey());
        if (substitutes(field.getKey())) {
          out.add(FieldPath.fromPointer(child.toString(), p -> root.at(p).isArray()));
        } else {
          collect(root, child, field.getValue(), out);
        }
      }
    }
  }
}
