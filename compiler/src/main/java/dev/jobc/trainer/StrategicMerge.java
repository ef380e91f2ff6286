package dev.jobc.trainer;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Map;

/**
 * The strategic merge patch the Trainer applies a {@code runtimePatches} entry with ({@code
 * trainingruntime.go mergeRuntimePatches}, k8s.io/apimachinery {@code strategicpatch}): objects
 * merge field by field, lists with a patch merge key (the Kubernetes types' {@code patchMergeKey}s,
 * and JobSet's {@code replicatedJobs} by name) merge item by item, an unmatched item appended;
 * other lists and scalars are replaced.
 */
final class StrategicMerge {
  /** List field → its merge key, as the Go types declare them. */
  private static final Map<String, String> MERGE_KEYS =
      Map.of(
          "replicatedJobs", "name",
          "containers", "name",
          "initContainers", "name",
          "env", "name",
          "volumes", "name",
          "volumeMounts", "mountPath",
          "imagePullSecrets", "name",
          "schedulingGates", "name",
          "ports", "containerPort");

  private StrategicMerge() {}

  /** Merges {@code patch} into {@code target} (the planner's own copy). */
  static void merge(ObjectNode target, JsonNode patch) {
    for (var e : patch.properties()) {
      String field = e.getKey();
      JsonNode value = e.getValue();
      JsonNode current = target.get(field);
      if (value.isNull()) {
        target.remove(field); // a null in a merge patch deletes the field
      } else if (value.isObject() && current != null && current.isObject()) {
        merge((ObjectNode) current, value);
      } else if (value.isArray()
          && current != null
          && current.isArray()
          && MERGE_KEYS.containsKey(field)) {
        mergeList((ArrayNode) current, (ArrayNode) value, MERGE_KEYS.get(field));
      } else {
        target.set(field, value.deepCopy());
      }
    }
  }

  private static void mergeList(ArrayNode target, ArrayNode patch, String key) {
    for (JsonNode item : patch) {
      ObjectNode match = null;
      for (JsonNode t : target) {
        if (t.isObject() && t.path(key).equals(item.path(key))) {
          match = (ObjectNode) t;
          break;
        }
      }
      if (match != null && item.isObject()) {
        merge(match, item);
      } else {
        target.add(item.deepCopy());
      }
    }
  }
}
