package dev.jobc.schema;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Lets an assembled schema accept an explicit {@code null} wherever the Kubernetes API server does,
 * so that an editor validating with the published file and jobc agree: an optional field written
 * with no value ({@code securityContext:}) is not set. The API server decodes JSON null into a Go
 * zero value (apimachinery's json decoding, encoding/json semantics) and prunes nulls of
 * non-nullable CRD fields before validation (apiextensions-apiserver, structural pruning).
 *
 * <p>Null stays an error where the API server rejects it too: as a list item (a null container is a
 * container without a name) and for a required field. Definitions become nullable, and a {@code
 * $ref} from a list's {@code items} or a required property gets a sibling {@code type} without
 * {@code null}.
 */
final class NullableFields {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private final Map<String, ArrayNode> definitionTypes = new TreeMap<>();

  private NullableFields() {}

  /** Rewrites {@code schema} (a whole schema with its {@code $defs}) in place. */
  static void apply(ObjectNode schema) {
    NullableFields fields = new NullableFields();
    JsonNode defs = schema.path("$defs");
    defs.properties()
        .forEach(e -> fields.definitionTypes.put(e.getKey(), types((ObjectNode) e.getValue())));
    defs.properties().forEach(e -> allowNull((ObjectNode) e.getValue()));
    fields.visit(schema);
  }

  private void visit(JsonNode node) {
    if (node.isArray()) {
      node.forEach(this::visit);
      return;
    }
    if (!node.isObject()) {
      return;
    }
    ObjectNode object = (ObjectNode) node;
    if (object.path("properties").isObject()) {
      Set<String> required = new HashSet<>();
      object.path("required").forEach(r -> required.add(r.asText()));
      object
          .get("properties")
          .properties()
          .forEach(
              e -> {
                if (required.contains(e.getKey())) {
                  requireNonNull((ObjectNode) e.getValue());
                } else {
                  allowNull((ObjectNode) e.getValue());
                }
              });
    }
    if (object.path("items").isObject()) {
      requireNonNull((ObjectNode) object.get("items"));
    }
    if (object.path("additionalProperties").isObject()) {
      // Map values (labels, resource limits): the API server reads a null value as not set too.
      allowNull((ObjectNode) object.get("additionalProperties"));
    }
    object.properties().forEach(e -> visit(e.getValue()));
  }

  /** Adds null to a schema's type (and enum), or a null branch to its alternatives. */
  private static void allowNull(ObjectNode schema) {
    if (schema.has("$ref") || schema.has("const")) {
      return; // definitions are nullable themselves; a const is what it says
    }
    JsonNode type = schema.get("type");
    if (type != null) {
      Set<String> names = new LinkedHashSet<>();
      if (type.isArray()) {
        type.forEach(t -> names.add(t.asText()));
      } else {
        names.add(type.asText());
      }
      if (names.add("null")) {
        ArrayNode array = schema.putArray("type");
        names.forEach(array::add);
      }
      if (schema.path("enum").isArray()) {
        ArrayNode values = (ArrayNode) schema.get("enum");
        boolean hasNull = false;
        for (JsonNode v : values) {
          hasNull |= v.isNull();
        }
        if (!hasNull) {
          values.addNull();
        }
      }
      return;
    }
    for (String alternatives : new String[] {"anyOf", "oneOf"}) {
      if (schema.path(alternatives).isArray()) {
        ArrayNode branches = (ArrayNode) schema.get(alternatives);
        for (JsonNode branch : branches) {
          if ("null".equals(branch.path("type").asText())) {
            return;
          }
        }
        branches.addObject().put("type", "null");
        return;
      }
    }
  }

  /** A {@code $ref} that must not be null: the definition's own types as a sibling keyword. */
  private void requireNonNull(ObjectNode schema) {
    JsonNode ref = schema.get("$ref");
    if (ref == null || schema.has("type")) {
      return;
    }
    String name = ref.asText().substring(KubernetesSchemaGenerator.REF_PREFIX.length());
    ArrayNode types = definitionTypes.get(name);
    if (types == null || types.isEmpty()) {
      throw new IllegalStateException("no types known for " + ref.asText());
    }
    schema.set("type", types.size() == 1 ? types.get(0) : types.deepCopy());
  }

  /** The types a definition accepts, from its type or its alternatives' types. */
  private static ArrayNode types(ObjectNode def) {
    ArrayNode out = NODES.arrayNode();
    Set<String> names = new LinkedHashSet<>();
    collect(def.get("type"), names);
    for (String alternatives : new String[] {"anyOf", "oneOf"}) {
      def.path(alternatives).forEach(branch -> collect(branch.get("type"), names));
    }
    names.remove("null");
    names.forEach(out::add);
    return out;
  }

  private static void collect(JsonNode type, Set<String> names) {
    if (type == null) {
      return;
    }
    if (type.isArray()) {
      type.forEach(t -> names.add(t.asText()));
    } else {
      names.add(type.asText());
    }
  }
}
