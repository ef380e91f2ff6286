package dev.jobc.migrate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jobc.diag.FieldPath;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** The tree steps the migrations share: copies, comparisons and the env entries they write. */
final class Trees {
  static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  /**
   * {@code constants.JobCompletionIndexFieldPath} (kubeflow/trainer v2.3.0): a JobSet pod's index
   * in its Job, which the Trainer's plugins give as the rank.
   */
  static final String COMPLETION_INDEX =
      "metadata.annotations['batch.kubernetes.io/job-completion-index']";

  private Trees() {}

  /**
   * A copy of {@code node} without the fields set to null: the API server stores an explicit null
   * as no field at all, and a runtime's template is the same without them.
   */
  static JsonNode withoutNulls(JsonNode node) {
    if (node.isObject()) {
      ObjectNode out = NODES.objectNode();
      for (Map.Entry<String, JsonNode> e : node.properties()) {
        if (!e.getValue().isNull()) {
          out.set(e.getKey(), withoutNulls(e.getValue()));
        }
      }
      return out;
    }
    if (node.isArray()) {
      ArrayNode out = NODES.arrayNode();
      node.forEach(item -> out.add(withoutNulls(item)));
      return out;
    }
    return node.deepCopy();
  }

  /**
   * Where {@code b} (at {@code at} in its document) first differs from {@code a}: the field or item
   * that differs, or the mapping that lacks a field {@code a} has; null when they are equal.
   */
  static Difference firstDifference(JsonNode a, JsonNode b, FieldPath at) {
    if (a.equals(b)) {
      return null;
    }
    if (a.isObject() && b.isObject()) {
      Set<String> keys = new LinkedHashSet<>();
      b.fieldNames().forEachRemaining(keys::add);
      a.fieldNames().forEachRemaining(keys::add);
      for (String key : keys) {
        if (!b.has(key)) {
          return new Difference(at, key);
        }
        FieldPath child = step(at, key);
        if (!a.has(key)) {
          return new Difference(child, null);
        }
        Difference d = firstDifference(a.get(key), b.get(key), child);
        if (d != null) {
          return d;
        }
      }
    }
    if (a.isArray() && b.isArray()) {
      for (int i = 0; i < Math.min(a.size(), b.size()); i++) {
        Difference d = firstDifference(a.get(i), b.get(i), at.index(i));
        if (d != null) {
          return d;
        }
      }
    }
    return new Difference(at, null);
  }

  /**
   * Where two trees differ: {@code path}, a field of the second's that {@code lacks} the named
   * field of the first's, or ({@code lacks} null) that holds something else.
   */
  record Difference(FieldPath path, String lacks) {}

  /** {@code at} one field further: a key below the fields whose values are free-form maps. */
  static FieldPath step(FieldPath at, String field) {
    return at.last() instanceof FieldPath.Field f && FieldPath.MAP_FIELDS.contains(f.name())
        ? at.key(field)
        : at.child(field);
  }

  /** The node of {@code root} at {@code path}; a missing node when there is none. */
  static JsonNode at(JsonNode root, FieldPath path) {
    JsonNode node = root;
    for (FieldPath.Segment s : path.segments()) {
      if (s instanceof FieldPath.Field f) {
        node = node.path(f.name());
      } else if (s instanceof FieldPath.Key k) {
        node = node.path(k.key());
      } else {
        node = node.path(((FieldPath.Index) s).index());
      }
    }
    return node;
  }

  static ObjectNode env(String name, String value) {
    ObjectNode e = NODES.objectNode();
    e.put("name", name);
    e.put("value", value);
    return e;
  }

  /** A variable holding the pod's completion index, as the Trainer's plugins give ranks. */
  static ObjectNode indexEnv(String name) {
    ObjectNode e = NODES.objectNode();
    e.put("name", name);
    e.putObject("valueFrom").putObject("fieldRef").put("fieldPath", COMPLETION_INDEX);
    return e;
  }

  /**
   * {@code vars} appended to a container's {@code env}, each replacing one of the same name in
   * place, as the Trainer's {@code apply.UpsertEnvVars} does.
   */
  static void upsertEnv(ObjectNode container, List<ObjectNode> vars) {
    if (vars.isEmpty()) {
      return;
    }
    ArrayNode env =
        container.path("env").isArray() ? (ArrayNode) container.get("env") : NODES.arrayNode();
    container.set("env", env);
    for (ObjectNode v : vars) {
      boolean replaced = false;
      for (int i = 0; i < env.size() && !replaced; i++) {
        if (env.get(i).path("name").equals(v.path("name"))) {
          env.set(i, v.deepCopy());
          replaced = true;
        }
      }
      if (!replaced) {
        env.add(v.deepCopy());
      }
    }
  }

  /** The object at {@code field} of {@code parent}, made when it has none. */
  static ObjectNode object(ObjectNode parent, String field) {
    return parent.path(field).isObject() ? (ObjectNode) parent.get(field) : parent.putObject(field);
  }
}
