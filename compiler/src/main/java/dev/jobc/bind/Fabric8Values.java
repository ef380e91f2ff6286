package dev.jobc.bind;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.LongNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Quantity;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * The values the generated {@link Fabric8Codecs} reads and writes, each exactly as jobc's Jackson
 * mapper reads and writes it. A tree the code does not take exactly as Jackson would (a value of
 * another type, a null, a field it has no case for) throws {@link #MISMATCH}, and the caller binds
 * the whole tree with Jackson instead.
 */
final class Fabric8Values {
  /** Thrown, without a stack, where Jackson must decide: see the class comment. */
  static final RuntimeException MISMATCH = new Mismatch();

  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private Fabric8Values() {}

  static final class Mismatch extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Mismatch() {
      super("left to Jackson", null, false, false);
    }
  }

  // ---- trees ----

  static boolean plain(Map<String, Object> additionalProperties) {
    return additionalProperties == null || additionalProperties.isEmpty();
  }

  /** Jackson's tree of a value the generated code does not cover. */
  static JsonNode jackson(Object value) {
    return ObjectTrees.jacksonTree(value);
  }

  static ObjectNode object() {
    return NODES.objectNode();
  }

  static JsonNode text(String value) {
    return value == null ? NODES.nullNode() : TextNode.valueOf(value);
  }

  static JsonNode number(int value) {
    return IntNode.valueOf(value);
  }

  static JsonNode number(long value) {
    return LongNode.valueOf(value);
  }

  static JsonNode bool(Boolean value) {
    return value == null ? NODES.nullNode() : BooleanNode.valueOf(value);
  }

  /** As fabric8's {@code Quantity.Serializer}: amount and format run together. */
  static JsonNode quantity(Quantity value) {
    if (value == null) {
      return NODES.nullNode();
    }
    if (!plain(value.getAdditionalProperties())) {
      return jackson(value);
    }
    String amount = value.getAmount();
    String format = value.getFormat();
    return TextNode.valueOf((amount == null ? "" : amount) + (format == null ? "" : format));
  }

  /** As fabric8's {@code AnyType.Serializer}: the value itself. */
  static JsonNode intOrString(IntOrString value) {
    if (value == null) {
      return NODES.nullNode();
    }
    Object v = value.getValue();
    if (v instanceof Integer i && value.getClass() == IntOrString.class) {
      return IntNode.valueOf(i);
    }
    if (v instanceof String s && value.getClass() == IntOrString.class) {
      return TextNode.valueOf(s);
    }
    return jackson(value);
  }

  static <E> JsonNode array(List<E> values, Function<E, JsonNode> item) {
    ArrayNode array = NODES.arrayNode(values.size());
    for (E e : values) {
      // Jackson writes null list items as nulls.
      array.add(e == null ? NODES.nullNode() : item.apply(e));
    }
    return array;
  }

  /** Whether a map holds a null value (immutable maps refuse {@code containsValue(null)}). */
  static boolean holdsNull(Map<String, ?> map) {
    for (Object value : map.values()) {
      if (value == null) {
        return true;
      }
    }
    return false;
  }

  /** Callers have checked that no value is null (Jackson's content rule leaves those out). */
  static <E> JsonNode object(Map<String, E> values, Function<E, JsonNode> item) {
    ObjectNode object = NODES.objectNode();
    for (Map.Entry<String, E> e : values.entrySet()) {
      object.set(e.getKey(), item.apply(e.getValue()));
    }
    return object;
  }

  // ---- binding ----

  static Set<Map.Entry<String, JsonNode>> fields(JsonNode tree) {
    if (tree instanceof ObjectNode object) {
      return object.properties();
    }
    throw MISMATCH;
  }

  static String string(JsonNode tree) {
    if (tree.isTextual()) {
      return tree.textValue();
    }
    throw MISMATCH;
  }

  static Integer integer(JsonNode tree) {
    if (tree.isIntegralNumber() && tree.canConvertToInt()) {
      return tree.intValue();
    }
    throw MISMATCH;
  }

  static Long longValue(JsonNode tree) {
    if (tree.isIntegralNumber() && tree.canConvertToLong()) {
      return tree.longValue();
    }
    throw MISMATCH;
  }

  static Boolean bool(JsonNode tree) {
    if (tree.isBoolean()) {
      return tree.booleanValue();
    }
    throw MISMATCH;
  }

  /**
   * As fabric8's {@code Quantity.Deserializer} reads a string or a whole number: its text, amount
   * and format parsed. (A fraction reaches that deserializer as a double, whose text may differ
   * from the input's, so fractions are left to it.)
   */
  static Quantity quantity(JsonNode tree) {
    if (tree.isTextual()) {
      return new Quantity(tree.textValue());
    }
    if (tree.isIntegralNumber()) {
      return new Quantity(tree.asText());
    }
    throw MISMATCH;
  }

  /** As fabric8's {@code IntOrString} creator: an int or a string. */
  static IntOrString intOrString(JsonNode tree) {
    if (tree.isTextual()) {
      return new IntOrString(tree.textValue());
    }
    if (tree.isInt()) {
      return new IntOrString(tree.intValue());
    }
    throw MISMATCH;
  }

  static <E> List<E> list(JsonNode tree, Function<JsonNode, E> item) {
    if (!tree.isArray()) {
      throw MISMATCH;
    }
    List<E> list = new ArrayList<>(tree.size());
    for (JsonNode e : tree) {
      list.add(item.apply(e)); // a null item is not a value of any item type: MISMATCH
    }
    return list;
  }

  static <E> Map<String, E> map(JsonNode tree, Function<JsonNode, E> item) {
    Map<String, E> map = new LinkedHashMap<>();
    for (Map.Entry<String, JsonNode> e : fields(tree)) {
      map.put(e.getKey(), item.apply(e.getValue()));
    }
    return map;
  }
}
