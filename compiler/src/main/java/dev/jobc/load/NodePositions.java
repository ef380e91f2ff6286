package dev.jobc.load;

import dev.jobc.diag.Position;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * Where the children of one mapping or list start in the source, in the container's own order: for
 * a mapping entry its key's name and position and its value's position, for a list item its
 * position, and for a child that is itself a container, that child's own {@code NodePositions}. The
 * positions of a document form a tree shaped like the document, so no path is ever spelled out per
 * node: a deep document with long keys costs a few words per node, not a copy of its path.
 *
 * <p>A copy made by alias expansion is {@linkplain #uniform uniform}: every node in it is at the
 * alias. Filled by {@link YamlLoader} (one thread), then only read; {@link #indexOf} builds its
 * name index on first use and publishes it through a final-field object, so readers on other
 * threads see it whole.
 */
final class NodePositions {
  /** A position as one {@code long}: line in the high half, column in the low. */
  static long pack(Position p) {
    return p.known() ? ((long) p.line() << 32) | (p.column() & 0xffffffffL) : -1L;
  }

  static Position unpack(long packed) {
    return packed == -1L ? Position.UNKNOWN : new Position((int) (packed >>> 32), (int) packed);
  }

  /** Mappings with at most this many entries are searched without an index. */
  private static final int SCAN = 8;

  private static final String[] NO_NAMES = new String[0];
  private static final long[] NO_POSITIONS = new long[0];
  private static final NodePositions[] NO_INNER = new NodePositions[0];

  /** Entry names; null for a list. */
  private String[] names;

  private long[] keys;
  private long[] values;
  private NodePositions[] inner;
  private int size;

  /** For a uniform copy, where every node in it is; else -1 and unused. */
  private final long uniform;

  private Index index;

  private NodePositions(boolean mapping, long uniform) {
    this.names = mapping ? NO_NAMES : null;
    this.keys = mapping ? NO_POSITIONS : null;
    this.values = NO_POSITIONS;
    this.inner = NO_INNER;
    this.uniform = uniform;
  }

  static NodePositions mapping() {
    return new NodePositions(true, -1L);
  }

  static NodePositions list() {
    return new NodePositions(false, -1L);
  }

  /** The positions of a copy of an anchored node, made at {@code at}: every node is there. */
  static NodePositions uniform(long at) {
    return new NodePositions(false, at);
  }

  boolean isUniform() {
    return uniform != -1L;
  }

  long uniformAt() {
    return uniform;
  }

  int size() {
    return size;
  }

  /** Appends a mapping entry (a list item when {@code name} is null). */
  void add(String name, long keyAt, long valueAt, NodePositions child) {
    if (size == values.length) {
      int capacity = Math.max(4, size * 2);
      values = Arrays.copyOf(values, capacity);
      inner = Arrays.copyOf(inner, capacity);
      if (names != null) {
        names = Arrays.copyOf(names, capacity);
        keys = Arrays.copyOf(keys, capacity);
      }
    }
    if (names != null) {
      names[size] = name;
      keys[size] = keyAt;
    }
    values[size] = valueAt;
    inner[size] = child;
    size++;
  }

  /** Drops the spare room left by growing, once the container is complete. */
  void trim() {
    if (size < values.length) {
      values = Arrays.copyOf(values, size);
      inner = Arrays.copyOf(inner, size);
      if (names != null) {
        names = Arrays.copyOf(names, size);
        keys = Arrays.copyOf(keys, size);
      }
    }
  }

  String name(int i) {
    return names[i];
  }

  /** The key position of entry {@code i}; -1 for a list item. */
  long keyAt(int i) {
    return isUniform() ? uniform : names == null ? -1L : keys[i];
  }

  long valueAt(int i) {
    return isUniform() ? uniform : values[i];
  }

  /** The positions of child {@code i} when it is a container, else null. */
  NodePositions inner(int i) {
    return isUniform() ? this : inner[i];
  }

  boolean isMapping() {
    return names != null;
  }

  /** The entry called {@code name}, or -1. */
  int indexOf(String name) {
    if (names == null) {
      return -1;
    }
    if (size <= SCAN) {
      for (int i = 0; i < size; i++) {
        if (names[i].equals(name)) {
          return i;
        }
      }
      return -1;
    }
    Index built = index;
    if (built == null) {
      Map<String, Integer> map = new HashMap<>(size * 2);
      for (int i = size - 1; i >= 0; i--) {
        map.put(names[i], i);
      }
      built = new Index(map);
      index = built;
    }
    Integer i = built.map.get(name);
    return i == null ? -1 : i;
  }

  /** A name index, published through its final field. */
  private static final class Index {
    final Map<String, Integer> map;

    Index(Map<String, Integer> map) {
      this.map = map;
    }
  }
}
