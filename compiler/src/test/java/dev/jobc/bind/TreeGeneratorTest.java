package dev.jobc.bind;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.Base64Variants;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.BinaryNode;
import com.fasterxml.jackson.databind.node.DecimalNode;
import com.fasterxml.jackson.databind.node.NullNode;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * Every value {@link TreeGenerator} takes becomes the node reading the same JSON would give, in
 * objects and arrays alike: the writes that serialising fabric8's model reaches today, and the ones
 * it may reach after an upgrade (numbers of every width, char and byte slices, binary, null).
 */
class TreeGeneratorTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void numbersOfEveryWidthBecomeTheirNodes() throws IOException {
    TreeGenerator g = new TreeGenerator(JSON);
    g.writeStartObject();
    g.writeFieldName("int");
    g.writeNumber(7);
    g.writeFieldName("long");
    g.writeNumber(1L << 40);
    g.writeFieldName("big");
    g.writeNumber(new BigInteger("123456789012345678901234567890"));
    g.writeFieldName("double");
    g.writeNumber(2.5d);
    g.writeFieldName("float");
    g.writeNumber(0.25f);
    g.writeFieldName("decimal");
    g.writeNumber(new BigDecimal("1.50"));
    g.writeFieldName("zero");
    g.writeNumber(new BigDecimal("0.000"));
    g.writeFieldName("encoded");
    g.writeNumber("3.10");
    g.writeEndObject();
    JsonNode tree = g.root();
    assertThat(tree.get("int").intValue()).isEqualTo(7);
    assertThat(tree.get("int").isInt()).isTrue();
    assertThat(tree.get("long").longValue()).isEqualTo(1L << 40);
    assertThat(tree.get("long").isLong()).isTrue();
    assertThat(tree.get("big").bigIntegerValue())
        .isEqualTo(new BigInteger("123456789012345678901234567890"));
    assertThat(tree.get("double").doubleValue()).isEqualTo(2.5d);
    assertThat(tree.get("float").floatValue()).isEqualTo(0.25f);
    assertThat(tree.get("float").isFloat()).isTrue();
    // Without trailing zeros, as JsonNodeFactory.decimalNode reads them.
    assertThat(tree.get("decimal").decimalValue()).isEqualTo(new BigDecimal("1.5"));
    assertThat(tree.get("zero")).isSameAs(DecimalNode.ZERO);
    assertThat(tree.get("encoded").decimalValue()).isEqualTo(new BigDecimal("3.1"));
  }

  @Test
  void nullsWrittenAsValuesAreNullNodes() throws IOException {
    TreeGenerator g = new TreeGenerator(JSON);
    g.writeStartArray();
    g.writeNull();
    g.writeNumber((BigInteger) null);
    g.writeNumber((BigDecimal) null);
    g.writeNumber((String) null);
    g.writeString((String) null);
    g.writeEndArray();
    JsonNode tree = g.root();
    assertThat(tree).hasSize(5);
    tree.forEach(n -> assertThat(n).isSameAs(NullNode.getInstance()));
  }

  @Test
  void stringSlicesBinaryAndBooleansBecomeTheirNodes() throws IOException {
    TreeGenerator g = new TreeGenerator(JSON);
    g.writeStartArray();
    g.writeString("xxhéllo".toCharArray(), 2, 5);
    byte[] utf8 = "--wörld--".getBytes(StandardCharsets.UTF_8);
    g.writeUTF8String(utf8, 2, utf8.length - 4);
    g.writeBinary(Base64Variants.getDefaultVariant(), new byte[] {9, 1, 2, 3, 9}, 1, 3);
    g.writeBoolean(true);
    g.writeEndArray();
    JsonNode tree = g.root();
    assertThat(tree.get(0).textValue()).isEqualTo("héllo");
    assertThat(tree.get(1).textValue()).isEqualTo("wörld");
    assertThat(tree.get(2)).isInstanceOf(BinaryNode.class);
    assertThat(tree.get(2).binaryValue()).containsExactly(1, 2, 3);
    assertThat(tree.get(3).booleanValue()).isTrue();
  }

  @Test
  void rawTextCannotBePartOfATree() {
    TreeGenerator g = new TreeGenerator(JSON);
    assertThatThrownBy(() -> g.writeRaw("x")).isInstanceOf(UnsupportedOperationException.class);
    assertThatThrownBy(() -> g.writeRaw("xyz", 1, 1))
        .isInstanceOf(UnsupportedOperationException.class);
    assertThatThrownBy(() -> g.writeRaw(new char[] {'a'}, 0, 1))
        .isInstanceOf(UnsupportedOperationException.class);
    assertThatThrownBy(() -> g.writeRaw('c')).isInstanceOf(UnsupportedOperationException.class);
    assertThatThrownBy(() -> g.writeRawUTF8String(new byte[] {'a'}, 0, 1))
        .isInstanceOf(UnsupportedOperationException.class);
  }

  @Test
  void aTreeIsThereOnlyOnceItsValueIsComplete() throws IOException {
    TreeGenerator g = new TreeGenerator(JSON);
    assertThatThrownBy(g::root).isInstanceOf(IllegalStateException.class);
    g.writeStartObject();
    assertThatThrownBy(g::root).isInstanceOf(IllegalStateException.class);
    g.writeEndObject();
    assertThat(g.root().isObject()).isTrue();
  }
}
