package dev.jobc.bind;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonSetter;
import com.fasterxml.jackson.annotation.Nulls;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;

/**
 * Converts between trees and typed values: raw input trees into the job records (after the schema
 * check), and fabric8 objects into trees for the writer. The records and the fabric8 classes jobc
 * uses go through direct code ({@link RecordBinding}, the generated {@link Fabric8Codecs}); the
 * rest, and every tree that code does not take exactly as Jackson would, through Jackson databind
 * with the settings below. The results are Jackson's either way. Immutable and thread-safe.
 */
public final class ObjectTrees {
  /** Jackson, for what the generated conversions leave to it; built on first use. */
  private static final class Jackson {
    static final ObjectMapper MAPPER =
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
  }

  private ObjectTrees() {}

  /**
   * Binds a tree to {@code type}; throws {@link IllegalArgumentException} when it does not fit.
   * jobc's records and the fabric8 classes {@link Fabric8Codecs} covers bind without Jackson when
   * the tree holds exactly the types declared; anything else, Jackson binds (and words the error).
   */
  public static <T> T bind(JsonNode tree, Class<T> type) {
    if (RecordBinding.binds(type)) {
      try {
        return type.cast(RecordBinding.bind(tree, type));
      } catch (Fabric8Values.Mismatch e) {
        // Jackson decides, below.
      }
    }
    return Jackson.MAPPER.convertValue(tree, type);
  }

  /** A deep copy of a fabric8 (or any Jackson-serialisable) object: its tree, bound again. */
  public static <T> T copy(T value, Class<T> type) {
    return bind(tree(value), type);
  }

  /**
   * An unchangeable snapshot of {@code value} that gives fresh deep copies: its tree is made once
   * here, and each {@link Snapshot#copy()} only binds.
   */
  public static <T> Snapshot<T> snapshot(T value, Class<T> type) {
    return new Snapshot<>(tree(value), type);
  }

  /** A value kept as its tree; see {@link #snapshot}. Immutable and thread-safe. */
  public static final class Snapshot<T> {
    private final JsonNode tree; // never handed out, never changed: binding only reads it
    private final Class<T> type;

    private Snapshot(JsonNode tree, Class<T> type) {
      this.tree = tree;
      this.type = type;
    }

    /** A new deep copy of the value, for the caller to change as it likes. */
    public T copy() {
      return bind(tree, type);
    }
  }

  /** The tree of a fabric8 (or any Jackson-serialisable) object. */
  public static ObjectNode tree(Object value) {
    JsonNode tree = Fabric8Codecs.tree(value);
    return (ObjectNode) (tree != null ? tree : jacksonTree(value));
  }

  /** The tree Jackson writes for {@code value}, built directly (see {@link TreeGenerator}). */
  static JsonNode jacksonTree(Object value) {
    TreeGenerator generator = new TreeGenerator(Jackson.MAPPER);
    try {
      Jackson.MAPPER.writeValue(generator, value);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return generator.root();
  }

  /** The tree {@link ObjectMapper#valueToTree} gives, for tests of {@link #tree}. */
  static JsonNode tokenBufferTree(Object value) {
    return Jackson.MAPPER.valueToTree(value);
  }

  /** Jackson's binding alone, for tests that hold the generated conversions to it. */
  static <T> T jacksonBind(JsonNode tree, Class<T> type) {
    return Jackson.MAPPER.convertValue(tree, type);
  }
}
