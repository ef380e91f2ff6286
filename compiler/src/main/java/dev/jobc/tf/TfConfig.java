package dev.jobc.tf;

import java.util.List;
import java.util.Map;

/**
 * TF_CONFIG exactly as training-operator v1.9.0 {@code genTFConfigJSONStr} writes it with Go's
 * {@code json.Marshal}: compact, cluster keys sorted (a Go map), struct fields in declaration order
 * ({@code cluster}, {@code task{type,index}}, {@code environment}), strings escaped as Go escapes
 * them. With {@code enableDynamicWorker} the sparse form ({@code SparseTFConfig}): {@code
 * cluster{worker,ps}} and {@code task}, no {@code environment}.
 */
public final class TfConfig {
  private TfConfig() {}

  /**
   * The dense form.
   *
   * @param cluster addresses by lower-case type, in Go's key order (see {@link TfReplicaType})
   */
  public static String dense(Map<String, List<String>> cluster, String type, int index) {
    StringBuilder out = new StringBuilder("{\"cluster\":{");
    boolean first = true;
    for (Map.Entry<String, List<String>> e : cluster.entrySet()) {
      if (!first) {
        out.append(',');
      }
      first = false;
      string(out, e.getKey());
      out.append(':');
      array(out, e.getValue());
    }
    out.append("},");
    task(out, type, index);
    out.append(",\"environment\":\"cloud\"}");
    return out.toString();
  }

  /**
   * The sparse form ({@code convertClusterSpecToSparseClusterSpec}): a ps task lists itself, a
   * worker task itself (by index) and every ps ({@code null} when the job has no PS spec, as Go
   * marshals a nil slice), any other type nothing.
   */
  public static String sparse(Map<String, List<String>> cluster, String type, int index) {
    StringBuilder out = new StringBuilder("{\"cluster\":{\"worker\":{");
    List<String> ps = cluster.get("ps");
    if (type.equals("worker")) {
      string(out, Integer.toString(index));
      out.append(':');
      string(out, cluster.get("worker").get(index));
    }
    out.append("},\"ps\":");
    if (type.equals("ps")) {
      array(out, List.of(ps.get(index)));
    } else if (type.equals("worker")) {
      if (ps == null) {
        out.append("null");
      } else {
        array(out, ps);
      }
    } else {
      out.append("[]");
    }
    out.append("},");
    task(out, type, index);
    out.append('}');
    return out.toString();
  }

  private static void task(StringBuilder out, String type, int index) {
    out.append("\"task\":{\"type\":");
    string(out, type);
    out.append(",\"index\":").append(index).append('}');
  }

  private static void array(StringBuilder out, List<String> values) {
    out.append('[');
    for (int i = 0; i < values.size(); i++) {
      if (i > 0) {
        out.append(',');
      }
      string(out, values.get(i));
    }
    out.append(']');
  }

  /**
   * A JSON string as Go's {@code encoding/json} writes it with HTML escaping on (the default):
   * short escapes for quote, backslash, newline, carriage return, tab, backspace and form feed (Go
   * 1.22 and later), and six-character unicode escapes for other control characters, for the HTML
   * characters less-than, greater-than and ampersand, and for U+2028 and U+2029.
   */
  static void string(StringBuilder out, String s) {
    out.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        case '\b' -> out.append("\\b");
        case '\f' -> out.append("\\f");
        default -> {
          if (c < 0x20 || c == '<' || c == '>' || c == '&' || c == '\u2028' || c == '\u2029') {
            out.append(String.format("\\u%04x", (int) c));
          } else {
            out.append(c);
          }
        }
      }
    }
    out.append('"');
  }
}
