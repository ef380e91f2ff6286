package dev.jobc.codegen;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.BeanDescription;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.introspect.AnnotatedMember;
import com.fasterxml.jackson.databind.introspect.AnnotatedMethod;
import com.fasterxml.jackson.databind.introspect.BeanPropertyDefinition;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.ser.BeanPropertyWriter;
import com.fasterxml.jackson.databind.ser.PropertyWriter;
import com.fasterxml.jackson.databind.ser.std.BeanSerializerBase;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Quantity;
import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Writes {@code dev.jobc.bind.Fabric8Codecs}: straight-line code that turns the fabric8 model
 * classes jobc reads and writes into trees and back, without Jackson's reflection.
 *
 * <p>Why: a fresh JVM spends most of a one-job render in Jackson introspecting fabric8's beans
 * (about 550 classes loaded to bind one pod template, 70 ms more to serialise the output), and a
 * warm one spends a fifth of each compile in reflective getter calls. The generated code calls the
 * getters and setters directly.
 *
 * <p>What to generate is read from Jackson itself, with the inclusion rules jobc's mapper uses:
 * each class's serializer gives the properties it writes, in order, with their getters and what
 * they leave out (null, empty); each class's deserializer gives the properties it reads and their
 * setters. Whatever the generated code does not know exactly (a custom serializer, a property that
 * is not a getter or setter, additional properties, a value of another type than declared) it
 * leaves to Jackson: {@code tree} returns Jackson's tree for that object, {@code bind} throws
 * {@code Mismatch} and the caller binds with Jackson. The generated code is therefore a shortcut
 * with Jackson's result, never another meaning; the compiler's tests hold it to Jackson on every
 * class it covers.
 *
 * <p>Runs at generate-sources of the compiler module: {@code Fabric8CodecGenerator OUTPUT_DIR}.
 */
public final class Fabric8CodecGenerator {
  /**
   * The classes jobc binds from input or writes as output; the generated code covers them and every
   * fabric8 class their properties reach.
   */
  private static final List<String> ROOTS =
      List.of(
          "io.fabric8.kubernetes.api.model.PodTemplateSpec",
          "io.fabric8.kubernetes.api.model.ObjectMeta",
          "io.fabric8.kubernetes.api.model.Pod",
          "io.fabric8.kubernetes.api.model.ConfigMap",
          "io.fabric8.kubernetes.api.model.Service",
          "io.fabric8.kubernetes.api.model.ServiceAccount",
          "io.fabric8.kubernetes.api.model.Secret",
          "io.fabric8.kubernetes.api.model.apps.StatefulSet",
          "io.fabric8.kubernetes.api.model.batch.v1.Job",
          "io.fabric8.kubernetes.api.model.rbac.Role",
          "io.fabric8.kubernetes.api.model.rbac.RoleBinding");

  /**
   * The value types the generated code converts itself, each with its Java code (a format of the
   * value expression): to a tree node, from a tree node, and written to the YAML stream. Every
   * other type is a covered bean, a list or map of these, or left to Jackson.
   */
  private record Scalar(String tree, String bind, String yaml) {}

  private static final Map<Class<?>, Scalar> SCALARS =
      Map.of(
          String.class,
          new Scalar("Fabric8Values.text(%s)", "Fabric8Values.string(%s)", "y.string(%s);"),
          Integer.class,
          new Scalar(
              "Fabric8Values.number(%s.intValue())",
              "Fabric8Values.integer(%s)", "y.number(%s.longValue());"),
          Long.class,
          new Scalar(
              "Fabric8Values.number(%s.longValue())",
              "Fabric8Values.longValue(%s)", "y.number(%s.longValue());"),
          Boolean.class,
          new Scalar("Fabric8Values.bool(%s)", "Fabric8Values.bool(%s)", "y.bool(%s);"),
          Quantity.class,
          new Scalar("Fabric8Values.quantity(%s)", "Fabric8Values.quantity(%s)", "y.quantity(%s);"),
          IntOrString.class,
          new Scalar(
              "Fabric8Values.intOrString(%s)",
              "Fabric8Values.intOrString(%s)", "y.intOrString(%s);"));

  private static final String PACKAGE = "dev.jobc.bind";
  private static final String CLASS = "Fabric8Codecs";
  private static final String YAML_PACKAGE = "dev.jobc.render";
  private static final String YAML_CLASS = "Fabric8Yaml";

  /** The YAML writing methods, written with the others (one per covered class). */
  private final StringBuilder yamlMethods = new StringBuilder();

  /** The mapper whose rules the code reproduces: {@code dev.jobc.bind.ObjectTrees}' settings. */
  private final ObjectMapper mapper =
      JsonMapper.builder()
          .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
          .defaultPropertyInclusion(
              JsonInclude.Value.construct(
                  JsonInclude.Include.NON_NULL, JsonInclude.Include.NON_NULL))
          .build();

  /** Every covered class, in the order found, with the method-name stem it gets. */
  private final Map<Class<?>, String> classes = new LinkedHashMap<>();

  private final Deque<Class<?>> pending = new ArrayDeque<>();

  public static void main(String[] args) throws Exception {
    if (args.length != 1) {
      System.err.println("usage: Fabric8CodecGenerator OUTPUT_DIR");
      System.exit(2);
    }
    Fabric8CodecGenerator generator = new Fabric8CodecGenerator();
    write(Path.of(args[0], PACKAGE.replace('.', '/'), CLASS + ".java"), generator.generate());
    write(
        Path.of(args[0], YAML_PACKAGE.replace('.', '/'), YAML_CLASS + ".java"),
        generator.yamlSource());
  }

  private static void write(Path file, String source) throws IOException {
    Files.createDirectories(file.getParent());
    // Rewrite only when changed, so that an unchanged build compiles nothing again.
    if (!Files.exists(file) || !Files.readString(file).equals(source)) {
      Files.writeString(file, source, StandardCharsets.UTF_8);
    }
  }

  String generate() throws IOException {
    for (String root : ROOTS) {
      try {
        cover(Class.forName(root));
      } catch (ClassNotFoundException e) {
        throw new IllegalStateException("not on the class path: " + root, e);
      }
    }
    StringBuilder methods = new StringBuilder();
    while (!pending.isEmpty()) {
      Class<?> type = pending.removeFirst();
      treeMethod(type, methods);
      bindMethod(type, methods);
      yamlMethod(type, yamlMethods);
    }
    return header() + methods + "}\n";
  }

  // ---- which classes ----------------------------------------------------------------------

  /** Whether the generated code handles values of this class as beans of their own. */
  private boolean isBean(Class<?> type) {
    return type.getName().startsWith("io.fabric8.kubernetes.api.model.")
        && !SCALARS.containsKey(type)
        && !type.isInterface()
        && !Modifier.isAbstract(type.getModifiers())
        && !type.isEnum()
        && plainBean(type);
  }

  /** A bean Jackson reads and writes property by property, with no type ids or creators. */
  private boolean plainBean(Class<?> type) {
    try {
      JsonSerializer<Object> serializer =
          mapper.getSerializerProviderInstance().findValueSerializer(type);
      if (!(serializer instanceof BeanSerializerBase)
          || serializer.getClass() != com.fasterxml.jackson.databind.ser.BeanSerializer.class) {
        return false;
      }
      BeanDescription read =
          mapper.getDeserializationConfig().introspect(mapper.constructType(type));
      return read.findDefaultConstructor() != null
          && read.getClassAnnotations().get(com.fasterxml.jackson.annotation.JsonTypeInfo.class)
              == null
          && mapper.getSerializationConfig().introspect(mapper.constructType(type)).findAnyGetter()
              != null;
    } catch (JsonMappingException e) {
      // Jackson cannot write the class at all: the generated code leaves its values to Jackson,
      // which reports them as it always has (no golden case holds one). Anything else surfaces.
      return false;
    }
  }

  private String cover(Class<?> type) {
    String stem = classes.get(type);
    if (stem == null) {
      stem = type.getSimpleName();
      if (classes.containsValue(stem)) {
        String pkg = type.getPackageName();
        stem = stem + "_" + pkg.substring(pkg.lastIndexOf('.') + 1);
      }
      classes.put(type, stem);
      pending.addLast(type);
    }
    return stem;
  }

  // ---- trees ------------------------------------------------------------------------------

  private void treeMethod(Class<?> type, StringBuilder out) throws IOException {
    String stem = classes.get(type);
    String name = type.getCanonicalName();
    out.append("\n  static JsonNode tree").append(stem).append('(').append(name);
    out.append(" v) {\n");
    List<PropertyWriter> properties = writtenProperties(type);
    if (properties == null) {
      out.append("    return Fabric8Values.jackson(v);\n  }\n");
      return;
    }
    out.append("    if (!Fabric8Values.plain(v.getAdditionalProperties())) {\n");
    out.append("      return Fabric8Values.jackson(v);\n    }\n");
    out.append("    ObjectNode n = Fabric8Values.object();\n");
    int var = 0;
    for (PropertyWriter p : properties) {
      String getter = getterOf(p);
      String local = "p" + var++;
      BeanPropertyWriter w = (BeanPropertyWriter) p;
      boolean nonEmpty = suppressesEmpty(w);
      if (!w.willSuppressNulls()) {
        throw new IllegalStateException(type.getName() + "." + p.getName() + " writes nulls");
      }
      JavaType t = w.getType();
      String javaType = javaType(t);
      out.append("    ").append(javaType).append(' ').append(local).append(" = v.");
      out.append(getter).append("();\n");
      String value = treeValue(t, local, 0);
      if (value == null || customSerializer(w.getMember())) {
        out.append("    if (").append(local).append(" != null) {\n");
        out.append("      return Fabric8Values.jackson(v); // ").append(p.getName());
        out.append(": no generated form\n    }\n");
        continue;
      }
      String condition = local + " != null";
      if (nonEmpty) {
        if (t.isContainerType() || t.getRawClass() == String.class) {
          condition += " && !" + local + ".isEmpty()";
        } else {
          throw new IllegalStateException(
              type.getName() + "." + p.getName() + ": NON_EMPTY on " + t);
        }
      }
      if (t.isMapLikeType()) {
        // Jackson leaves out null map values by jobc's content rule; rarely worth a copy here.
        out.append("    if (").append(local).append(" != null && Fabric8Values.holdsNull(");
        out.append(local).append(")) {\n      return Fabric8Values.jackson(v);\n    }\n");
      }
      out.append("    if (").append(condition).append(") {\n");
      out.append("      n.set(\"").append(p.getName()).append("\", ").append(value);
      out.append(");\n    }\n");
    }
    out.append("    return n;\n  }\n");
  }

  /**
   * The properties Jackson writes for {@code type}, in its order, without the additional properties
   * (their writer is one of them since Jackson 2.18; the generated code checks them apart); null
   * when one is written otherwise than through a plain getter, so that the whole object is left to
   * Jackson.
   */
  private List<PropertyWriter> writtenProperties(Class<?> type) throws IOException {
    BeanSerializerBase serializer =
        (BeanSerializerBase) mapper.getSerializerProviderInstance().findValueSerializer(type);
    List<PropertyWriter> properties = new ArrayList<>();
    serializer
        .properties()
        .forEachRemaining(
            p -> {
              if (!(p instanceof com.fasterxml.jackson.databind.ser.AnyGetterWriter)) {
                properties.add(p);
              }
            });
    boolean plain =
        properties.stream()
            .allMatch(p -> getterOf(p) != null && p.getClass() == BeanPropertyWriter.class);
    return plain ? properties : null;
  }

  /** Java code for the tree of {@code expr} (of type {@code t}, never null), or null. */
  private String treeValue(JavaType t, String expr, int depth) {
    Class<?> raw = t.getRawClass();
    Scalar scalar = SCALARS.get(raw);
    if (scalar != null) {
      return scalar.tree().formatted(expr);
    }
    if (depth == 0 && t.isCollectionLikeType() && List.class.isAssignableFrom(raw)) {
      JavaType e = t.getContentType();
      String item = treeValue(e, "e", depth + 1);
      if (item == null) {
        return null;
      }
      return "Fabric8Values.array(" + expr + ", e -> " + item + ")";
    }
    if (depth == 0
        && t.isMapLikeType()
        && Map.class.isAssignableFrom(raw)
        && t.getKeyType().getRawClass() == String.class) {
      JavaType e = t.getContentType();
      String item = treeValue(e, "e", depth + 1);
      if (item == null) {
        return null;
      }
      return "Fabric8Values.object(" + expr + ", e -> " + item + ")";
    }
    if (isBean(raw)) {
      // Jackson writes a value by its own class, which may be a subclass of the declared one.
      String name = raw.getCanonicalName();
      return "("
          + expr
          + ".getClass() == "
          + name
          + ".class ? tree"
          + cover(raw)
          + "("
          + expr
          + ") : Fabric8Values.jackson("
          + expr
          + "))";
    }
    return null;
  }

  private static String getterOf(PropertyWriter p) {
    AnnotatedMember member = p.getMember();
    if (member instanceof AnnotatedMethod m && m.getParameterCount() == 0) {
      return m.getName();
    }
    return null;
  }

  /** Whether the getter names its own serializer (a {@code @JsonSerialize} with any setting). */
  private static boolean customSerializer(AnnotatedMember member) {
    var a = member.getAnnotation(com.fasterxml.jackson.databind.annotation.JsonSerialize.class);
    return a != null
        && !(a.using() == JsonSerializer.None.class
            && a.contentUsing() == JsonSerializer.None.class
            && a.keyUsing() == JsonSerializer.None.class
            && a.nullsUsing() == JsonSerializer.None.class
            && a.converter() == com.fasterxml.jackson.databind.util.Converter.None.class
            && a.contentConverter() == com.fasterxml.jackson.databind.util.Converter.None.class
            && a.as() == Void.class
            && a.contentAs() == Void.class
            && a.keyAs() == Void.class
            && a.typing() != com.fasterxml.jackson.databind.annotation.JsonSerialize.Typing.STATIC);
  }

  /** Whether the property leaves out empty values ({@code NON_EMPTY}), read from the writer. */
  private static boolean suppressesEmpty(BeanPropertyWriter w) {
    try {
      Field f = BeanPropertyWriter.class.getDeclaredField("_suppressableValue");
      f.setAccessible(true);
      Object marker = f.get(w);
      if (marker == null) {
        return false;
      }
      if (marker == BeanPropertyWriter.MARKER_FOR_EMPTY) {
        return true;
      }
      throw new IllegalStateException(w.getName() + ": suppresses " + marker);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException(e);
    }
  }

  // ---- binding ----------------------------------------------------------------------------

  private void bindMethod(Class<?> type, StringBuilder out) {
    String stem = classes.get(type);
    String name = type.getCanonicalName();
    BeanDescription read = mapper.getDeserializationConfig().introspect(mapper.constructType(type));
    out.append("\n  static ").append(name).append(" bind").append(stem);
    out.append("(JsonNode t) {\n");
    out.append("    ").append(name).append(" v = new ").append(name).append("();\n");
    out.append("    for (Map.Entry<String, JsonNode> f : Fabric8Values.fields(t)) {\n");
    out.append("      JsonNode x = f.getValue();\n");
    out.append("      switch (f.getKey()) {\n");
    Map<String, String> cases = new TreeMap<>();
    for (BeanPropertyDefinition p : read.findProperties()) {
      if (!p.hasSetter() || p.getSetter().getParameterCount() != 1) {
        continue; // Jackson reads it otherwise (a field, a creator): leave it to Jackson
      }
      if (p.findAliases() != null && !p.findAliases().isEmpty()) {
        throw new IllegalStateException(type.getName() + "." + p.getName() + " has aliases");
      }
      AnnotatedMethod setter = p.getSetter();
      JavaType t = setter.getParameterType(0);
      if (setter.hasAnnotation(com.fasterxml.jackson.databind.annotation.JsonDeserialize.class)
          && !usesDefaultDeserializer(setter)) {
        continue;
      }
      String value = bindValue(t, "x", 0);
      if (value != null) {
        cases.put(p.getName(), "v." + setter.getName() + "(" + value + ");");
      }
    }
    for (Map.Entry<String, String> c : cases.entrySet()) {
      out.append("        case \"").append(c.getKey()).append("\" -> ");
      out.append(c.getValue()).append('\n');
    }
    // Unknown fields (kept as additional properties) and properties without generated code.
    out.append("        default -> throw Fabric8Values.MISMATCH;\n");
    out.append("      }\n    }\n    return v;\n  }\n");
  }

  private static boolean usesDefaultDeserializer(AnnotatedMethod setter) {
    var a = setter.getAnnotation(com.fasterxml.jackson.databind.annotation.JsonDeserialize.class);
    return a.using() == com.fasterxml.jackson.databind.JsonDeserializer.None.class
        && a.contentUsing() == com.fasterxml.jackson.databind.JsonDeserializer.None.class
        && a.keyUsing() == com.fasterxml.jackson.databind.KeyDeserializer.None.class
        && a.converter() == com.fasterxml.jackson.databind.util.Converter.None.class
        && a.contentConverter() == com.fasterxml.jackson.databind.util.Converter.None.class
        && a.as() == Void.class
        && a.contentAs() == Void.class
        && a.keyAs() == Void.class
        && a.builder() == Void.class;
  }

  /** Java code that binds the tree {@code expr} to type {@code t}, or null. */
  private String bindValue(JavaType t, String expr, int depth) {
    Class<?> raw = t.getRawClass();
    Scalar scalar = SCALARS.get(raw);
    if (scalar != null) {
      return scalar.bind().formatted(expr);
    }
    if (depth == 0 && raw == List.class) {
      String item = bindValue(t.getContentType(), "e", depth + 1);
      return item == null ? null : "Fabric8Values.list(" + expr + ", e -> " + item + ")";
    }
    if (depth == 0 && raw == Map.class && t.getKeyType().getRawClass() == String.class) {
      String item = bindValue(t.getContentType(), "e", depth + 1);
      return item == null ? null : "Fabric8Values.map(" + expr + ", e -> " + item + ")";
    }
    if (isBean(raw)) {
      return "bind" + cover(raw) + "(" + expr + ")";
    }
    return null;
  }

  // ---- YAML ------------------------------------------------------------------------------

  /**
   * The keys that lead every mapping in canonical order, as {@code dev.jobc.render.YamlWriter}
   * ranks them (the compiler's tests compare the two writers on every covered class).
   */
  private static final List<String> LEADING_KEYS =
      List.of(
          "apiVersion",
          "kind",
          "metadata",
          "name",
          "generateName",
          "namespace",
          "labels",
          "annotations");

  private static int rank(String key) {
    int i = LEADING_KEYS.indexOf(key);
    return i < 0 ? LEADING_KEYS.size() : i;
  }

  /**
   * Whether a property name is a key every YAML reader takes as that string when written plain: a
   * lowercase letter, then letters and digits, and none of the null and boolean words.
   */
  private static boolean plainKey(String name) {
    return name.matches("[a-z][A-Za-z0-9]{2,}")
        && !List.of("yes", "off", "null", "true", "false").contains(name);
  }

  private void yamlMethod(Class<?> type, StringBuilder out) throws IOException {
    String stem = classes.get(type);
    out.append("\n  static void yaml").append(stem).append('(').append(type.getCanonicalName());
    out.append(" v, YamlStream y) {\n");
    List<PropertyWriter> properties = writtenProperties(type);
    if (properties == null) {
      out.append("    throw YamlStream.MISMATCH;\n  }\n");
      return;
    }
    properties.sort(
        (a, b) -> {
          int ra = rank(a.getName());
          int rb = rank(b.getName());
          return ra != rb ? Integer.compare(ra, rb) : a.getName().compareTo(b.getName());
        });
    out.append("    YamlStream.plain(v.getAdditionalProperties());\n");
    int var = 0;
    for (PropertyWriter p : properties) {
      BeanPropertyWriter w = (BeanPropertyWriter) p;
      JavaType t = w.getType();
      String local = "p" + var++;
      out.append("    ").append(javaType(t)).append(' ').append(local).append(" = v.");
      out.append(getterOf(p)).append("();\n");
      String value = customSerializer(w.getMember()) ? null : yamlValue(t, local, 0);
      if (value == null) {
        out.append("    if (").append(local).append(" != null) {\n");
        out.append("      throw YamlStream.MISMATCH; // ").append(p.getName()).append('\n');
        out.append("    }\n");
        continue;
      }
      String condition = local + " != null";
      if (suppressesEmpty(w)) {
        condition += " && !" + local + ".isEmpty()";
      }
      out.append("    if (").append(condition).append(") {\n");
      out.append("      y.").append(plainKey(p.getName()) ? "fieldKey" : "key").append("(\"");
      out.append(p.getName()).append("\");\n");
      out.append(value.indent(6));
      out.append("    }\n");
    }
    out.append("  }\n");
  }

  /** Java statements that write {@code expr} (of type {@code t}, never null), or null. */
  private String yamlValue(JavaType t, String expr, int depth) {
    Class<?> raw = t.getRawClass();
    Scalar scalar = SCALARS.get(raw);
    if (scalar != null) {
      return scalar.yaml().formatted(expr);
    }
    if (depth == 0 && raw == List.class) {
      JavaType e = t.getContentType();
      String item = yamlValue(e, "e", depth + 1);
      if (item == null) {
        return null;
      }
      return "y.startList();\n"
          + "for ("
          + javaType(e)
          + " e : "
          + expr
          + ") {\n"
          + "  y.item();\n"
          + "  if (e == null) {\n"
          + "    y.nullValue();\n"
          + "  } else {\n"
          + item.indent(4)
          + "  }\n"
          + "}\n"
          + "y.endList();";
    }
    if (depth == 0 && raw == Map.class && t.getKeyType().getRawClass() == String.class) {
      JavaType e = t.getContentType();
      String item = yamlValue(e, "e.getValue()", depth + 1);
      if (item == null) {
        return null;
      }
      return "y.startMapping();\n"
          + "for (Map.Entry<String, "
          + javaType(e)
          + "> e : YamlStream.sorted("
          + expr
          + ")) {\n"
          + "  y.key(e.getKey());\n"
          + item.indent(2)
          + "}\n"
          + "y.endMapping();";
    }
    if (isBean(raw)) {
      String name = raw.getCanonicalName();
      return "YamlStream.exactly("
          + expr
          + ", "
          + name
          + ".class);\n"
          + "y.startMapping();\n"
          + "yaml"
          + cover(raw)
          + "("
          + expr
          + ", y);\n"
          + "y.endMapping();";
    }
    return null;
  }

  private String yamlSource() {
    StringBuilder s = new StringBuilder();
    s.append(
        "// Generated by dev.jobc.codegen.Fabric8CodecGenerator from the fabric8 model on the\n");
    s.append("// class path; do not edit. See that class for what it covers and why.\n");
    s.append("package ").append(YAML_PACKAGE).append(";\n\n");
    s.append("import java.util.Map;\n\n");
    s.append("@SuppressWarnings(\"all\")\n");
    s.append("final class ").append(YAML_CLASS).append(" {\n");
    s.append("  private ").append(YAML_CLASS).append("() {}\n\n");
    s.append("  /** The YAML document of {@code v}, or null when its tree must be written. */\n");
    s.append("  static String yaml(Object v) {\n");
    s.append("    YamlStream y = new YamlStream();\n");
    s.append("    try {\n");
    s.append("      switch (v.getClass().getName()) {\n");
    for (Map.Entry<Class<?>, String> c : classes.entrySet()) {
      s.append("        case \"").append(c.getKey().getName()).append("\" -> yaml");
      s.append(c.getValue()).append("((").append(c.getKey().getCanonicalName());
      s.append(") v, y);\n");
    }
    s.append("        default -> {\n          return null;\n        }\n");
    s.append("      }\n");
    s.append("      return y.finish();\n");
    s.append("    } catch (YamlStream.Mismatch e) {\n      return null;\n    }\n  }\n");
    return s + yamlMethods.toString() + "}\n";
  }

  // ---- source text ------------------------------------------------------------------------

  private static String javaType(JavaType t) {
    if (t.hasGenericTypes() && (t.isCollectionLikeType() || t.isMapLikeType())) {
      StringBuilder s = new StringBuilder(t.getRawClass().getCanonicalName()).append('<');
      for (int i = 0; i < t.containedTypeCount(); i++) {
        s.append(i == 0 ? "" : ", ").append(javaType(t.containedType(i)));
      }
      return s.append('>').toString();
    }
    return t.getRawClass().getCanonicalName();
  }

  private String header() {
    StringBuilder s = new StringBuilder();
    s.append(
        "// Generated by dev.jobc.codegen.Fabric8CodecGenerator from the fabric8 model on the\n");
    s.append("// class path; do not edit. See that class for what it covers and why.\n");
    s.append("package ").append(PACKAGE).append(";\n\n");
    s.append("import com.fasterxml.jackson.databind.JsonNode;\n");
    s.append("import com.fasterxml.jackson.databind.node.ObjectNode;\n");
    s.append("import java.util.Map;\n\n");
    s.append("@SuppressWarnings(\"all\")\n");
    s.append("final class ").append(CLASS).append(" {\n");
    s.append("  private ").append(CLASS).append("() {}\n\n");
    // Dispatch on the exact class: a subclass may add properties.
    s.append("  /** The tree of {@code v}, or null when no generated code covers its class. */\n");
    s.append("  static JsonNode tree(Object v) {\n");
    s.append("    return switch (v.getClass().getName()) {\n");
    for (Map.Entry<Class<?>, String> c : classes.entrySet()) {
      s.append("      case \"").append(c.getKey().getName()).append("\" -> tree");
      s.append(c.getValue()).append("((").append(c.getKey().getCanonicalName());
      s.append(") v);\n");
    }
    s.append("      default -> null;\n    };\n  }\n\n");
    s.append(
        "  /** {@code t} bound to {@code type}; throws {@code MISMATCH} when not covered. */\n");
    s.append("  static Object bind(JsonNode t, Class<?> type) {\n");
    s.append("    return switch (type.getName()) {\n");
    for (Map.Entry<Class<?>, String> c : classes.entrySet()) {
      s.append("      case \"").append(c.getKey().getName()).append("\" -> bind");
      s.append(c.getValue()).append("(t);\n");
    }
    s.append("      default -> throw Fabric8Values.MISMATCH;\n    };\n  }\n\n");
    s.append("  /** Every class the generated code covers. */\n");
    s.append("  static final java.util.List<Class<?>> CLASSES =\n      java.util.List.of(");
    boolean first = true;
    for (Class<?> c : classes.keySet()) {
      s.append(first ? "\n          " : ",\n          ").append(c.getCanonicalName());
      s.append(".class");
      first = false;
    }
    s.append(");\n");
    return s.toString();
  }
}
