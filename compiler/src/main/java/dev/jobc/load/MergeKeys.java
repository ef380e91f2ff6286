package dev.jobc.load;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.yaml.snakeyaml.events.ScalarEvent;

/**
 * The merge keys ({@code <<}, YAML 1.1's merge type, which go-yaml v3 still applies) of one
 * mapping: collects their values and merges them into the mapping once it is complete, moving the
 * positions of the merged entries along. SnakeYAML's own merge support lives in its Constructor,
 * which builds Java objects rather than positioned trees, so this is done here.
 */
final class MergeKeys {
  static final String KEY = "<<";

  static final String BAD_VALUE =
      "the value of a merge key \"<<\" must be a mapping or a list of mappings";

  /** One merge value: a mapping, or a list of mappings, with their positions. */
  private record Value(List<ObjectNode> maps, boolean list, NodePositions positions) {
    /** The positions of mapping {@code element} of this value. */
    NodePositions of(int element) {
      return list ? positions.inner(element) : positions;
    }
  }

  /** The merged entry that wins a key: from which value and list element. */
  private record Winner(Value source, int element, JsonNode value) {}

  private final List<Value> values = new ArrayList<>();
  private final int slot;

  /**
   * @param slot how many entries of the mapping precede the merge key: where the merged entries go
   */
  MergeKeys(int slot) {
    this.slot = slot;
  }

  /**
   * go-yaml reads a plain, untagged {@code <<} key as a merge key; quoted or tagged, it is a key.
   */
  static boolean isMergeKey(ScalarEvent key) {
    return key.isPlain() && key.getTag() == null && KEY.equals(key.getValue());
  }

  /**
   * Adds the value of a merge key with its positions ({@code null} for a scalar); false (and
   * nothing added) when it is neither a mapping nor a list of mappings.
   */
  boolean add(JsonNode value, NodePositions positions) {
    if (value instanceof ObjectNode o) {
      values.add(new Value(List.of(o), false, positions));
      return true;
    }
    if (!(value instanceof ArrayNode a)) {
      return false;
    }
    List<ObjectNode> maps = new ArrayList<>(a.size());
    for (JsonNode element : a) {
      if (!(element instanceof ObjectNode o)) {
        return false;
      }
      maps.add(o);
    }
    values.add(new Value(maps, true, positions));
    return true;
  }

  boolean isEmpty() {
    return values.isEmpty();
  }

  /**
   * The mapping {@code own} with the merged entries, as go-yaml merges: keys written in the mapping
   * itself win over merged ones, and among merged mappings the earlier one wins. Merged entries
   * take the place of the {@code <<} entry. {@code into} receives the positions of the result, in
   * its order: {@code ownPositions}' entries, and the winners' from their own mappings.
   */
  ObjectNode apply(ObjectNode own, NodePositions ownPositions, NodePositions into) {
    Map<String, Winner> winners = new LinkedHashMap<>();
    for (Value v : values) {
      for (int i = 0; i < v.maps.size(); i++) {
        for (Map.Entry<String, JsonNode> e : v.maps.get(i).properties()) {
          if (!own.has(e.getKey()) && !winners.containsKey(e.getKey())) {
            winners.put(e.getKey(), new Winner(v, i, e.getValue()));
          }
        }
      }
    }
    ObjectNode merged = JsonNodeFactory.instance.objectNode();
    int i = 0;
    Iterator<Map.Entry<String, JsonNode>> fields = own.properties().iterator();
    while (true) {
      if (i == slot) {
        winners.forEach(
            (k, w) -> {
              merged.set(k, w.value);
              NodePositions from = w.source.of(w.element);
              int at = from.isUniform() ? 0 : from.indexOf(k);
              into.add(k, from.keyAt(at), from.valueAt(at), from.inner(at));
            });
      }
      if (!fields.hasNext()) {
        break;
      }
      Map.Entry<String, JsonNode> e = fields.next();
      merged.set(e.getKey(), e.getValue());
      into.add(e.getKey(), ownPositions.keyAt(i), ownPositions.valueAt(i), ownPositions.inner(i));
      i++;
    }
    into.trim();
    return merged;
  }
}
