package dev.jobc.render;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link YamlStream} writes what {@link YamlWriter} writes for the tree its calls describe: random
 * trees (empty and nested mappings and lists, long keys, multi-line and numeric strings, numbers,
 * booleans, nulls) are written both ways and compared.
 */
class YamlStreamTest {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final String[] STRINGS = {
    "",
    "plain",
    "mpi-worker",
    "2",
    "true",
    "a: b",
    "- x",
    "line\nline",
    "ends\n",
    "ends twice\n\n",
    " leading",
    "#!/bin/sh\necho \"$1\"\n",
    "x".repeat(300),
    "-e" + "e".repeat(300)
  };

  @Test
  void randomTreesAreWrittenAsTheTreeWriterWritesThem() {
    YamlWriter writer = new YamlWriter();
    Random random = new Random(1402);
    int streamed = 0;
    for (int n = 0; n < 5000; n++) {
      ObjectNode tree = mapping(random, 0);
      YamlStream stream = new YamlStream();
      for (Map.Entry<String, JsonNode> e : YamlStream.sorted(fields(tree))) {
        stream.key(e.getKey());
        write(e.getValue(), stream);
      }
      String direct = stream.finish();
      String expected = writer.write(tree, true);
      if (direct == null) {
        // Only a last string ending in two line breaks is left to the tree writer.
        assertThat(expected).as(expected).endsWith("\"\n");
      } else {
        assertThat(direct).as(tree.toString()).isEqualTo(expected);
        streamed++;
      }
    }
    assertThat(streamed).isGreaterThan(4500);
  }

  private static void write(JsonNode value, YamlStream stream) {
    if (value.isObject()) {
      stream.startMapping();
      for (Map.Entry<String, JsonNode> e : YamlStream.sorted(fields(value))) {
        stream.key(e.getKey());
        write(e.getValue(), stream);
      }
      stream.endMapping();
    } else if (value.isArray()) {
      stream.startList();
      for (JsonNode item : value) {
        stream.item();
        write(item, stream);
      }
      stream.endList();
    } else if (value.isTextual()) {
      stream.string(value.textValue());
    } else if (value.isBoolean()) {
      stream.bool(value.booleanValue());
    } else if (value.isNull()) {
      stream.nullValue();
    } else {
      stream.number(value.longValue());
    }
  }

  private static Map<String, JsonNode> fields(JsonNode node) {
    Map<String, JsonNode> fields = new LinkedHashMap<>();
    node.properties().forEach(e -> fields.put(e.getKey(), e.getValue()));
    return fields;
  }

  private static ObjectNode mapping(Random random, int depth) {
    ObjectNode node = NODES.objectNode();
    int size = depth > 3 ? random.nextInt(2) : random.nextInt(5);
    for (int i = 0; i < size; i++) {
      String key =
          switch (random.nextInt(6)) {
            case 0 -> "name";
            case 1 -> "apiVersion";
            case 2 -> "k" + random.nextInt(20);
            case 3 -> "key with: colon";
            case 4 -> "y".repeat(1001 + random.nextInt(3)); // the explicit "? " form
            default -> "labels";
          };
      node.set(key, value(random, depth + 1));
    }
    return node;
  }

  private static JsonNode value(Random random, int depth) {
    switch (random.nextInt(depth > 3 ? 4 : 7)) {
      case 0:
        return NODES.textNode(STRINGS[random.nextInt(STRINGS.length)]);
      case 1:
        return NODES.numberNode(random.nextInt(2000) - 1000);
      case 2:
        return random.nextInt(4) == 0 ? NODES.nullNode() : NODES.booleanNode(random.nextBoolean());
      case 3:
        return NODES.textNode("value " + random.nextInt(100));
      case 4:
      case 5:
        return mapping(random, depth);
      default:
        ArrayNode list = NODES.arrayNode();
        int size = random.nextInt(4);
        for (int i = 0; i < size; i++) {
          list.add(value(random, depth + 1));
        }
        return list;
    }
  }
}
