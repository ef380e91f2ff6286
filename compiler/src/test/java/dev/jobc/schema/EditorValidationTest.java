package dev.jobc.schema;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The published schema files as an editor uses them: a plain JSON Schema validator (networknt,
 * draft 2020-12) on the file alone, none of {@link SchemaValidator}'s filtering. What jobc renders,
 * these files accept, so an editor never marks a job that jobc takes.
 */
class EditorValidationTest {
  private static final Path ROOT =
      Path.of(System.getProperty("basedir", System.getProperty("user.dir")))
          .toAbsolutePath()
          .getParent();
  private static final Path PUBLISHED = ROOT.resolve("schemas/src/main/resources/dev/jobc/schemas");
  private static final Path CASES = ROOT.resolve("golden/cases");

  /** "apiVersion kind" → the published schema of that pair, compiled as an editor would. */
  private final Map<String, Schema> schemas = new HashMap<>();

  EditorValidationTest() throws IOException {
    SchemaRegistry registry = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12);
    try (Stream<Path> files = Files.list(PUBLISHED)) {
      for (Path file : files.filter(f -> f.toString().endsWith(".schema.json")).toList()) {
        JsonNode root = new ObjectMapper().readTree(Files.readString(file));
        String pair =
            root.at("/properties/apiVersion/const").asText()
                + " "
                + root.at("/properties/kind/const").asText();
        schemas.put(pair, registry.getSchema(root));
      }
    }
    assertThat(schemas).hasSize(SchemaValidator.FILES.size());
  }

  @Test
  void explicitNullsOfOptionalFieldsPass() throws IOException {
    Path input = CASES.resolve("mpijob-v2beta1-explicit-nulls/input.yaml");
    assertThat(CASES.resolve("mpijob-v2beta1-explicit-nulls/expected.yaml")).exists();
    List<JsonNode> docs = documents(input);
    assertThat(docs).hasSize(1);
    assertThat(docs.get(0).at("/spec/mpiReplicaSpecs/Worker/template/spec/containers/0"))
        .as("the case writes fields with no value")
        .anySatisfy(field -> assertThat(field.isNull()).isTrue());
    assertThat(errors(docs.get(0))).isEmpty();
  }

  @Test
  void everyInputJobcRendersPasses() throws IOException {
    int checked = 0;
    List<Path> cases;
    try (Stream<Path> dirs = Files.list(CASES)) {
      cases = dirs.filter(d -> Files.exists(d.resolve("expected.yaml"))).sorted().toList();
    }
    for (Path dir : cases) {
      for (JsonNode doc : documents(dir.resolve("input.yaml"))) {
        if (schema(doc) != null) {
          assertThat(errors(doc)).as(dir.getFileName().toString()).isEmpty();
          checked++;
        }
      }
    }
    assertThat(checked).isGreaterThan(50);
  }

  @Test
  void nullStaysAnErrorWhereTheApiServerRejectsIt() throws IOException {
    String job =
        """
        apiVersion: kubeflow.org/v2beta1
        kind: MPIJob
        metadata:
          name: pi
        spec:
          mpiReplicaSpecs:
            Launcher:
              template:
                spec:
                  containers:
                  - %s
        """;
    assertThat(errors(yaml(job.formatted("name: launcher\n            image:")))).isEmpty();
    // A null list item, and required fields left null.
    assertThat(where(yaml(job.formatted("null"))))
        .containsExactly("type at /spec/mpiReplicaSpecs/Launcher/template/spec/containers/0");
    assertThat(where(yaml(job.formatted("name:\n            image: x"))))
        .containsExactly("type at /spec/mpiReplicaSpecs/Launcher/template/spec/containers/0/name");
    assertThat(where(yaml(job.formatted("name: launcher").replace("  name: pi\n", ""))))
        .containsExactly("type at /metadata");
  }

  /** Each error as its keyword at the instance location it names. */
  private List<String> where(JsonNode doc) {
    return errors(doc).stream()
        .map(e -> e.getKeyword() + " at " + e.getInstanceLocation())
        .toList();
  }

  private List<Error> errors(JsonNode doc) {
    Schema schema = schema(doc);
    assertThat(schema).as("a schema for %s", doc.path("kind")).isNotNull();
    return schema.validate(doc);
  }

  private Schema schema(JsonNode doc) {
    return schemas.get(doc.path("apiVersion").asText() + " " + doc.path("kind").asText());
  }

  private static List<JsonNode> documents(Path file) throws IOException {
    List<JsonNode> docs = new ArrayList<>();
    try (MappingIterator<JsonNode> it =
        new YAMLMapper().readerFor(JsonNode.class).readValues(Files.readString(file))) {
      while (it.hasNext()) {
        JsonNode doc = it.next();
        if (doc != null && doc.isObject()) {
          docs.add(doc);
        }
      }
    }
    return docs;
  }

  private static JsonNode yaml(String text) throws IOException {
    return new YAMLMapper().readTree(text);
  }
}
