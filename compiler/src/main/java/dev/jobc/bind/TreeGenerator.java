package dev.jobc.bind;

import com.fasterxml.jackson.core.Base64Variant;
import com.fasterxml.jackson.core.ObjectCodec;
import com.fasterxml.jackson.core.base.GeneratorBase;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.BigIntegerNode;
import com.fasterxml.jackson.databind.node.BinaryNode;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.ContainerNode;
import com.fasterxml.jackson.databind.node.DecimalNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.FloatNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.LongNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Deque;

/**
 * A Jackson generator that builds the tree of what is serialised into it, node for node as {@code
 * ObjectMapper.valueToTree} gives it, but without writing tokens to a buffer and reading them back
 * (which was a third of the time spent turning generated objects into trees). Single use; not
 * thread-safe.
 */
final class TreeGenerator extends GeneratorBase {
  private final JsonNodeFactory nodes = JsonNodeFactory.instance;
  private final Deque<ContainerNode<?>> open = new ArrayDeque<>();
  private String field;
  private JsonNode root;

  // The constructor without an IOContext is deprecated for generators that write bytes; this one
  // writes none, and Jackson's own TokenBuffer does without one too.
  @SuppressWarnings("deprecation")
  TreeGenerator(ObjectCodec codec) {
    super(0, codec);
  }

  /** The tree written, once the value is complete. */
  JsonNode root() {
    if (root == null || !open.isEmpty()) {
      throw new IllegalStateException("no complete value was written");
    }
    return root;
  }

  private void value(JsonNode node) {
    ContainerNode<?> parent = open.peek();
    if (parent == null) {
      root = node;
    } else if (parent instanceof ObjectNode object) {
      // A repeated name replaces the earlier value, as reading a tree does.
      object.set(field, node);
    } else {
      ((ArrayNode) parent).add(node);
    }
  }

  private void container(ContainerNode<?> node) {
    value(node);
    open.push(node);
  }

  @Override
  public void writeStartArray() {
    _writeContext.writeValue();
    _writeContext = _writeContext.createChildArrayContext();
    container(nodes.arrayNode());
  }

  @Override
  public void writeEndArray() {
    open.pop();
    _writeContext = _writeContext.clearAndGetParent();
  }

  @Override
  public void writeStartObject() {
    _writeContext.writeValue();
    _writeContext = _writeContext.createChildObjectContext();
    container(nodes.objectNode());
  }

  @Override
  public void writeEndObject() {
    open.pop();
    _writeContext = _writeContext.clearAndGetParent();
  }

  @Override
  public void writeFieldName(String name) throws IOException {
    _writeContext.writeFieldName(name);
    field = name;
  }

  @Override
  public void writeString(String text) {
    _writeContext.writeValue();
    value(text == null ? NullNode.getInstance() : TextNode.valueOf(text));
  }

  @Override
  public void writeString(char[] text, int offset, int len) {
    writeString(new String(text, offset, len));
  }

  @Override
  public void writeRawUTF8String(byte[] text, int offset, int length) {
    throw new UnsupportedOperationException("raw UTF-8 strings cannot be part of a tree");
  }

  @Override
  public void writeUTF8String(byte[] text, int offset, int length) {
    writeString(new String(text, offset, length, java.nio.charset.StandardCharsets.UTF_8));
  }

  @Override
  public void writeRaw(String text) {
    throw new UnsupportedOperationException("raw text cannot be part of a tree");
  }

  @Override
  public void writeRaw(String text, int offset, int len) {
    writeRaw(text);
  }

  @Override
  public void writeRaw(char[] text, int offset, int len) {
    writeRaw(new String(text, offset, len));
  }

  @Override
  public void writeRaw(char c) {
    writeRaw(String.valueOf(c));
  }

  @Override
  public void writeBinary(Base64Variant variant, byte[] data, int offset, int len) {
    _writeContext.writeValue();
    value(BinaryNode.valueOf(Arrays.copyOfRange(data, offset, offset + len)));
  }

  @Override
  public void writeNumber(int v) {
    _writeContext.writeValue();
    value(IntNode.valueOf(v));
  }

  @Override
  public void writeNumber(long v) {
    _writeContext.writeValue();
    value(LongNode.valueOf(v));
  }

  @Override
  public void writeNumber(BigInteger v) {
    _writeContext.writeValue();
    value(v == null ? NullNode.getInstance() : BigIntegerNode.valueOf(v));
  }

  @Override
  public void writeNumber(double v) {
    _writeContext.writeValue();
    value(DoubleNode.valueOf(v));
  }

  @Override
  public void writeNumber(float v) {
    _writeContext.writeValue();
    value(FloatNode.valueOf(v));
  }

  @Override
  public void writeNumber(BigDecimal v) {
    _writeContext.writeValue();
    // Without trailing zeros, as reading a tree gives decimals (JsonNodeFactory.decimalNode).
    value(
        v == null
            ? NullNode.getInstance()
            : v.signum() == 0 ? DecimalNode.ZERO : DecimalNode.valueOf(v.stripTrailingZeros()));
  }

  @Override
  public void writeNumber(String encoded) {
    writeNumber(encoded == null ? null : new BigDecimal(encoded));
  }

  @Override
  public void writeBoolean(boolean state) {
    _writeContext.writeValue();
    value(BooleanNode.valueOf(state));
  }

  @Override
  public void writeNull() {
    _writeContext.writeValue();
    value(NullNode.getInstance());
  }

  @Override
  public void flush() {}

  @Override
  protected void _releaseBuffers() {}

  @Override
  protected void _verifyValueWrite(String typeMsg) {}
}
