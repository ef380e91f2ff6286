package dev.jobc.schema;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.core.util.Separators;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.autoscaling.v2.MetricSpec;
import io.fabric8.kubernetes.api.model.batch.v1.JobTemplateSpec;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The published schema files are the hand-written job part ({@code schemas/src/schema-src/}) plus
 * the Kubernetes definitions generated from fabric8; this test fails when a committed file differs
 * from what the two give today.
 *
 * <p>{@code -Dschemas.update=true} rewrites the files and then aborts, so an update run never
 * counts as a pass; it refuses to run on CI.
 */
class SchemaFilesAreCurrentTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  private static final List<Class<?>> ROOTS =
      List.of(
          ObjectMeta.class,
          PodTemplateSpec.class,
          Quantity.class,
          IntOrString.class,
          MetricSpec.class,
          JobTemplateSpec.class);

  private static final Path SCHEMAS = projectDir().resolve("schemas");
  private static final Path SOURCES = SCHEMAS.resolve("src/schema-src");
  private static final Path PUBLISHED = SCHEMAS.resolve("src/main/resources/dev/jobc/schemas");

  @Test
  void publishedSchemasMatchTheirSources() throws IOException {
    Map<String, ObjectNode> generated = new KubernetesSchemaGenerator().generate(ROOTS);
    Map<String, String> expected = new TreeMap<>();
    for (Path source : list(SOURCES)) {
      String name = source.getFileName().toString();
      ObjectNode hand = (ObjectNode) JSON.readTree(Files.readString(source));
      expected.put(name, render(assemble(name, hand, generated)));
    }
    assertThat(expected).as("hand-written schema parts in %s", SOURCES).isNotEmpty();

    Set<String> published = new TreeSet<>();
    list(PUBLISHED).forEach(p -> published.add(p.getFileName().toString()));
    Set<String> stale = new TreeSet<>(published);
    stale.removeAll(expected.keySet());

    Map<String, String> drifted = new TreeMap<>();
    for (Map.Entry<String, String> e : expected.entrySet()) {
      Path file = PUBLISHED.resolve(e.getKey());
      String actual = Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : null;
      if (!e.getValue().equals(actual)) {
        drifted.put(e.getKey(), e.getValue());
      }
    }

    if (Boolean.getBoolean("schemas.update")) {
      if (System.getenv("CI") != null) {
        fail("-Dschemas.update=true refuses to run when CI is set");
      }
      for (Map.Entry<String, String> e : drifted.entrySet()) {
        Files.createDirectories(PUBLISHED);
        Files.writeString(PUBLISHED.resolve(e.getKey()), e.getValue(), StandardCharsets.UTF_8);
      }
      for (String name : stale) {
        Files.delete(PUBLISHED.resolve(name));
      }
      // Fail, not abort: an aborted test counts as skipped, and a build with skipped tests passes.
      fail(
          "schemas.update rewrote "
              + drifted.keySet()
              + ", deleted "
              + stale
              + "; review `git diff schemas/`, then run again without -Dschemas.update (an update"
              + " run always fails)");
    }

    assertThat(stale).as("published schemas without a source in %s", SOURCES).isEmpty();
    assertThat(drifted.keySet())
        .as(
            "schemas out of date; run `mvn -B -pl compiler -am test"
                + " -Dtest=SchemaFilesAreCurrentTest -Dsurefire.failIfNoSpecifiedTests=false"
                + " -Dschemas.update=true`")
        .isEmpty();
  }

  @Test
  void generatedDefinitionsCloseEveryObject() {
    Map<String, ObjectNode> generated = new KubernetesSchemaGenerator().generate(ROOTS);
    assertThat(generated)
        .containsKeys(
            "io.k8s.api.core.v1.PodTemplateSpec",
            "io.k8s.api.core.v1.Container",
            "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta");
    generated.forEach(
        (name, def) -> {
          if (def.has("properties")) {
            assertThat(def.get("additionalProperties").asBoolean(true)).as(name).isFalse();
            assertThat(def.get("properties").has("additionalProperties")).as(name).isFalse();
          }
        });
    assertThat(generated.get("io.k8s.api.core.v1.Container").get("required").toString())
        .isEqualTo("[\"name\"]");
  }

  @Test
  void everyPublishedSchemaIsKnownToTheValidator() throws IOException {
    List<String> published = list(PUBLISHED).stream().map(p -> p.getFileName().toString()).toList();
    assertThat(SchemaValidator.FILES).containsExactlyInAnyOrderElementsOf(published);
  }

  @Test
  void everySchemaHasTheAgreedShape() throws IOException {
    for (Path file : list(PUBLISHED)) {
      String name = file.getFileName().toString();
      JsonNode schema = JSON.readTree(Files.readString(file));
      assertThat(schema.get("$schema").asText())
          .isEqualTo("https://json-schema.org/draft/2020-12/schema");
      assertThat(schema.get("$id").asText()).isEqualTo("https://jobc.dev/schemas/" + name);
      assertThat(schema.get("title").asText()).isNotBlank();
      List<String> properties = new java.util.ArrayList<>();
      schema.get("properties").fieldNames().forEachRemaining(properties::add);
      assertThat(properties)
          .as(name)
          .containsExactlyInAnyOrder("apiVersion", "kind", "metadata", "spec", "status");
      assertThat(schema.get("required").toString())
          .isEqualTo("[\"apiVersion\",\"kind\",\"metadata\"]");
      // <kind>.<group>-<version>.schema.json
      String kind = name.substring(0, name.indexOf('.'));
      String group = name.substring(name.indexOf('.') + 1, name.lastIndexOf('-'));
      assertThat(schema.at("/properties/kind/const").asText()).isEqualToIgnoringCase(kind);
      assertThat(schema.at("/properties/apiVersion/const").asText())
          .isEqualTo(group + "/" + name.replaceAll(".*-(v[0-9a-z]+)\\.schema\\.json", "$1"));
      assertClosed(name, "", schema);
    }
  }

  /** Every object with declared properties rejects others (status declares none). */
  private static void assertClosed(String file, String pointer, JsonNode node) {
    if (node.isObject()) {
      if (node.has("properties")) {
        assertThat(node.path("additionalProperties").asBoolean(true))
            .as("%s%s is closed", file, pointer)
            .isFalse();
      }
      node.properties().forEach(e -> assertClosed(file, pointer + "/" + e.getKey(), e.getValue()));
    } else if (node.isArray()) {
      for (int i = 0; i < node.size(); i++) {
        assertClosed(file, pointer + "/" + i, node.get(i));
      }
    }
  }

  /**
   * Adds to the hand-written part every generated definition it reaches through {@code $ref}, and
   * sorts {@code $defs} by name. The hand part must not define what the generator owns.
   */
  static ObjectNode assemble(String name, ObjectNode hand, Map<String, ObjectNode> generated) {
    ObjectNode out = hand.deepCopy();
    String id = out.path("$id").asText();
    if (!id.equals("https://jobc.dev/schemas/" + name)) {
      throw new IllegalStateException(name + ": $id must be https://jobc.dev/schemas/" + name);
    }
    Map<String, JsonNode> defs = new TreeMap<>();
    JsonNode handDefs = out.remove("$defs");
    if (handDefs != null) {
      handDefs.properties().forEach(e -> defs.put(e.getKey(), e.getValue()));
    }
    Deque<JsonNode> pending = new ArrayDeque<>();
    pending.add(out);
    pending.addAll(defs.values());
    while (!pending.isEmpty()) {
      JsonNode node = pending.removeFirst();
      if (node.isObject() && node.path("$ref").isTextual()) {
        String ref = node.get("$ref").asText();
        if (!ref.startsWith(KubernetesSchemaGenerator.REF_PREFIX)) {
          throw new IllegalStateException(name + ": only local references are allowed: " + ref);
        }
        String target = ref.substring(KubernetesSchemaGenerator.REF_PREFIX.length());
        if (!defs.containsKey(target)) {
          ObjectNode def = generated.get(target);
          if (def == null) {
            throw new IllegalStateException(name + ": unresolved reference " + ref);
          }
          defs.put(target, def);
          pending.add(def);
        }
      }
      node.forEach(pending::add);
    }
    ObjectNode sorted = out.putObject("$defs");
    defs.forEach((key, def) -> sorted.set(key, def.deepCopy()));
    NullableFields.apply(out);
    return out;
  }

  /** Two-space indentation, {@code "key": value}, LF line ends and a final newline. */
  static String render(JsonNode schema) {
    DefaultIndenter indenter = new DefaultIndenter("  ", "\n");
    DefaultPrettyPrinter printer =
        new DefaultPrettyPrinter()
            .withSeparators(
                Separators.createDefaultInstance()
                    .withObjectFieldValueSpacing(Separators.Spacing.AFTER)
                    .withObjectEmptySeparator("")
                    .withArrayEmptySeparator(""))
            .withObjectIndenter(indenter)
            .withArrayIndenter(indenter);
    try {
      return JSON.writer(printer).writeValueAsString(schema) + "\n";
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static List<Path> list(Path dir) throws IOException {
    if (!Files.isDirectory(dir)) {
      return List.of();
    }
    try (Stream<Path> files = Files.list(dir)) {
      return files.filter(p -> p.toString().endsWith(".schema.json")).sorted().toList();
    }
  }

  // Surefire runs in the module directory and sets "basedir"; the schemas module is its sibling.
  private static Path projectDir() {
    Path module = Path.of(System.getProperty("basedir", System.getProperty("user.dir")));
    return module.toAbsolutePath().getParent();
  }
}
