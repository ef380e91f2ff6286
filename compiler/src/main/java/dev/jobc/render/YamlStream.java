package dev.jobc.render;

import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Quantity;
import java.util.Arrays;
import java.util.Map;

/**
 * Writes one YAML document from calls in document order, byte for byte as {@link YamlWriter} writes
 * the tree those calls describe in canonical order: the generated {@link Fabric8Yaml} writes
 * fabric8 objects through it without making a tree first. The caller gives keys in canonical order;
 * map keys come sorted from {@link #sorted}.
 *
 * <p>A value {@link YamlWriter} would write otherwise than this stream can know while writing (the
 * only one: a string ending in two line breaks at the very end of the document, which the tree
 * writer double-quotes) makes {@link #finish} return null, as does {@link #MISMATCH}, thrown where
 * a value is not one the generated code takes exactly as Jackson writes it: the caller then writes
 * the object's tree.
 */
final class YamlStream {
  /** Thrown, without a stack, where the tree must decide: see the class comment. */
  static final RuntimeException MISMATCH = new Mismatch();

  static final class Mismatch extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Mismatch() {
      super("left to the tree writer", null, false, false);
    }
  }

  /**
   * Each thread's buffer, kept between documents: a generated object's document is 1 to 10 KB, and
   * a fresh buffer per document was zeroed and then grown by copying. Not kept past 64 KB.
   */
  private static final ThreadLocal<StringBuilder> BUFFERS =
      ThreadLocal.withInitial(() -> new StringBuilder(16384));

  private static final int MAX_KEPT = 65536;

  private final StringBuilder out;
  private final YamlWriter.Emitter emitter;

  // The open mappings and lists, innermost last, as YamlWriter's recursion would hold them.
  private int depth;
  private boolean[] list = new boolean[16];
  private int[] indent = new int[16];
  private boolean[] firstWritten = new boolean[16];
  private int[] count = new int[16];
  private int[] mark = new int[16]; // where " {}" or " []" goes when nothing was written
  private boolean[] explicitKey = new boolean[16];

  /** Where a string ending in "\n\n" ended, or -1; see the class comment. */
  private int lastDoubleBreakEnd = -1;

  YamlStream() {
    StringBuilder buffer = BUFFERS.get();
    buffer.setLength(0);
    out = buffer;
    emitter = new YamlWriter.Emitter(out, true);
    push(false, 0, false, 0);
  }

  /** The document, or null when the tree writer must write it (see the class comment). */
  String finish() {
    if (depth != 1) {
      throw new IllegalStateException("unclosed mapping or list");
    }
    if (count[0] == 0) {
      out.append("{}\n");
    }
    String document = lastDoubleBreakEnd == out.length() ? null : out.toString();
    if (out.capacity() > MAX_KEPT) {
      BUFFERS.remove(); // one huge document (10,000 workers) need not stay in memory
    }
    return document;
  }

  // ---- structure ----

  /** The next key of the innermost mapping. */
  void key(String key) {
    int f = depth - 1;
    if (count[f] > 0 || !firstWritten[f]) {
      emitter.pad(indent[f]);
    }
    boolean explicit = emitter.key(key);
    if (explicit) {
      out.append('\n');
      emitter.pad(indent[f]);
    }
    out.append(':');
    count[f]++;
    explicitKey[f] = explicit;
  }

  /**
   * {@link #key}, for a key the caller knows is written plain (a property name of letters and
   * digits that no YAML reader takes for anything but that string; the generated code checks).
   */
  void fieldKey(String key) {
    int f = depth - 1;
    if (count[f] > 0 || !firstWritten[f]) {
      emitter.pad(indent[f]);
    }
    out.append(key).append(':');
    count[f]++;
    explicitKey[f] = false;
  }

  /** The next item of the innermost list. */
  void item() {
    int f = depth - 1;
    if (count[f] > 0 || !firstWritten[f]) {
      emitter.pad(indent[f]);
    }
    out.append('-');
    count[f]++;
  }

  /** A mapping as the value of the last key or item; {@link #endMapping} closes it. */
  void startMapping() {
    int f = depth - 1;
    if (list[f]) {
      int at = out.length();
      out.append(' ');
      push(false, indent[f] + 2, true, at);
    } else {
      int at = out.length();
      out.append('\n');
      push(false, indent[f] + 2, false, at);
    }
  }

  void endMapping() {
    pop(" {}\n");
  }

  /** A list as the value of the last key or item; {@link #endList} closes it. */
  void startList() {
    int f = depth - 1;
    int at = out.length();
    if (list[f]) {
      out.append(' ');
      push(true, indent[f] + 2, true, at);
    } else {
      // kubectl puts list items at the key's column, as YamlWriter does.
      out.append('\n');
      push(true, explicitKey[f] ? indent[f] + 2 : indent[f], false, at);
    }
  }

  void endList() {
    pop(" []\n");
  }

  private void push(boolean isList, int at, boolean first, int markAt) {
    if (depth == list.length) {
      int n = depth * 2;
      list = Arrays.copyOf(list, n);
      indent = Arrays.copyOf(indent, n);
      firstWritten = Arrays.copyOf(firstWritten, n);
      count = Arrays.copyOf(count, n);
      mark = Arrays.copyOf(mark, n);
      explicitKey = Arrays.copyOf(explicitKey, n);
    }
    list[depth] = isList;
    indent[depth] = at;
    firstWritten[depth] = first;
    count[depth] = 0;
    mark[depth] = markAt;
    explicitKey[depth] = false;
    depth++;
  }

  private void pop(String empty) {
    depth--;
    if (count[depth] == 0) {
      // YamlWriter writes an empty mapping or list as a scalar: " {}" or " []".
      out.setLength(mark[depth]);
      out.append(empty);
    }
  }

  // ---- scalars, after a key or an item ----

  void string(String s) {
    out.append(' ');
    emitter.string(s, indent[depth - 1] + 2, false);
    if (s.endsWith("\n\n")) {
      lastDoubleBreakEnd = out.length();
    }
  }

  void number(long value) {
    out.append(' ').append(value).append('\n');
  }

  void bool(Boolean value) {
    out.append(value ? " true\n" : " false\n");
  }

  void nullValue() {
    out.append(" null\n");
  }

  /** As fabric8's {@code Quantity.Serializer}: amount and format run together. */
  void quantity(Quantity value) {
    if (value.getClass() != Quantity.class
        || (value.getAdditionalProperties() != null
            && !value.getAdditionalProperties().isEmpty())) {
      throw MISMATCH;
    }
    String amount = value.getAmount();
    String format = value.getFormat();
    string((amount == null ? "" : amount) + (format == null ? "" : format));
  }

  /** As fabric8's {@code AnyType.Serializer}: the value itself, an int or a string. */
  void intOrString(IntOrString value) {
    if (value.getClass() == IntOrString.class) {
      Object v = value.getValue();
      if (v instanceof Integer i) {
        number(i);
        return;
      }
      if (v instanceof String s) {
        string(s);
        return;
      }
    }
    throw MISMATCH;
  }

  // ---- checks for generated code ----

  static void plain(Map<String, Object> additionalProperties) {
    if (additionalProperties != null && !additionalProperties.isEmpty()) {
      throw MISMATCH;
    }
  }

  static void exactly(Object value, Class<?> type) {
    if (value.getClass() != type) {
      throw MISMATCH; // Jackson writes a subclass by its own properties
    }
  }

  /**
   * A map's entries in canonical key order. A null value (Jackson leaves it out by jobc's content
   * rule) is left to the tree.
   */
  @SuppressWarnings({"unchecked", "rawtypes"}) // generic arrays cannot be created
  static <V> Map.Entry<String, V>[] sorted(Map<String, V> map) {
    Map.Entry<String, V>[] entries = map.entrySet().toArray(new Map.Entry[0]);
    for (Map.Entry<String, V> e : entries) {
      if (e.getValue() == null || e.getKey() == null) {
        throw MISMATCH;
      }
    }
    YamlWriter.sortCanonically(entries);
    return entries;
  }
}
