package dev.jobc.bind;

import com.fasterxml.jackson.databind.JsonNode;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Binds trees to jobc's own records (the job documents: {@code MpiJob}, its spec, replica specs,
 * run policies) the way jobc's Jackson mapper binds them: a field per component by name, absent and
 * null fields as null, unknown fields ignored. Fabric8 values inside go to {@link Fabric8Codecs}.
 * What it does not take exactly as Jackson would throws {@link Fabric8Values#MISMATCH}, and the
 * caller binds with Jackson.
 *
 * <p>Why not Jackson: introspecting the records and building their deserializers is most of a fresh
 * JVM's cost of binding a job; reading the record components takes a small fraction.
 */
final class RecordBinding {
  /** A record's components and canonical constructor, read once per class. */
  private record Shape(Map<String, Integer> index, Type[] types, Constructor<?> constructor) {}

  private static final ClassValue<Shape> SHAPES =
      new ClassValue<>() {
        @Override
        protected Shape computeValue(Class<?> type) {
          RecordComponent[] components = type.getRecordComponents();
          Map<String, Integer> index = new HashMap<>();
          Type[] types = new Type[components.length];
          Class<?>[] raw = new Class<?>[components.length];
          for (int i = 0; i < components.length; i++) {
            index.put(components[i].getName(), i);
            types[i] = components[i].getGenericType();
            raw[i] = components[i].getType();
          }
          try {
            Constructor<?> constructor = type.getDeclaredConstructor(raw);
            constructor.setAccessible(true);
            return new Shape(index, types, constructor);
          } catch (NoSuchMethodException e) {
            throw new IllegalStateException(e);
          }
        }
      };

  private RecordBinding() {}

  static boolean binds(Class<?> type) {
    return type.isRecord() || Fabric8Codecs.CLASSES.contains(type);
  }

  static Object bind(JsonNode tree, Type type) {
    if (tree.isNull()) {
      // Jackson gives null for every reference type jobc's records hold.
      return null;
    }
    if (type instanceof Class<?> c) {
      if (c == String.class) {
        return Fabric8Values.string(tree);
      }
      if (c == Integer.class) {
        return Fabric8Values.integer(tree);
      }
      if (c == Long.class) {
        return Fabric8Values.longValue(tree);
      }
      if (c == Boolean.class) {
        return Fabric8Values.bool(tree);
      }
      if (c.isRecord()) {
        return record(tree, c);
      }
      return Fabric8Codecs.bind(tree, c);
    }
    if (type instanceof ParameterizedType p) {
      Type[] args = p.getActualTypeArguments();
      if (p.getRawType() == List.class) {
        return Fabric8Values.list(tree, e -> item(e, args[0]));
      }
      if (p.getRawType() == Map.class && args[0] == String.class) {
        return Fabric8Values.map(tree, e -> item(e, args[1]));
      }
    }
    throw Fabric8Values.MISMATCH;
  }

  /** A list item or map value: Jackson's content rule refuses nulls there. */
  private static Object item(JsonNode tree, Type type) {
    if (tree.isNull()) {
      throw Fabric8Values.MISMATCH;
    }
    return bind(tree, type);
  }

  private static Object record(JsonNode tree, Class<?> type) {
    Shape shape = SHAPES.get(type);
    Object[] values = new Object[shape.types().length];
    for (Map.Entry<String, JsonNode> field : Fabric8Values.fields(tree)) {
      Integer i = shape.index().get(field.getKey());
      if (i != null) { // unknown fields: ignored, as the mapper is told to
        values[i] = bind(field.getValue(), shape.types()[i]);
      }
    }
    for (int i = 0; i < values.length; i++) {
      if (values[i] == null && shape.types()[i] instanceof Class<?> c && c.isPrimitive()) {
        throw Fabric8Values.MISMATCH; // Jackson's default for a primitive: leave it to Jackson
      }
    }
    try {
      return shape.constructor().newInstance(values);
    } catch (InvocationTargetException e) {
      throw Fabric8Values.MISMATCH; // a compact constructor refused it: Jackson says why
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException(e);
    }
  }
}
