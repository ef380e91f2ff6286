package dev.jobc.schema;

import com.fasterxml.jackson.core.JsonPointer;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SchemaRegistryConfig;
import com.networknt.schema.SpecificationVersion;
import com.networknt.schema.path.NodePath;
import dev.jobc.diag.Code;
import dev.jobc.diag.Diagnostic;
import dev.jobc.diag.FieldPath;
import dev.jobc.diag.Position;
import dev.jobc.diag.Quoting;
import dev.jobc.diag.Suggestions;
import dev.jobc.load.Document;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Checks a raw document tree against the JSON Schema of its kind and version, and turns every
 * violation into a {@link Diagnostic} with an upstream-style field path; immutable and thread-safe.
 *
 * <p>This is the only class that knows networknt's json-schema-validator, and the only one that
 * knows where the schema files live on the classpath.
 */
public final class SchemaValidator {

  /** Where the schema files live on the classpath (the {@code jobc-schemas} jar). */
  static final String CLASSPATH_DIR = "dev/jobc/schemas/";

  /** The prefix of every schema's {@code $id}; mapped to {@link #CLASSPATH_DIR}. */
  static final String ID_PREFIX = "https://jobc.dev/schemas/";

  /** Every schema file jobc ships; each names its apiVersion and kind in {@code const}s. */
  static final List<String> FILES =
      List.of(
          "dgljob.qihoo.net-v1alpha1.schema.json",
          "mpijob.kubeflow.org-v1alpha1.schema.json",
          "mpijob.kubeflow.org-v1alpha2.schema.json",
          "mpijob.kubeflow.org-v1.schema.json",
          "mpijob.kubeflow.org-v2beta1.schema.json",
          "tfjob.kubeflow.org-v1.schema.json",
          "pytorchjob.kubeflow.org-v1.schema.json",
          "xgboostjob.kubeflow.org-v1.schema.json",
          "jaxjob.kubeflow.org-v1.schema.json",
          "paddlejob.kubeflow.org-v1.schema.json",
          "trainjob.trainer.kubeflow.org-v1alpha1.schema.json",
          "trainingruntime.trainer.kubeflow.org-v1alpha1.schema.json",
          "clustertrainingruntime.trainer.kubeflow.org-v1alpha1.schema.json");

  private static final String QUANTITY_DEF = "io.k8s.apimachinery.pkg.api.resource.Quantity";

  /** Kinds by the lower-case prefix of their schema file names. */
  private static final Map<String, String> KINDS =
      Map.of(
          "mpijob",
          "MPIJob",
          "dgljob",
          "DGLJob",
          "tfjob",
          "TFJob",
          "pytorchjob",
          "PyTorchJob",
          "xgboostjob",
          "XGBoostJob",
          "jaxjob",
          "JAXJob",
          "paddlejob",
          "PaddleJob",
          "trainjob",
          "TrainJob",
          "trainingruntime",
          "TrainingRuntime",
          "clustertrainingruntime",
          "ClusterTrainingRuntime");

  /** One compiled schema and what it was made from. */
  private record Entry(String apiVersion, String kind, String text, JsonNode root, Schema schema) {}

  /** kind → apiVersion → schema file; both levels sorted. Known without reading any file. */
  private final Map<String, Map<String, String>> files;

  /** file → compiled schema, filled on first use: a CLI run pays only for the kinds it reads. */
  private final Map<String, Entry> compiled = new ConcurrentHashMap<>();

  private volatile SchemaRegistry registry;

  private SchemaValidator(Map<String, Map<String, String>> files) {
    this.files = files;
  }

  /**
   * Indexes every schema jobc ships; each is read and compiled once, on first use. Share the
   * result; it never touches the network (the {@code $id} prefix resolves to the classpath, and
   * remote fetching is off).
   */
  public static SchemaValidator load() {
    Map<String, Map<String, String>> files = new TreeMap<>();
    for (String file : FILES) {
      // <kind>.<group>-<version>.schema.json; the file's own consts are checked on compile.
      String base = file.substring(0, file.length() - ".schema.json".length());
      int dot = base.indexOf('.');
      int dash = base.lastIndexOf('-');
      String kind = KINDS.get(base.substring(0, dot));
      String apiVersion = base.substring(dot + 1, dash) + "/" + base.substring(dash + 1);
      if (kind == null) {
        throw new IllegalStateException("no kind known for schema " + file);
      }
      files.computeIfAbsent(kind, k -> new TreeMap<>()).put(apiVersion, file);
    }
    files.replaceAll((kind, versions) -> Collections.unmodifiableMap(versions));
    return new SchemaValidator(Collections.unmodifiableMap(files));
  }

  private SchemaRegistry registry() {
    SchemaRegistry r = registry;
    if (r == null) {
      synchronized (this) {
        r = registry;
        if (r == null) {
          r = newRegistry();
          registry = r;
        }
      }
    }
    return r;
  }

  private static SchemaRegistry newRegistry() {
    return SchemaRegistry.withDefaultDialect(
        SpecificationVersion.DRAFT_2020_12,
        builder ->
            builder
                .schemaRegistryConfig(
                    SchemaRegistryConfig.builder()
                        // Messages are built here from keywords and arguments; ROOT keeps
                        // networknt's fallback text independent of the user's locale.
                        .locale(Locale.ROOT)
                        .preloadSchema(true)
                        .build())
                .schemaLoader(
                    loader ->
                        loader
                            .fetchRemoteResources(false)
                            .schemaIdResolvers(
                                ids -> ids.mapPrefix(ID_PREFIX, "classpath:" + CLASSPATH_DIR))));
  }

  /**
   * Reads and compiles one schema file.
   *
   * @throws IllegalStateException if the file is missing or malformed (a packaging defect)
   */
  private Entry compile(String file) {
    String text = read(file);
    JsonNode root;
    try {
      root = new ObjectMapper().readTree(text);
    } catch (IOException e) {
      throw new IllegalStateException("malformed schema " + file, e);
    }
    String apiVersion = root.path("properties").path("apiVersion").path("const").asText("");
    String kind = root.path("properties").path("kind").path("const").asText("");
    if (apiVersion.isEmpty()
        || kind.isEmpty()
        || !root.path("$id").asText().equals(ID_PREFIX + file)) {
      throw new IllegalStateException(file + " must name its $id, apiVersion and kind");
    }
    Schema schema = registry().getSchema(SchemaLocation.of(ID_PREFIX + file), root);
    // Resolve every $ref now, so validation never compiles lazily from several threads.
    schema.initializeValidators();
    return new Entry(apiVersion, kind, text, root, schema);
  }

  private static String read(String file) {
    try (InputStream in =
        SchemaValidator.class.getClassLoader().getResourceAsStream(CLASSPATH_DIR + file)) {
      if (in == null) {
        throw new IllegalStateException("schema not on the classpath: " + CLASSPATH_DIR + file);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** True when jobc has a schema for this apiVersion and kind. */
  public boolean supports(String apiVersion, String kind) {
    return file(apiVersion, kind) != null;
  }

  /** The schema file's text (what {@code jobc schema} prints), or null when unsupported. */
  public String schemaText(String apiVersion, String kind) {
    Entry entry = entry(apiVersion, kind);
    return entry == null ? null : entry.text();
  }

  private String file(String apiVersion, String kind) {
    Map<String, String> versions = files.get(kind);
    return versions == null ? null : versions.get(apiVersion);
  }

  private Entry entry(String apiVersion, String kind) {
    String file = file(apiVersion, kind);
    if (file == null) {
      return null;
    }
    Entry entry = compiled.computeIfAbsent(file, this::compile);
    if (!entry.apiVersion().equals(apiVersion) || !entry.kind().equals(kind)) {
      throw new IllegalStateException(
          file + " declares " + entry.apiVersion() + " " + entry.kind());
    }
    return entry;
  }

  /**
   * Every schema violation of {@code doc} against the schema of {@code apiVersion}/{@code kind},
   * sorted by position, then path; empty when the document is valid.
   *
   * <p>{@code enum} violations are left out on purpose: the semantic validator reports them with
   * upstream's wording and list of supported values.
   *
   * @throws IllegalArgumentException if the apiVersion/kind is not {@linkplain #supports supported}
   */
  public List<Diagnostic> validate(Document doc, String apiVersion, String kind) {
    Entry entry = entry(apiVersion, kind);
    if (entry == null) {
      throw new IllegalArgumentException("no schema for " + apiVersion + ", Kind=" + kind);
    }
    List<Error> errors = entry.schema().validate(doc.root());
    if (errors.isEmpty()) {
      return List.of();
    }
    Set<Diagnostic> out = new TreeSet<>(Diagnostic.ORDER);
    // anyOf/oneOf report one error per failed branch; they become one diagnostic per location.
    Set<String> alternativesSeen = new HashSet<>();
    for (Error error : errors) {
      Diagnostic d = diagnose(doc, entry, error, alternativesSeen);
      if (d != null) {
        out.add(d);
      }
    }
    return List.copyOf(out);
  }

  private static Diagnostic diagnose(
      Document doc, Entry entry, Error error, Set<String> alternativesSeen) {
    String keyword = error.getKeyword();
    String instance = pointer(error.getInstanceLocation());
    String file = doc.source().name();
    List<Object> fragment = elements(error.getSchemaLocation().getFragment());
    int alternatives = indexOfAlternatives(fragment);
    if (alternatives >= 0) {
      String group = instance + "#" + fragment.subList(0, alternatives + 1);
      if (!alternativesSeen.add(group)) {
        return null;
      }
      FieldPath path = fieldPath(doc, instance);
      JsonNode branches = at(entry.root(), fragment.subList(0, alternatives + 1));
      String message = alternativesMessage(fragment, branches, error.getInstanceNode());
      return Diagnostic.error(Code.SCHEMA, file, doc.positions().valueAt(path), path, message);
    }
    switch (keyword) {
      case "enum":
      case "propertyNames": // the same key is reported by additionalProperties, with a hint
        return null;
      case "additionalProperties":
        {
          String name = error.getProperty();
          FieldPath path = fieldPath(doc, child(instance, name));
          JsonNode known =
              at(entry.root(), fragment.subList(0, fragment.size() - 1)).path("properties");
          String hint = suggestion(name, known);
          String message =
              "unknown field "
                  + Quoting.quote(name)
                  + (hint == null ? "" : "; did you mean " + Quoting.quote(hint) + "?");
          return Diagnostic.error(
              Code.UNKNOWN_FIELD, file, doc.positions().at(path), path, message);
        }
      case "type":
        {
          FieldPath path = fieldPath(doc, instance);
          if (error.getInstanceNode() != null
              && error.getInstanceNode().isNull()
              && !instance.isEmpty()
              && doc.root().at(instance.substring(0, instance.lastIndexOf('/'))).isObject()) {
            // The schemas let every optional field be null (not set, as the API server reads
            // it), so a field of a map that rejects null is a required one: the API server's
            // words for it.
            return Diagnostic.error(
                Code.REQUIRED, file, doc.positions().valueAt(path), path, "Required value");
          }
          return Diagnostic.error(
              Code.SCHEMA, file, doc.positions().valueAt(path), path, message(error));
        }
      case "required":
        {
          FieldPath path = fieldPath(doc, child(instance, error.getProperty()));
          return Diagnostic.error(
              Code.REQUIRED, file, doc.positions().at(path), path, "Required value");
        }
      default:
        {
          FieldPath path = fieldPath(doc, instance);
          Position at = doc.positions().valueAt(path);
          return Diagnostic.error(Code.SCHEMA, file, at, path, message(error));
        }
    }
  }

  private static String message(Error error) {
    JsonNode schema = error.getSchemaNode();
    return switch (error.getKeyword()) {
      case "type" ->
          "must be " + typeWords(schema) + ", not " + article(typeOf(error.getInstanceNode()));
      case "maximum" -> "must be at most " + schema.asText();
      case "minimum" -> "must be at least " + schema.asText();
      case "exclusiveMaximum" -> "must be less than " + schema.asText();
      case "exclusiveMinimum" -> "must be greater than " + schema.asText();
      case "const" -> "must be " + schema;
      default -> error.getMessage();
    };
  }

  /** One message for a failed anyOf/oneOf, such as an IntOrString or a Quantity. */
  private static String alternativesMessage(
      List<Object> fragment, JsonNode branches, JsonNode instance) {
    boolean quantity = fragment.size() > 1 && QUANTITY_DEF.equals(fragment.get(1));
    String expected;
    if (quantity) {
      expected = "a quantity such as 2, 500m or 1Gi";
    } else {
      List<String> words = new ArrayList<>();
      for (JsonNode branch : branches) {
        for (String word : typeNames(branch.path("type"))) {
          if (word.equals("null")) {
            continue; // the schemas let optional fields be null: "not set", never worth a word
          }
          String withArticle = article(word);
          if (!words.contains(withArticle)) {
            words.add(withArticle);
          }
        }
      }
      expected = words.isEmpty() ? "one of the allowed forms" : String.join(" or ", words);
    }
    String actual =
        instance != null && instance.isTextual()
            ? Quoting.quote(instance.textValue())
            : article(typeOf(instance));
    return "must be " + expected + ", not " + actual;
  }

  /**
   * The types a field accepts, in words. The schemas let optional fields be null, as the API server
   * does ("not set"); "or null" would only distract from the type meant.
   */
  private static String typeWords(JsonNode type) {
    List<String> words = new ArrayList<>();
    for (String name : typeNames(type)) {
      if (!name.equals("null")) {
        words.add(article(name));
      }
    }
    return words.isEmpty() ? "null" : String.join(" or ", words);
  }

  private static List<String> typeNames(JsonNode type) {
    List<String> names = new ArrayList<>();
    if (type.isTextual()) {
      names.add(yamlWord(type.asText()));
    } else if (type.isArray()) {
      type.forEach(t -> names.add(yamlWord(t.asText())));
    }
    return names;
  }

  /** JSON Schema's type names in the words a YAML author uses. */
  private static String yamlWord(String jsonType) {
    return switch (jsonType) {
      case "object" -> "map";
      case "array" -> "list";
      default -> jsonType;
    };
  }

  private static String typeOf(JsonNode node) {
    if (node == null || node.isMissingNode()) {
      return "nothing";
    }
    if (node.isTextual() || node.isBinary()) {
      return "string";
    }
    if (node.isIntegralNumber()) {
      return "integer";
    }
    if (node.isNumber()) {
      return "number";
    }
    if (node.isBoolean()) {
      return "boolean";
    }
    if (node.isObject()) {
      return "map";
    }
    if (node.isArray()) {
      return "list";
    }
    return "null";
  }

  private static String article(String word) {
    if (word.equals("null") || word.equals("nothing")) {
      return word;
    }
    return (word.startsWith("i") ? "an " : "a ") + word;
  }

  // ----- "did you mean" ---------------------------------------------------------------------

  /**
   * The known field closest to {@code name} by Damerau–Levenshtein distance (ties broken
   * alphabetically), when it is close enough to be a likely typo: at most 2 edits or a third of the
   * name, and fewer edits than either word has letters (so "foo" never becomes "os").
   */
  static String suggestion(String name, JsonNode knownProperties) {
    List<String> known = new ArrayList<>();
    knownProperties.fieldNames().forEachRemaining(known::add);
    return Suggestions.closest(name, known);
  }

  // ----- paths ------------------------------------------------------------------------------

  private static FieldPath fieldPath(Document doc, String pointer) {
    JsonNode root = doc.root();
    return FieldPath.fromPointer(pointer, prefix -> root.at(prefix).isArray());
  }

  /** RFC 6901 pointer of a networknt path, built from its elements by JsonPointer's escaping. */
  private static String pointer(NodePath path) {
    JsonPointer out = JsonPointer.empty();
    for (int i = 0; i < path.getNameCount(); i++) {
      out = out.appendProperty(String.valueOf(path.getElement(i)));
    }
    return out.toString();
  }

  /** The pointer of entry {@code name} of the mapping at {@code pointer}. */
  private static String child(String pointer, String name) {
    return JsonPointer.compile(pointer).appendProperty(name).toString();
  }

  private static List<Object> elements(NodePath path) {
    List<Object> out = new ArrayList<>(path.getNameCount());
    for (int i = 0; i < path.getNameCount(); i++) {
      out.add(path.getElement(i));
    }
    return out;
  }

  /**
   * Where the outermost anyOf/oneOf of a schema location is, or -1; a segment right after {@code
   * properties} is a field name, not a keyword.
   */
  private static int indexOfAlternatives(List<Object> fragment) {
    for (int i = 0; i < fragment.size(); i++) {
      Object e = fragment.get(i);
      if (("anyOf".equals(e) || "oneOf".equals(e))
          && (i == 0 || !"properties".equals(fragment.get(i - 1)))) {
        return i;
      }
    }
    return -1;
  }

  private static JsonNode at(JsonNode root, List<Object> elements) {
    JsonPointer pointer = JsonPointer.empty();
    for (Object e : elements) {
      pointer = pointer.appendProperty(String.valueOf(e));
    }
    return root.at(pointer);
  }
}
