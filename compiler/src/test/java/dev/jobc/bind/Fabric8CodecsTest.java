package dev.jobc.bind;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.introspect.BeanPropertyDefinition;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jobc.CaseOptions;
import dev.jobc.dgl.DglJob;
import dev.jobc.dgl.DglJobKind;
import dev.jobc.diag.Finding;
import dev.jobc.jax.JaxJob;
import dev.jobc.jax.JaxJobKind;
import dev.jobc.kind.JobKind;
import dev.jobc.load.Document;
import dev.jobc.load.YamlLimits;
import dev.jobc.load.YamlLoader;
import dev.jobc.model.Source;
import dev.jobc.mpi.MpiJob;
import dev.jobc.mpi.MpiJobKind;
import dev.jobc.options.CompileOptions;
import dev.jobc.paddle.PaddleJob;
import dev.jobc.paddle.PaddleJobKind;
import dev.jobc.pytorch.PyTorchJob;
import dev.jobc.pytorch.PyTorchJobKind;
import dev.jobc.render.Templates;
import dev.jobc.render.YamlWriter;
import dev.jobc.tf.TfJob;
import dev.jobc.tf.TfJobKind;
import dev.jobc.xgboost.XGBoostJob;
import dev.jobc.xgboost.XGBoostJobKind;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.Quantity;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The generated {@link Fabric8Codecs} and {@link RecordBinding}, and the generated YAML writing of
 * {@link YamlWriter#writeObject}, are shortcuts: every tree and every bound value they give must be
 * the one Jackson gives, and every document the one written from Jackson's tree, on every class
 * they cover and on every golden case.
 */
class Fabric8CodecsTest {
  private static final Path CASES = Path.of("..", "golden", "cases");
  private static final ObjectMapper JSON = JsonMapper.builder().build();
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final Templates TEMPLATES = new Templates();
  private static final YamlWriter WRITER = new YamlWriter();
  private static final Map<String, JobKind<?, ?, ?>> KINDS =
      Map.of(
          "MPIJob", new MpiJobKind(TEMPLATES),
          "DGLJob", new DglJobKind(TEMPLATES),
          "TFJob", new TfJobKind(),
          "PyTorchJob", new PyTorchJobKind(),
          "XGBoostJob", new XGBoostJobKind(),
          "JAXJob", new JaxJobKind(),
          "PaddleJob", new PaddleJobKind());
  private static final Map<String, Class<?>> JOB_TYPES =
      Map.of(
          "MPIJob", MpiJob.class,
          "DGLJob", DglJob.class,
          "TFJob", TfJob.class,
          "PyTorchJob", PyTorchJob.class,
          "XGBoostJob", XGBoostJob.class,
          "JAXJob", JaxJob.class,
          "PaddleJob", PaddleJob.class);

  static Stream<Class<?>> coveredClasses() {
    return Fabric8Codecs.CLASSES.stream();
  }

  /**
   * A tree with every property of the class that the generated code reads, each with a value of its
   * declared type, nested classes filled the same way: the generated binding takes all of it (no
   * field is left to Jackson) and gives what Jackson gives, and the tree of that value is
   * Jackson's, key order included.
   */
  @ParameterizedTest
  @MethodSource("coveredClasses")
  void everyPropertyOfEveryCoveredClassConvertsAsJacksonConverts(Class<?> type) {
    for (boolean empty : new boolean[] {false, true}) {
      ObjectNode tree = filled(JSON.constructType(type), 0, empty);

      Object jackson = ObjectTrees.jacksonBind(tree, type);
      assertThat(Fabric8Codecs.bind(tree, type)).as("%s from %s", type, tree).isEqualTo(jackson);
      assertThat(ObjectTrees.tree(jackson).toString())
          .as("%s from %s", type, tree)
          .isEqualTo(ObjectTrees.tokenBufferTree(jackson).toString());
      // Written straight from the object, it is the YAML of its tree, and nothing is left over.
      assertThat(WRITER.writeObject(jackson))
          .as("%s from %s", type, tree)
          .isEqualTo(WRITER.write(ObjectTrees.tokenBufferTree(jackson), true));
    }
  }

  /** The coverage the codecs exist for: pod templates and what jobc writes. */
  @Test
  void theClassesJobcReadsAndWritesAreCovered() {
    assertThat(Fabric8Codecs.CLASSES)
        .contains(
            PodTemplateSpec.class,
            Container.class,
            io.fabric8.kubernetes.api.model.apps.StatefulSet.class,
            io.fabric8.kubernetes.api.model.batch.v1.Job.class,
            io.fabric8.kubernetes.api.model.Service.class,
            io.fabric8.kubernetes.api.model.ConfigMap.class,
            io.fabric8.kubernetes.api.model.rbac.Role.class,
            io.fabric8.kubernetes.api.model.rbac.RoleBinding.class,
            io.fabric8.kubernetes.api.model.ServiceAccount.class)
        .doesNotContain(Quantity.class, IntOrString.class);
  }

  /**
   * What the shortcut leaves to Jackson still converts as Jackson converts: additional properties,
   * values of another type than declared (Jackson coerces them), nulls, fractions as quantities.
   */
  @Test
  void whatTheShortcutLeavesToJacksonConvertsAsJacksonConverts() throws IOException {
    String[] trees = {
      "{\"name\": \"c\", \"image\": 5, \"unknown\": {\"a\": [1, null]}}",
      "{\"name\": \"c\", \"args\": null, \"resources\": {\"limits\": {\"cpu\": 0.5}}}",
      "{\"name\": \"c\", \"stdin\": \"true\", \"ports\": [{\"containerPort\": \"80\"}]}",
      "{\"name\": \"c\", \"resources\": {\"limits\": {\"cpu\": {\"amount\": \"1\"}}}}",
      "{\"name\": \"c\", \"livenessProbe\": {\"tcpSocket\": {\"port\": true}}}"
    };
    for (String text : trees) {
      JsonNode tree = JSON.readTree(text);
      assertThatThrownBy(() -> Fabric8Codecs.bind(tree, Container.class))
          .isSameAs(Fabric8Values.MISMATCH);
      Container jackson;
      try {
        jackson = ObjectTrees.jacksonBind(tree, Container.class);
      } catch (IllegalArgumentException e) {
        assertThatThrownBy(() -> ObjectTrees.bind(tree, Container.class))
            .hasMessage(e.getMessage());
        continue;
      }
      Container bound = ObjectTrees.bind(tree, Container.class);
      assertThat(bound).as(text).isEqualTo(jackson);
      assertThat(ObjectTrees.tree(bound).toString())
          .as(text)
          .isEqualTo(ObjectTrees.tokenBufferTree(bound).toString());
    }
    Container withExtra = new Container();
    withExtra.setName("c");
    withExtra.setAdditionalProperty("extra", List.of(1, "two"));
    withExtra.setCommand(List.of());
    assertThat(ObjectTrees.tree(withExtra).toString())
        .isEqualTo(ObjectTrees.tokenBufferTree(withExtra).toString());
  }

  static Stream<Path> cases() throws IOException {
    try (Stream<Path> dirs = Files.list(CASES)) {
      return dirs.filter(d -> Files.exists(d.resolve("input.yaml"))).sorted().toList().stream();
    }
  }

  /**
   * Every job of every golden case binds as Jackson binds it (or fails with Jackson's message), and
   * every object jobc generates from it has Jackson's tree.
   */
  @ParameterizedTest
  @MethodSource("cases")
  void everyGoldenJobBindsAndEveryGeneratedObjectWritesAsWithJackson(Path dir) throws IOException {
    String text = Files.readString(dir.resolve("input.yaml"));
    for (Document doc :
        new YamlLoader(YamlLimits.defaults()).load(new Source("in", text)).documents()) {
      String kind = doc.root().path("kind").asText();
      Class<?> type = JOB_TYPES.get(kind);
      if (type == null
          || !KINDS.get(kind).apiVersions().contains(doc.root().path("apiVersion").asText())) {
        continue;
      }
      Object jackson;
      try {
        jackson = ObjectTrees.jacksonBind(doc.root(), type);
      } catch (IllegalArgumentException e) {
        assertThatThrownBy(() -> ObjectTrees.bind(doc.root(), type)).hasMessage(e.getMessage());
        continue;
      }
      // Compared as Jackson writes them: equals() of an invalid quantity throws.
      assertThat(ObjectTrees.tokenBufferTree(ObjectTrees.bind(doc.root(), type)))
          .isEqualTo(ObjectTrees.tokenBufferTree(jackson));
      for (Object object : generated(KINDS.get(kind), doc.root(), CaseOptions.of(dir))) {
        JsonNode jacksonTree = ObjectTrees.tokenBufferTree(object);
        assertThat(ObjectTrees.tree(object).toString()).isEqualTo(jacksonTree.toString());
        // Null where it is left to the tree: additional properties (this case's unknown fields).
        String direct = WRITER.writeObject(object);
        if (direct != null) {
          assertThat(direct).isEqualTo(WRITER.write(jacksonTree, true));
        }
      }
    }
  }

  /**
   * The example users start with takes the shortcuts all the way: nothing is left to Jackson, and
   * every object it renders but the kinds without generated code is written without a tree.
   */
  @Test
  void theExampleJobTakesTheShortcutsAllTheWay() throws IOException {
    String text = Files.readString(Path.of("..", "examples", "pi.yaml"));
    JsonNode root =
        new YamlLoader(YamlLimits.defaults())
            .load(new Source("pi.yaml", text))
            .documents()
            .get(0)
            .root();

    assertThat(RecordBinding.bind(root, MpiJob.class))
        .isEqualTo(ObjectTrees.jacksonBind(root, MpiJob.class));
    List<?> objects = generated(KINDS.get("MPIJob"), root, CompileOptions.defaults());
    assertThat(objects).hasSizeGreaterThan(5);
    for (Object object : objects) {
      assertThat(WRITER.writeObject(object))
          .isEqualTo(WRITER.write(ObjectTrees.tokenBufferTree(object), true));
    }
  }

  private static <J, M, P> List<?> generated(
      JobKind<J, M, P> kind, JsonNode root, CompileOptions options) {
    M model = kind.defaults(kind.bind(root), options);
    if (kind.renderedElsewhere(model) != null
        || kind.validate(model).stream().anyMatch(Finding::isError)) {
      return List.of();
    }
    return kind.generate(kind.plan(model));
  }

  /**
   * A tree for {@code type} with every settable property (or, with {@code empty}, every property
   * with an empty value where it can hold one: "", [], {}), nested classes to a depth of 3.
   */
  private static ObjectNode filled(JavaType type, int depth, boolean empty) {
    ObjectNode tree = NODES.objectNode();
    if (depth > 3) {
      return tree;
    }
    var description = JSON.getDeserializationConfig().introspect(type);
    int i = 0;
    for (BeanPropertyDefinition p : description.findProperties()) {
      if (!p.hasSetter()) {
        continue;
      }
      JsonNode value = value(p.getSetter().getParameterType(0), depth, empty, i++);
      if (value != null) {
        tree.set(p.getName(), value);
      }
    }
    return tree;
  }

  private static JsonNode value(JavaType type, int depth, boolean empty, int seed) {
    Class<?> raw = type.getRawClass();
    if (raw == String.class) {
      return NODES.textNode(empty ? "" : "s" + seed);
    }
    if (raw == Integer.class) {
      return NODES.numberNode(seed);
    }
    if (raw == Long.class) {
      return NODES.numberNode(10_000_000_000L + seed);
    }
    if (raw == Boolean.class) {
      return NODES.booleanNode(seed % 2 == 0);
    }
    if (raw == Quantity.class) {
      return seed % 2 == 0 ? NODES.textNode("1500m") : NODES.numberNode(seed);
    }
    if (raw == IntOrString.class) {
      return seed % 2 == 0 ? NODES.textNode("http") : NODES.numberNode(8000 + seed);
    }
    if (raw == List.class) {
      ArrayNode array = NODES.arrayNode();
      JsonNode item = empty ? null : value(type.getContentType(), depth + 1, false, seed);
      if (item != null) {
        array.add(item);
      }
      return array;
    }
    if (raw == Map.class) {
      ObjectNode map = NODES.objectNode();
      JsonNode item = empty ? null : value(type.getContentType(), depth + 1, false, seed);
      if (item != null) {
        map.set("k" + seed, item);
      }
      return map;
    }
    if (Fabric8Codecs.CLASSES.contains(raw)) {
      return filled(type, depth + 1, empty);
    }
    return null; // a type the generated code leaves to Jackson: not part of the shortcut's test
  }
}
