package dev.jobc.diag;

import com.fasterxml.jackson.core.JsonPointer;
import java.util.List;
import java.util.Set;

/**
 * A path to a field, printed the way Kubernetes' {@code field.Path} prints it: fields joined by
 * dots, map keys and list indices in brackets ({@code spec.mpiReplicaSpecs[Launcher].replicas},
 * {@code spec.template.spec.containers[0].image}). Immutable.
 *
 * <p>It converts to and from RFC 6901 JSON pointers, which is how the loader indexes positions and
 * how JSON Schema reports instance locations. Whether a pointer segment is a field or a map key
 * depends on the schema; {@link #MAP_FIELDS} lists the map-valued fields of every accepted kind.
 */
public final class FieldPath {

  /** Fields whose values are maps with user-chosen keys, printed as {@code field[key]}. */
  public static final Set<String> MAP_FIELDS =
      Set.of(
          "mpiReplicaSpecs",
          "dglReplicaSpecs",
          "tfReplicaSpecs",
          "pytorchReplicaSpecs",
          "xgbReplicaSpecs",
          "jaxReplicaSpecs",
          "paddleReplicaSpecs",
          "labels",
          "annotations",
          "limits",
          "requests",
          "nodeSelector",
          "matchLabels",
          "minResources",
          "overhead",
          "data",
          "binaryData",
          "stringData",
          "volumeAttributes",
          "parameters");

  /** One step of a path. */
  public sealed interface Segment permits Field, Key, Index {}

  public record Field(String name) implements Segment {}

  public record Key(String key) implements Segment {}

  public record Index(int index) implements Segment {}

  private static final FieldPath ROOT = new FieldPath(null, null);

  /**
   * The path without its last segment (null for the root) and that segment: a step costs one small
   * object, not a copy of the path (the loader makes a path for every node it reads).
   */
  private final FieldPath parent;

  private final Segment last;
  private final int size;

  /** {@link #segments()}, made when first asked for. */
  private List<Segment> segments;

  private FieldPath(FieldPath parent, Segment last) {
    this.parent = parent;
    this.last = last;
    this.size = parent == null ? 0 : parent.size + 1;
  }

  /** The empty path: the document as a whole. */
  public static FieldPath root() {
    return ROOT;
  }

  /** {@code of("spec", "slotsPerWorker")}: a path of plain fields. */
  public static FieldPath of(String... fields) {
    FieldPath p = ROOT;
    for (String f : fields) {
      p = p.child(f);
    }
    return p;
  }

  public FieldPath child(String field) {
    return append(new Field(field));
  }

  public FieldPath key(String key) {
    return append(new Key(key));
  }

  public FieldPath index(int index) {
    return append(new Index(index));
  }

  private FieldPath append(Segment s) {
    return new FieldPath(this, s);
  }

  public List<Segment> segments() {
    List<Segment> list = segments;
    if (list == null) {
      Segment[] array = new Segment[size];
      for (FieldPath p = this; p.size > 0; p = p.parent) {
        array[p.size - 1] = p.last;
      }
      // An immutable list (final fields): safe to publish through this racy cache.
      list = List.of(array);
      segments = list;
    }
    return list;
  }

  /** The last segment, or null for the root. */
  public Segment last() {
    return last;
  }

  public boolean isRoot() {
    return size == 0;
  }

  /** The path without its last segment; the root's parent is the root. */
  public FieldPath parent() {
    return size == 0 ? this : parent;
  }

  /**
   * Reads an RFC 6901 pointer ({@code /spec/mpiReplicaSpecs/Launcher/replicas}). Numeric segments
   * below a list are indices; segments directly below a {@link #MAP_FIELDS} field are keys.
   *
   * @param isArray tells, for a pointer prefix, whether the node there is a list (the caller knows
   *     the document); pass {@code null} to treat every all-digit segment as an index
   */
  public static FieldPath fromPointer(
      String pointer, java.util.function.Predicate<String> isArray) {
    if (pointer.isEmpty() || pointer.equals("/")) {
      return ROOT;
    }
    if (pointer.charAt(0) != '/') {
      throw new IllegalArgumentException("not a JSON pointer: " + pointer);
    }
    FieldPath p = ROOT;
    String previous = null;
    for (JsonPointer rest = JsonPointer.compile(pointer); !rest.matches(); rest = rest.tail()) {
      String seg = rest.getMatchingProperty();
      // The pointer up to this segment, still escaped: what precedes the rest.
      String prefix = pointer.substring(0, pointer.length() - rest.toString().length());
      boolean parentIsArray = isArray != null ? isArray.test(prefix) : seg.matches("\\d+");
      if (parentIsArray && seg.matches("\\d+")) {
        p = p.index(Integer.parseInt(seg));
      } else if (previous != null && MAP_FIELDS.contains(previous)) {
        p = p.key(seg);
      } else {
        p = p.child(seg);
      }
      previous = p.last instanceof Field f ? f.name() : null;
    }
    return p;
  }

  /** The RFC 6901 pointer of this path ({@code /spec/mpiReplicaSpecs/Launcher}). */
  public String toPointer() {
    JsonPointer pointer = JsonPointer.empty();
    for (Segment s : segments()) {
      if (s instanceof Field f) {
        pointer = pointer.appendProperty(f.name());
      } else if (s instanceof Key k) {
        pointer = pointer.appendProperty(k.key());
      } else {
        pointer = pointer.appendIndex(((Index) s).index());
      }
    }
    return pointer.toString();
  }

  /** Upstream spelling: {@code spec.mpiReplicaSpecs[Launcher].template.spec.containers[0]}. */
  @Override
  public String toString() {
    StringBuilder out = new StringBuilder();
    for (Segment s : segments()) {
      if (s instanceof Field f) {
        if (out.length() > 0) {
          out.append('.');
        }
        out.append(f.name());
      } else if (s instanceof Key k) {
        out.append('[').append(k.key()).append(']');
      } else {
        out.append('[').append(((Index) s).index()).append(']');
      }
    }
    return out.toString();
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof FieldPath other) || other.size != size) {
      return false;
    }
    for (FieldPath a = this, b = other; a != b; a = a.parent, b = b.parent) {
      if (!a.last.equals(b.last)) {
        return false;
      }
    }
    return true;
  }

  /** {@code segments().hashCode()}, as {@link List#hashCode} defines it. */
  @Override
  public int hashCode() {
    return size == 0 ? 1 : 31 * parent.hashCode() + last.hashCode();
  }
}
