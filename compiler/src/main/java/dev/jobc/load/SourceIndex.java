package dev.jobc.load;

import dev.jobc.diag.FieldPath;
import dev.jobc.diag.Position;

/**
 * Where each node of a document starts: a tree of {@link NodePositions} shaped like the document,
 * built by {@link YamlLoader} in the same streaming pass that builds the tree, and looked up by
 * {@link FieldPath} one segment at a time (no path is ever spelled out, so the index costs a few
 * words per node whatever the keys and the nesting). Immutable once built.
 *
 * <p>For a mapping entry the index keeps both the key's position (where "unknown field" and "this
 * field" messages point) and the value's position (where "invalid value" messages point).
 */
public final class SourceIndex {
  private final Position documentStart;

  /** The root container's positions; null when the root is a scalar. */
  private final NodePositions root;

  SourceIndex(Position documentStart, NodePositions root) {
    this.documentStart = documentStart;
    this.root = root;
  }

  /** An index that knows only where its document starts. */
  public static SourceIndex startingAt(Position documentStart) {
    return new SourceIndex(documentStart, null);
  }

  public Position documentStart() {
    return documentStart;
  }

  /** True when the document has a node at this path. */
  public boolean has(FieldPath path) {
    return find(path).complete;
  }

  /**
   * The position to report a message about {@code path}: the key of the field when it exists, else
   * (for missing required fields) the key of its deepest existing ancestor, else the document
   * start.
   */
  public Position at(FieldPath path) {
    Found f = find(path);
    return NodePositions.unpack(f.keyAt != -1L ? f.keyAt : f.valueAt);
  }

  /** The position of the value at {@code path}, else as {@link #at(FieldPath)}. */
  public Position valueAt(FieldPath path) {
    Found f = find(path);
    return NodePositions.unpack(f.complete || f.keyAt == -1L ? f.valueAt : f.keyAt);
  }

  /** The deepest node of {@code path} that exists, and whether that is all of it. */
  private Found find(FieldPath path) {
    long keyAt = -1L;
    long valueAt = NodePositions.pack(documentStart);
    NodePositions at = root;
    for (FieldPath.Segment s : path.segments()) {
      if (at == null) {
        return new Found(keyAt, valueAt, false);
      }
      if (at.isUniform()) {
        // A copy made by an alias: all of it is at the alias.
        keyAt = at.uniformAt();
        valueAt = at.uniformAt();
        continue;
      }
      int i = childIndex(at, s);
      if (i < 0) {
        return new Found(keyAt, valueAt, false);
      }
      keyAt = at.keyAt(i);
      valueAt = at.valueAt(i);
      at = at.inner(i);
    }
    return new Found(keyAt, valueAt, true);
  }

  /**
   * The child a segment names, or -1. As with JSON pointers, a list index names the mapping entry
   * of that name, and an all-digit name the list item of that index.
   */
  private static int childIndex(NodePositions at, FieldPath.Segment s) {
    String name;
    if (s instanceof FieldPath.Index index) {
      if (!at.isMapping()) {
        return index.index() < at.size() ? index.index() : -1;
      }
      name = Integer.toString(index.index());
    } else {
      name = s instanceof FieldPath.Field f ? f.name() : ((FieldPath.Key) s).key();
      if (!at.isMapping()) {
        return listIndex(name, at.size());
      }
    }
    return at.indexOf(name);
  }

  private static int listIndex(String name, int size) {
    if (name.isEmpty() || name.length() > 9 || (name.length() > 1 && name.charAt(0) == '0')) {
      return -1;
    }
    for (int i = 0; i < name.length(); i++) {
      if (name.charAt(i) < '0' || name.charAt(i) > '9') {
        return -1;
      }
    }
    int i = Integer.parseInt(name);
    return i < size ? i : -1;
  }

  /** What {@link #find} found: the key and value positions of the deepest node reached. */
  private record Found(long keyAt, long valueAt, boolean complete) {}
}
