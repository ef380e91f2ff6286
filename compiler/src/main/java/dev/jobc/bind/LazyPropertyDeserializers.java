package dev.jobc.bind;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.BeanDescription;
import com.fasterxml.jackson.databind.BeanProperty;
import com.fasterxml.jackson.databind.DeserializationConfig;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.deser.BeanDeserializerBuilder;
import com.fasterxml.jackson.databind.deser.BeanDeserializerModifier;
import com.fasterxml.jackson.databind.deser.SettableBeanProperty;
import com.fasterxml.jackson.databind.jsontype.TypeDeserializer;
import com.fasterxml.jackson.databind.util.AccessPattern;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * Makes Jackson build a bean property's deserializer when the property first occurs in input, not
 * when the bean's own deserializer is built.
 *
 * <p>Why: by default Jackson resolves the deserializers of every property of a bean, recursively,
 * before it reads the first value. Binding one fabric8 {@code PodTemplateSpec} therefore
 * introspects the whole pod model (every volume source, probe, affinity term: about 300 classes)
 * even when the template names an image and a command. That costs 200 to 300 ms in a fresh JVM,
 * more than everything else a one-file {@code jobc render} does. Made lazy, a run introspects only
 * the classes its input uses. The deserializers themselves are the ones Jackson would have built
 * ({@link DeserializationContext#findContextualValueDeserializer} is what the eager path ends in),
 * so what a tree binds to does not change.
 *
 * <p>Only properties whose deserializer Jackson would look up get a lazy one: properties with their
 * own {@code @JsonDeserialize(using = ...)}, or with a converter, and scalar properties are left as
 * they are.
 */
final class LazyPropertyDeserializers extends BeanDeserializerModifier {
  private static final long serialVersionUID = 1L;

  @Override
  public BeanDeserializerBuilder updateBuilder(
      DeserializationConfig config, BeanDescription beanDesc, BeanDeserializerBuilder builder) {
    List<SettableBeanProperty> lazy = new ArrayList<>();
    for (Iterator<SettableBeanProperty> it = builder.getProperties(); it.hasNext(); ) {
      SettableBeanProperty property = it.next();
      if (deferrable(config, property)) {
        lazy.add(property.withValueDeserializer(new Deferred(property.getType(), property)));
      }
    }
    for (SettableBeanProperty property : lazy) {
      builder.addOrReplaceProperty(property, true);
    }
    return builder;
  }

  private static boolean deferrable(DeserializationConfig config, SettableBeanProperty property) {
    if (property.hasValueDeserializer() || property.getMember() == null) {
      return false;
    }
    var introspector = config.getAnnotationIntrospector();
    if (introspector != null
        && (introspector.findDeserializationConverter(property.getMember()) != null
            || introspector.findDeserializationContentConverter(property.getMember()) != null)) {
      return false; // Jackson wraps these itself; keep its path
    }
    JavaType type = property.getType();
    if (type.isPrimitive() || type.isEnumType()) {
      return false;
    }
    // JDK value types (String, Integer, ...) have cheap deserializers; model types and containers
    // of them are what pulls in the rest of the model.
    return type.isContainerType() || !type.getRawClass().getName().startsWith("java.");
  }

  /** Finds the real deserializer on first use and delegates every call to it. */
  private static final class Deferred extends JsonDeserializer<Object> {
    private final JavaType type;
    private final BeanProperty property;
    private volatile JsonDeserializer<Object> target; // a benign race: both threads find the same

    Deferred(JavaType type, BeanProperty property) {
      this.type = type;
      this.property = property;
    }

    private JsonDeserializer<Object> target(DeserializationContext ctxt)
        throws JsonMappingException {
      JsonDeserializer<Object> found = target;
      if (found == null) {
        found = ctxt.findContextualValueDeserializer(type, property);
        target = found;
      }
      return found;
    }

    @Override
    public Object deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
      return target(ctxt).deserialize(p, ctxt);
    }

    @Override
    public Object deserialize(JsonParser p, DeserializationContext ctxt, Object intoValue)
        throws IOException {
      return target(ctxt).deserialize(p, ctxt, intoValue);
    }

    @Override
    public Object deserializeWithType(
        JsonParser p, DeserializationContext ctxt, TypeDeserializer typeDeserializer)
        throws IOException {
      return target(ctxt).deserializeWithType(p, ctxt, typeDeserializer);
    }

    @Override
    public Object getNullValue(DeserializationContext ctxt) throws JsonMappingException {
      return target(ctxt).getNullValue(ctxt);
    }

    @Override
    public Object getAbsentValue(DeserializationContext ctxt) throws JsonMappingException {
      return target(ctxt).getAbsentValue(ctxt);
    }

    @Override
    public Object getEmptyValue(DeserializationContext ctxt) throws JsonMappingException {
      return target(ctxt).getEmptyValue(ctxt);
    }

    @Override
    public AccessPattern getNullAccessPattern() {
      return AccessPattern.DYNAMIC; // not known until the target is: ask getNullValue every time
    }

    @Override
    public AccessPattern getEmptyAccessPattern() {
      return AccessPattern.DYNAMIC;
    }
  }
}
