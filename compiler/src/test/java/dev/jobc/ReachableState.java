package dev.jobc;

import com.fasterxml.jackson.databind.JsonNode;
import java.lang.reflect.Array;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Collection;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Everything reachable from an object, written out as text: two texts are equal exactly when the
 * two graphs hold equal values. Reflective, so it needs no list of what a plan holds: records and
 * classes by their instance fields (a kind's plan, its model, fabric8 objects and their additional
 * properties), collections, maps and arrays by their elements, JDK values by {@code toString}.
 */
final class ReachableState {
  private final Map<Object, Integer> seen = new IdentityHashMap<>();
  private StringBuilder out = new StringBuilder();

  private ReachableState() {}

  static String of(Object root) {
    ReachableState state = new ReachableState();
    state.write(root);
    return state.out.toString();
  }

  /** The text of one value on its own, for sorting; objects seen before stay references. */
  private String text(Object value) {
    StringBuilder outer = out;
    out = new StringBuilder();
    write(value);
    String text = out.toString();
    out = outer;
    return text;
  }

  private void write(Object value) {
    if (value == null) {
      out.append("null");
      return;
    }
    Class<?> type = value.getClass();
    if (value instanceof CharSequence) {
      out.append('"').append(value).append('"');
      return;
    }
    if (value instanceof Number
        || value instanceof Boolean
        || value instanceof Character
        || value instanceof Enum<?>
        || value instanceof Class<?>
        || value instanceof JsonNode) {
      out.append(value);
      return;
    }
    // A lambda's captured values are code, not state a step could change.
    if (type.isSynthetic() || type.isHidden()) {
      out.append("<code>");
      return;
    }
    Integer earlier = seen.putIfAbsent(value, seen.size());
    if (earlier != null) {
      out.append("<ref ").append(earlier).append('>');
      return;
    }
    if (value instanceof Optional<?> optional) {
      out.append("Optional(");
      write(optional.orElse(null));
      out.append(')');
    } else if (value instanceof Map<?, ?> map) {
      List<String> entries = new ArrayList<>();
      map.forEach((k, v) -> entries.add(text(k) + "=" + text(v)));
      entries.sort(null); // whatever the map's order, the same entries give the same text
      out.append('{').append(String.join(", ", entries)).append('}');
    } else if (value instanceof Collection<?> items) {
      List<String> texts = new ArrayList<>();
      items.forEach(item -> texts.add(text(item)));
      if (value instanceof Set<?>) {
        texts.sort(null);
      }
      out.append('[').append(String.join(", ", texts)).append(']');
    } else if (type.isArray()) {
      out.append('[');
      for (int i = 0; i < Array.getLength(value); i++) {
        out.append(i == 0 ? "" : ", ");
        write(Array.get(value, i));
      }
      out.append(']');
    } else if (type.getName().startsWith("java.")) {
      out.append(type.getName()).append('(').append(value).append(')');
    } else {
      out.append(type.getName()).append('{');
      for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
        for (Field field : c.getDeclaredFields()) {
          if (Modifier.isStatic(field.getModifiers()) || field.isSynthetic()) {
            continue;
          }
          field.setAccessible(true);
          out.append(field.getName()).append('=');
          try {
            write(field.get(value));
          } catch (IllegalAccessException e) {
            throw new AssertionError(e);
          }
          out.append("; ");
        }
      }
      out.append('}');
    }
  }
}
