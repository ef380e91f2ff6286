package dev.jobc.schema;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.jobc.diag.Code;
import dev.jobc.diag.Diagnostic;
import dev.jobc.diag.Position;
import dev.jobc.diag.Suggestions;
import dev.jobc.load.Document;
import dev.jobc.load.LoadResult;
import dev.jobc.load.SourceIndex;
import dev.jobc.load.YamlLimits;
import dev.jobc.load.YamlLoader;
import dev.jobc.model.Source;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SchemaValidatorTest {

  private static final SchemaValidator SCHEMAS = SchemaValidator.load();
  private static final YAMLMapper YAML = new YAMLMapper();
  private static final String MPIJOB = "MPIJob";
  private static final String V2BETA1 = "kubeflow.org/v2beta1";
  private static final String WORKER = "/spec/mpiReplicaSpecs/Worker";
  private static final String WORKER_PATH = "spec.mpiReplicaSpecs[Worker]";

  @Test
  void hasASchemaForEveryAcceptedVersionAndNoOther() {
    for (String version : dev.jobc.conventions.MpiEra.apiVersions()) {
      assertThat(SCHEMAS.supports(version, MPIJOB)).as(version).isTrue();
    }
    assertThat(SCHEMAS.supports("qihoo.net/v1alpha1", "DGLJob")).isTrue();
    assertThat(SCHEMAS.supports("kubeflow.org/v1", "TFJob")).isTrue();
    assertThat(SCHEMAS.supports("kubeflow.org/v2", "TFJob")).isFalse();
    assertThat(SCHEMAS.supports(V2BETA1, MPIJOB)).isTrue();
    assertThat(SCHEMAS.supports("kubeflow.org/v2", MPIJOB)).isFalse();
    assertThat(SCHEMAS.supports(V2BETA1, "Pod")).isFalse();
  }

  @Test
  void givesTheSchemaText() throws IOException {
    String text = SCHEMAS.schemaText(V2BETA1, MPIJOB);
    JsonNode schema = new ObjectMapper().readTree(text);
    assertThat(schema.get("$id").asText())
        .isEqualTo("https://jobc.dev/schemas/mpijob.kubeflow.org-v2beta1.schema.json");
    assertThat(text).endsWith("}\n");
    assertThat(SCHEMAS.schemaText("kubeflow.org/v3", MPIJOB)).isNull();
  }

  @Test
  void refusesUnsupportedKinds() {
    Document doc = document(resource("pi-v2beta1.yaml"));
    assertThatThrownBy(() -> SCHEMAS.validate(doc, "v1", "Pod"))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void upstreamV2beta1ExampleIsValid() {
    assertThat(validate(resource("pi-v2beta1.yaml"))).isEmpty();
  }

  @ParameterizedTest
  @CsvSource({
    "kubeflow.org/v1, pi-v1.yaml",
    "kubeflow.org/v1alpha2, pi-v1alpha2.yaml",
    "kubeflow.org/v1alpha1, tensorflow-benchmarks-v1alpha1.yaml"
  })
  void olderVersionExamplesAreValid(String apiVersion, String file) {
    assertThat(SCHEMAS.validate(document(resource(file)), apiVersion, MPIJOB)).isEmpty();
  }

  @Test
  void acceptsAnyStatusAndNullCreationTimestamp() {
    ObjectNode job = pi();
    job.putObject("status").putArray("conditions").addObject().put("type", "Created");
    ((ObjectNode) job.get("metadata")).putNull("creationTimestamp");
    assertThat(validate(job)).isEmpty();
  }

  @Test
  void suggestsTheClosestField() {
    ObjectNode job = pi();
    spec(job).set("slotPerWorker", spec(job).remove("slotsPerWorker"));

    assertThat(validate(job))
        .extracting(Diagnostic::code, Diagnostic::path, Diagnostic::message)
        .containsExactly(
            tuple(
                Code.UNKNOWN_FIELD,
                "spec.slotPerWorker",
                "unknown field \"slotPerWorker\"; did you mean \"slotsPerWorker\"?"));
  }

  @Test
  void suggestsNothingWhenNoFieldIsClose() {
    ObjectNode job = pi();
    spec(job).put("foo", 1);
    job.put("bar", true);

    assertThat(validate(job))
        .extracting(Diagnostic::code, Diagnostic::path, Diagnostic::message)
        .containsExactly(
            tuple(Code.UNKNOWN_FIELD, "bar", "unknown field \"bar\""),
            tuple(Code.UNKNOWN_FIELD, "spec.foo", "unknown field \"foo\""));
  }

  @Test
  void findsUnknownFieldsInsidePodTemplates() {
    ObjectNode job = pi();
    ObjectNode container = container(job, "Worker");
    container.set("imagee", container.remove("image"));

    assertThat(validate(job))
        .extracting(Diagnostic::code, Diagnostic::path, Diagnostic::message)
        .containsExactly(
            tuple(
                Code.UNKNOWN_FIELD,
                WORKER_PATH + ".template.spec.containers[0].imagee",
                "unknown field \"imagee\"; did you mean \"image\"?"));
  }

  @Test
  void fabric8CatchAllDoesNotLeak() {
    ObjectNode job = pi();
    container(job, "Launcher").putObject("additionalProperties").put("x", "y");

    assertThat(validate(job))
        .extracting(Diagnostic::code, Diagnostic::path)
        .containsExactly(
            tuple(
                Code.UNKNOWN_FIELD,
                "spec.mpiReplicaSpecs[Launcher].template.spec.containers[0].additionalProperties"));
  }

  @Test
  void reportsUnknownReplicaTypesOnceWithAHint() {
    ObjectNode job = pi();
    ObjectNode specs = (ObjectNode) spec(job).get("mpiReplicaSpecs");
    specs.set("Wroker", specs.remove("Worker"));

    assertThat(validate(job))
        .extracting(Diagnostic::code, Diagnostic::path, Diagnostic::message)
        .containsExactly(
            tuple(
                Code.UNKNOWN_FIELD,
                "spec.mpiReplicaSpecs[Wroker]",
                "unknown field \"Wroker\"; did you mean \"Worker\"?"));
  }

  @Test
  void reportsWrongTypes() {
    ObjectNode job = pi();
    worker(job).put("replicas", "2");
    spec(job).put("runLauncherAsWorker", "yes please");
    ((ObjectNode) job.get("metadata")).putArray("labels");

    assertThat(validate(job))
        .extracting(Diagnostic::code, Diagnostic::path, Diagnostic::message)
        .containsExactlyInAnyOrder(
            tuple(Code.SCHEMA, WORKER_PATH + ".replicas", "must be an integer, not a string"),
            tuple(Code.SCHEMA, "spec.runLauncherAsWorker", "must be a boolean, not a string"),
            tuple(Code.SCHEMA, "metadata.labels", "must be a map, not a list"));
  }

  @Test
  void reportsIntegersOutOfTheirGoRange() {
    ObjectNode job = pi();
    worker(job).put("replicas", 3_000_000_000L);
    ((ObjectNode) spec(job).get("runPolicy")).put("ttlSecondsAfterFinished", -3_000_000_000L);

    assertThat(validate(job))
        .extracting(Diagnostic::code, Diagnostic::path, Diagnostic::message)
        .containsExactlyInAnyOrder(
            tuple(Code.SCHEMA, WORKER_PATH + ".replicas", "must be at most 2147483647"),
            tuple(
                Code.SCHEMA,
                "spec.runPolicy.ttlSecondsAfterFinished",
                "must be at least -2147483648"));
  }

  @Test
  void describesNumbersAndNullsInYamlWords() {
    ObjectNode job = pi();
    ObjectNode runPolicy = (ObjectNode) spec(job).get("runPolicy");
    runPolicy.put("activeDeadlineSeconds", new java.math.BigInteger("99999999999999999999"));
    runPolicy.put("backoffLimit", 2.5);
    container(job, "Worker").putNull("securityContext");

    assertThat(validate(job))
        .extracting(Diagnostic::code, Diagnostic::path, Diagnostic::message)
        .containsExactlyInAnyOrder(
            tuple(
                Code.SCHEMA,
                "spec.runPolicy.activeDeadlineSeconds",
                "must be at most 9223372036854775807"),
            tuple(Code.SCHEMA, "spec.runPolicy.backoffLimit", "must be an integer, not a number"));
  }

  @Test
  void explicitNullMeansNotSetAsInKubectl() {
    ObjectNode job = pi();
    container(job, "Worker").putNull("securityContext");
    container(job, "Worker").putNull("resources");
    assertThat(validate(job)).isEmpty();
  }

  @Test
  void leavesEnumViolationsToTheSemanticValidator() {
    ObjectNode job = pi();
    ((ObjectNode) spec(job).get("runPolicy")).put("cleanPodPolicy", "Sometimes");
    spec(job).put("mpiImplementation", "LAM");
    worker(job).put("restartPolicy", "Maybe");

    assertThat(validate(job)).isEmpty();
  }

  @Test
  void reportsIntOrStringAndQuantityAlternativesOnce() {
    ObjectNode job = pi();
    ObjectNode container = container(job, "Worker");
    container.putObject("livenessProbe").putObject("tcpSocket").put("port", true);
    ObjectNode limits = (ObjectNode) container.get("resources").get("limits");
    limits.put("nvidia.com/gpu", "two");
    limits.putArray("memory").add(1);

    String base = WORKER_PATH + ".template.spec.containers[0].";
    assertThat(validate(job))
        .extracting(Diagnostic::code, Diagnostic::path, Diagnostic::message)
        .containsExactlyInAnyOrder(
            tuple(
                Code.SCHEMA,
                base + "livenessProbe.tcpSocket.port",
                "must be an integer or a string, not a boolean"),
            tuple(
                Code.SCHEMA,
                base + "resources.limits[nvidia.com/gpu]",
                "must be a quantity such as 2, 500m or 1Gi, not \"two\""),
            tuple(
                Code.SCHEMA,
                base + "resources.limits[memory]",
                "must be a quantity such as 2, 500m or 1Gi, not a list"));
  }

  @Test
  void acceptsQuantitiesInTheirUsualForms() {
    ObjectNode job = pi();
    ObjectNode limits = (ObjectNode) container(job, "Worker").get("resources").get("limits");
    limits.put("cpu", 0.5).put("memory", "1.5Gi").put("ephemeral-storage", "1e9");
    limits.put("example.com/foo", "100m").put("hugepages-2Mi", 4);
    container(job, "Worker").putArray("ports").addObject().put("containerPort", 2222);
    container(job, "Worker").putObject("readinessProbe").putObject("httpGet").put("port", "http");

    assertThat(validate(job)).isEmpty();
  }

  @Test
  void reportsMissingRequiredKubernetesFields() {
    ObjectNode job = pi();
    container(job, "Launcher").remove("name");
    container(job, "Worker").putArray("volumeMounts").addObject().put("name", "data");

    String base = ".template.spec.containers[0].";
    assertThat(validate(job))
        .extracting(Diagnostic::code, Diagnostic::path)
        .containsExactly(
            tuple(Code.REQUIRED, "spec.mpiReplicaSpecs[Launcher]" + base + "name"),
            tuple(Code.REQUIRED, WORKER_PATH + base + "volumeMounts[0].mountPath"));
  }

  @Test
  void reportsMissingTopLevelFields() {
    ObjectNode job = pi();
    job.remove("metadata");

    assertThat(validate(job))
        .extracting(Diagnostic::code, Diagnostic::path)
        .containsExactly(tuple(Code.REQUIRED, "metadata"));
  }

  @Test
  void pointsAtTheKeyOfUnknownFieldsAndTheValueOfBadValues() throws Exception {
    ObjectNode job = pi();
    spec(job).put("slotPerWorker", 2);
    worker(job).put("replicas", "2");
    String text = YAML.writeValueAsString(job);
    Document doc = loaded(text);
    Position key = find(text, "slotPerWorker:");
    Position replicas = find(text, "replicas: \"2\"");
    Position value = new Position(replicas.line(), replicas.column() + "replicas: ".length());

    assertThat(SCHEMAS.validate(doc, V2BETA1, MPIJOB))
        .extracting(Diagnostic::format)
        .containsExactlyInAnyOrder(
            "job.yaml:"
                + key.line()
                + ":"
                + key.column()
                + ": error: spec.slotPerWorker: unknown field \"slotPerWorker\"; did you"
                + " mean \"slotsPerWorker\"?",
            "job.yaml:"
                + value.line()
                + ":"
                + value.column()
                + ": error: spec.mpiReplicaSpecs[Worker].replicas: must be an integer,"
                + " not a string");
  }

  @Test
  void sortsByPositionAndDropsDuplicates() throws Exception {
    ObjectNode job = pi();
    spec(job).put("zzz", 1);
    job.put("aaa", 1);
    Document doc = loaded(YAML.writeValueAsString(job));

    List<Diagnostic> found = SCHEMAS.validate(doc, V2BETA1, MPIJOB);
    assertThat(found).extracting(Diagnostic::path).containsExactly("spec.zzz", "aaa");
    assertThat(found).doesNotHaveDuplicates();
  }

  /** {@code text} loaded as the one document of job.yaml, with the positions of that text. */
  private static Document loaded(String text) {
    LoadResult r = new YamlLoader(YamlLimits.defaults()).load(new Source("job.yaml", text));
    assertThat(r.diagnostics()).isEmpty();
    return r.documents().get(0);
  }

  /** Where {@code needle} first occurs in {@code text}. */
  private static Position find(String text, String needle) {
    int at = text.indexOf(needle);
    assertThat(at).as(needle).isNotNegative();
    int line = 1 + (int) text.substring(0, at).chars().filter(c -> c == '\n').count();
    return new Position(line, at - text.lastIndexOf('\n', at - 1));
  }

  @Test
  void givesTheSameAnswerEveryTime() {
    ObjectNode bad = pi();
    spec(bad).put("slotPerWorker", 2);
    worker(bad).put("replicas", "2");
    Document valid = document(pi());
    Document invalid = document(bad);
    List<Diagnostic> expected = SCHEMAS.validate(invalid, V2BETA1, MPIJOB);
    assertThat(expected).hasSize(2);

    for (int i = 0; i < 10_000; i++) {
      assertThat(SCHEMAS.validate(valid, V2BETA1, MPIJOB)).isEmpty();
      assertThat(SCHEMAS.validate(invalid, V2BETA1, MPIJOB)).isEqualTo(expected);
    }
    // Shared across threads, as the CLI and the Maven plugin do.
    assertThat(
            IntStream.range(0, 2_000)
                .parallel()
                .mapToObj(i -> SCHEMAS.validate(i % 2 == 0 ? valid : invalid, V2BETA1, MPIJOB))
                .distinct())
        .containsExactlyInAnyOrder(List.of(), expected);
  }

  @ParameterizedTest
  @CsvSource({
    "slotPerWorker, slotsPerWorker",
    "imagee, image",
    "contianers, containers",
    "Launcher, Launcher",
    "launcher, Launcher",
    "mpiImplmentation, mpiImplementation",
    "foo, ''",
    "x, ''",
  })
  void suggestsOnlyCloseNames(String typed, String expected) {
    ObjectNode known = new ObjectMapper().createObjectNode();
    for (String name :
        List.of(
            "slotsPerWorker",
            "image",
            "containers",
            "Launcher",
            "Worker",
            "os",
            "mpiImplementation")) {
      known.putObject(name);
    }
    String suggestion = SchemaValidator.suggestion(typed, known);
    assertThat(suggestion == null ? "" : suggestion).isEqualTo(expected);
  }

  @Test
  void distanceCountsTranspositionsAsOneEdit() {
    assertThat(Suggestions.distance("contianers", "containers")).isEqualTo(1);
    assertThat(Suggestions.distance("", "abc")).isEqualTo(3);
    assertThat(Suggestions.distance("kitten", "sitting")).isEqualTo(3);
  }

  // ----- helpers ----------------------------------------------------------------------------

  private static List<Diagnostic> validate(JsonNode job) {
    return SCHEMAS.validate(document(job), V2BETA1, MPIJOB);
  }

  /** A document without positions: these tests are about paths and messages. */
  private static Document document(JsonNode root) {
    SourceIndex none = SourceIndex.startingAt(new Position(1, 1));
    return new Document(new Source("test.yaml", ""), 0, root, none);
  }

  private static ObjectNode pi() {
    return (ObjectNode) resource("pi-v2beta1.yaml");
  }

  private static ObjectNode spec(ObjectNode job) {
    return (ObjectNode) job.get("spec");
  }

  private static ObjectNode worker(ObjectNode job) {
    return (ObjectNode) spec(job).get("mpiReplicaSpecs").get("Worker");
  }

  private static ObjectNode container(ObjectNode job, String role) {
    JsonNode replica = spec(job).get("mpiReplicaSpecs").get(role);
    return (ObjectNode) ((ArrayNode) replica.get("template").get("spec").get("containers")).get(0);
  }

  private static JsonNode resource(String name) {
    try (InputStream in = SchemaValidatorTest.class.getResourceAsStream(name)) {
      return YAML.readTree(new String(in.readAllBytes(), StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
