package dev.jobc.schema;

import com.fasterxml.jackson.databind.BeanDescription;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.introspect.AnnotatedMember;
import com.fasterxml.jackson.databind.introspect.BeanPropertyDefinition;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.KeyToPath;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Generates JSON Schema definitions of Kubernetes types from the fabric8 model classes by Jackson
 * bean introspection, so the schemas accept exactly what jobc can bind.
 *
 * <p>Every object gets {@code additionalProperties: false}: fabric8's catch-all {@code
 * additionalProperties} map would otherwise swallow typos silently, which is the one thing the
 * schemas exist to prevent. Definitions are named the way the Kubernetes OpenAPI document names
 * them ({@code io.k8s.api.core.v1.PodTemplateSpec}) so editors and readers recognise them.
 */
final class KubernetesSchemaGenerator {

  /** Where references to generated definitions point. */
  static final String REF_PREFIX = "#/$defs/";

  private static final String FABRIC8_MODEL = "io.fabric8.kubernetes.api.model";

  // fabric8 keeps apimachinery's meta/v1 types in the same package as core/v1; the OpenAPI names
  // differ, so these few are listed by hand.
  private static final Set<String> META_V1 =
      Set.of(
          "ObjectMeta",
          "ManagedFieldsEntry",
          "FieldsV1",
          "OwnerReference",
          "LabelSelector",
          "LabelSelectorRequirement",
          "ListMeta",
          "Status",
          "StatusDetails",
          "StatusCause",
          "Time",
          "MicroTime",
          "Duration");

  // The API server's required fields that users actually forget; everything else is left to the
  // semantic validator, which words its messages the way upstream does.
  private static final Map<Class<?>, List<String>> REQUIRED =
      Map.of(
          Container.class, List.of("name"),
          EnvVar.class, List.of("name"),
          Volume.class, List.of("name"),
          VolumeMount.class, List.of("name", "mountPath"),
          ContainerPort.class, List.of("containerPort"),
          KeyToPath.class, List.of("key", "path"));

  // Fields that Kubernetes itself writes as null (kubectl's dry-run output has
  // "creationTimestamp: null"); rejecting them would reject copied manifests for no benefit.
  private static final Set<String> NULLABLE = Set.of("ObjectMeta.creationTimestamp");

  /**
   * The quantity grammar of {@code k8s.io/apimachinery/pkg/api/resource}: a signed decimal number
   * followed by an optional binary suffix (Ki..Ei), decimal suffix (n, u, m, k, M..E) or exponent.
   */
  static final String QUANTITY_PATTERN =
      "^[+-]?([0-9]+(\\.[0-9]*)?|\\.[0-9]+)"
          + "(([KMGTPE]i)|[numkMGTPE]|([eE][+-]?([0-9]+(\\.[0-9]*)?|\\.[0-9]+)))?$";

  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private final ObjectMapper mapper = new ObjectMapper();

  /**
   * Returns the definitions of {@code roots} and of every type reachable from them, keyed by
   * definition name, in name order.
   */
  Map<String, ObjectNode> generate(List<Class<?>> roots) {
    Map<String, ObjectNode> defs = new TreeMap<>();
    Deque<Class<?>> pending = new ArrayDeque<>(roots);
    Set<Class<?>> seen = new java.util.HashSet<>(roots);
    while (!pending.isEmpty()) {
      Class<?> type = pending.removeFirst();
      defs.put(
          defName(type),
          definition(
              type,
              nested -> {
                if (seen.add(nested)) {
                  pending.addLast(nested);
                }
              }));
    }
    return defs;
  }

  /** The definition name of a fabric8 model class, in Kubernetes OpenAPI spelling. */
  static String defName(Class<?> type) {
    if (type == Quantity.class) {
      return "io.k8s.apimachinery.pkg.api.resource.Quantity";
    }
    if (type == IntOrString.class) {
      return "io.k8s.apimachinery.pkg.util.intstr.IntOrString";
    }
    String pkg = type.getPackageName();
    if (pkg.equals(FABRIC8_MODEL)) {
      return (META_V1.contains(type.getSimpleName())
              ? "io.k8s.apimachinery.pkg.apis.meta.v1."
              : "io.k8s.api.core.v1.")
          + type.getSimpleName();
    }
    if (pkg.startsWith(FABRIC8_MODEL + ".")) {
      return "io.k8s.api." + pkg.substring(FABRIC8_MODEL.length() + 1) + "." + type.getSimpleName();
    }
    throw new IllegalArgumentException("not a fabric8 model class: " + type.getName());
  }

  private ObjectNode definition(Class<?> type, java.util.function.Consumer<Class<?>> refer) {
    if (type == IntOrString.class) {
      ObjectNode def = NODES.objectNode();
      def.put("description", "An integer, or a string such as a named port or a percentage.");
      ArrayNode anyOf = def.putArray("anyOf");
      anyOf.addObject().put("type", "integer");
      anyOf.addObject().put("type", "string");
      return def;
    }
    if (type == Quantity.class) {
      ObjectNode def = NODES.objectNode();
      def.put(
          "description",
          "A Kubernetes quantity: a number, or a string such as 500m, 1.5, 2Gi or 1e3.");
      ArrayNode anyOf = def.putArray("anyOf");
      anyOf.addObject().put("type", "number");
      anyOf.addObject().put("type", "string").put("pattern", QUANTITY_PATTERN);
      return def;
    }
    BeanDescription bean = mapper.getSerializationConfig().introspect(mapper.constructType(type));
    Map<String, JsonNode> properties = new TreeMap<>();
    for (BeanPropertyDefinition property : bean.findProperties()) {
      if (isCatchAll(bean, property)) {
        continue;
      }
      if (property.getName().equals("additionalProperties")) {
        throw new IllegalStateException("fabric8's catch-all leaked from " + type.getName());
      }
      JsonNode schema = schemaOf(property.getPrimaryType(), refer);
      if (NULLABLE.contains(type.getSimpleName() + "." + property.getName())) {
        schema = nullable(schema);
      }
      properties.put(property.getName(), schema);
    }
    ObjectNode def = NODES.objectNode();
    def.put("type", "object");
    if (properties.isEmpty()) {
      // Free-form content such as FieldsV1: fabric8 models it with the catch-all map only.
      return def;
    }
    ObjectNode props = def.putObject("properties");
    properties.forEach(props::set);
    List<String> required = REQUIRED.get(type);
    if (required != null) {
      ArrayNode list = def.putArray("required");
      new TreeSet<>(required).forEach(list::add);
    }
    def.put("additionalProperties", false);
    return def;
  }

  private static boolean isCatchAll(BeanDescription bean, BeanPropertyDefinition property) {
    AnnotatedMember anyGetter = bean.findAnyGetter();
    AnnotatedMember anySetter = bean.findAnySetterAccessor();
    AnnotatedMember accessor = property.getAccessor();
    return accessor != null && (accessor.equals(anyGetter) || accessor.equals(anySetter));
  }

  private JsonNode schemaOf(JavaType type, java.util.function.Consumer<Class<?>> refer) {
    Class<?> raw = type.getRawClass();
    ObjectNode schema = NODES.objectNode();
    if (raw == String.class) {
      return schema.put("type", "string");
    }
    if (raw == Integer.class || raw == int.class) {
      return schema
          .put("type", "integer")
          .put("minimum", Integer.MIN_VALUE)
          .put("maximum", Integer.MAX_VALUE);
    }
    if (raw == Long.class || raw == long.class) {
      return schema
          .put("type", "integer")
          .put("minimum", Long.MIN_VALUE)
          .put("maximum", Long.MAX_VALUE);
    }
    if (raw == Boolean.class || raw == boolean.class) {
      return schema.put("type", "boolean");
    }
    if (raw == Double.class || raw == double.class || raw == Float.class || raw == float.class) {
      return schema.put("type", "number");
    }
    if (type.isCollectionLikeType() || type.isArrayType()) {
      schema.put("type", "array");
      schema.set("items", schemaOf(type.getContentType(), refer));
      return schema;
    }
    if (type.isMapLikeType()) {
      if (type.getKeyType().getRawClass() != String.class) {
        throw new IllegalStateException("map with non-string keys: " + type);
      }
      schema.put("type", "object");
      JsonNode values = schemaOf(type.getContentType(), refer);
      schema.set("additionalProperties", values);
      return schema;
    }
    if (raw == Object.class || JsonNode.class.isAssignableFrom(raw)) {
      return schema; // anything
    }
    if (raw.getPackageName().startsWith(FABRIC8_MODEL)) {
      refer.accept(raw);
      return schema.put("$ref", REF_PREFIX + defName(raw));
    }
    throw new IllegalStateException("no JSON Schema mapping for " + type);
  }

  private static JsonNode nullable(JsonNode schema) {
    ObjectNode copy = ((ObjectNode) schema).deepCopy();
    ArrayNode types = NODES.arrayNode().add(schema.get("type").asText()).add("null");
    copy.set("type", types);
    return copy;
  }
}
