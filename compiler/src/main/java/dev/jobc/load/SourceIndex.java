package dev.jobc.load;

import dev.jobc.diag.FieldPath;
import dev.jobc.diag.Position;
import java.util.Map;

/**
 * Where each node of a document starts, keyed by RFC 6901 JSON pointer. Built by {@link YamlLoader}
 * in the same streaming pass that builds the tree; immutable.
 *
 * <p>For a mapping entry the index keeps both the key's position (where "unknown field" and "this
 * field" messages point) and the value's position (where "invalid value" messages point).
 */
public final class SourceIndex {
  private final Position documentStart;
  private final Map<String, Position> keys;
  private final Map<String, Position> values;

  /**
   * @param documentStart where the document's root node starts
   * @param keys pointer of a mapping entry → position of its key
   * @param values pointer of any node → position of the node itself
   */
  public SourceIndex(
      Position documentStart, Map<String, Position> keys, Map<String, Position> values) {
    this.documentStart = documentStart;
    this.keys = Map.copyOf(keys);
    this.values = Map.copyOf(values);
  }

  /**
   * The index of the loader's maps, taken over without a copy (a document's index is built once per
   * load): they must not change afterwards.
   */
  SourceIndex(Position documentStart, PositionMaps index) {
    this.documentStart = documentStart;
    this.keys = index.keys;
    this.values = index.values;
  }

  public Position documentStart() {
    return documentStart;
  }

  /** True when the document has a node at this path. */
  public boolean has(FieldPath path) {
    return values.containsKey(path.toPointer());
  }

  /**
   * The position to report a message about {@code path}: the key of the field when it exists, else
   * (for missing required fields) the key of its deepest existing ancestor, else the document
   * start.
   */
  public Position at(FieldPath path) {
    for (FieldPath p = path; ; p = p.parent()) {
      String pointer = p.toPointer();
      Position key = keys.get(pointer);
      if (key != null) {
        return key;
      }
      Position value = values.get(pointer);
      if (value != null) {
        return value;
      }
      if (p.isRoot()) {
        return documentStart;
      }
    }
  }

  /** The position of the value at {@code path}, else as {@link #at(FieldPath)}. */
  public Position valueAt(FieldPath path) {
    Position value = values.get(path.toPointer());
    return value != null ? value : at(path);
  }
}
