package dev.jobc.bind;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonSetter;
import com.fasterxml.jackson.annotation.Nulls;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.util.TokenBuffer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;

/**
 * Converts between trees and typed values with Jackson databind: raw input trees into {@code api}
 * records (after the schema check), and fabric8 objects into trees for the writer. Immutable and
 * thread-safe.
 */
public final class ObjectTrees {
  private static final ObjectMapper MAPPER =
      JsonMapper.builder()
          // Unknown fields were already reported by the schema check; binding ignores them.
          .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
          // So were null list items; the steps after binding assume a list holds no null.
          .withConfigOverride(
              List.class, o -> o.setSetterInfo(JsonSetter.Value.forContentNulls(Nulls.FAIL)))
          .defaultPropertyInclusion(
              JsonInclude.Value.construct(
                  JsonInclude.Include.NON_NULL, JsonInclude.Include.NON_NULL))
          // Build a property's deserializer when input first uses it (see the class for why).
          .addModule(
              new SimpleModule("jobc-lazy-properties")
                  .setDeserializerModifier(new LazyPropertyDeserializers()))
          .build();

  private ObjectTrees() {}

  /** Binds a tree to {@code type}; throws {@link IllegalArgumentException} when it does not fit. */
  public static <T> T bind(JsonNode tree, Class<T> type) {
    return MAPPER.convertValue(tree, type);
  }

  /**
   * A deep copy of a fabric8 (or any Jackson-serialisable) object, through a token buffer: no text,
   * no tree, and much cheaper than a fabric8 builder copy, which goes through reflection.
   */
  public static <T> T copy(T value, Class<T> type) {
    try (TokenBuffer buffer = new TokenBuffer(MAPPER, false)) {
      MAPPER.writeValue(buffer, value);
      try (JsonParser parser = buffer.asParser()) {
        return MAPPER.readValue(parser, type);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * An unchangeable snapshot of {@code value} that gives fresh deep copies: it is serialised once
   * here, and each {@link Snapshot#copy()} only deserialises.
   */
  public static <T> Snapshot<T> snapshot(T value, Class<T> type) {
    TokenBuffer buffer = new TokenBuffer(MAPPER, false);
    try {
      MAPPER.writeValue(buffer, value);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return new Snapshot<>(buffer, type);
  }

  /** A serialised value; see {@link #snapshot}. Immutable and thread-safe. */
  public static final class Snapshot<T> {
    private final TokenBuffer tokens;
    private final Class<T> type;

    private Snapshot(TokenBuffer tokens, Class<T> type) {
      this.tokens = tokens;
      this.type = type;
    }

    /** A new deep copy of the value, for the caller to change as it likes. */
    public T copy() {
      // Every parser reads the buffer from its start, without changing it.
      try (JsonParser parser = tokens.asParser()) {
        return MAPPER.readValue(parser, type);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }

  /** The tree of a fabric8 (or any Jackson-serialisable) object. */
  public static ObjectNode tree(Object value) {
    TreeGenerator generator = new TreeGenerator(MAPPER);
    try {
      MAPPER.writeValue(generator, value);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return (ObjectNode) generator.root();
  }

  /** The tree {@link ObjectMapper#valueToTree} gives, for tests of {@link #tree}. */
  static JsonNode tokenBufferTree(Object value) {
    return MAPPER.valueToTree(value);
  }
}
