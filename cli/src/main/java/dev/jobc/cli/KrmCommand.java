package dev.jobc.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jobc.ManifestCompiler;
import dev.jobc.diag.Code;
import dev.jobc.diag.Diagnostic;
import dev.jobc.diag.Finding;
import dev.jobc.diag.Quoting;
import dev.jobc.diag.Severity;
import dev.jobc.io.InputFiles;
import dev.jobc.io.ToolFiles;
import dev.jobc.load.Document;
import dev.jobc.load.LoadResult;
import dev.jobc.load.YamlLimits;
import dev.jobc.load.YamlLoader;
import dev.jobc.model.CompileResult;
import dev.jobc.model.OutputObject;
import dev.jobc.model.Source;
import dev.jobc.options.CompileOptions;
import dev.jobc.render.YamlWriter;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.ExitCode;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code jobc krm}: a KRM function (kpt, kustomize). Reads a {@code ResourceList} on stdin and
 * writes one on stdout: each job item is replaced by the objects it compiles to, every other item
 * is passed through, and {@code results} say what went wrong where.
 *
 * <p>kpt judges a function by its exit code alone (a {@code severity: error} result with exit 0
 * shows as passed), so any error exits 1; the results and stderr then say why.
 */
@Command(
    name = "krm",
    modelTransformer = OptionListHelp.class,
    mixinStandardHelpOptions = true,
    versionProvider = JobcCommand.Version.class,
    description = {
      "Runs as a KRM function: a ResourceList on stdin, the rendered ResourceList on stdout.",
      "",
      "Items of job kinds are replaced by their objects; other items pass through. Options come"
          + " from functionConfig: a ConfigMap's data, or kind JobcConfig with the same keys at the"
          + " top level; the keys are listed below."
    },
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {
      "0:success",
      "1:any error (also reported as results)",
      "2:usage error",
      "3:internal error (a defect in jobc)"
    })
final class KrmCommand implements Callable<Integer> {
  /** Annotations kpt and kustomize use to place items in files; read, never copied to outputs. */
  static final String PATH = "internal.config.kubernetes.io/path";

  static final String INDEX = "internal.config.kubernetes.io/index";
  static final String LEGACY_PATH = "config.kubernetes.io/path";
  static final String LEGACY_INDEX = "config.kubernetes.io/index";

  /** The kind of a typed functionConfig. */
  static final String CONFIG_KIND = "JobcConfig";

  private static final Set<String> ORCHESTRATOR_PREFIXES =
      Set.of("internal.config.kubernetes.io/", "config.kubernetes.io/", "config.k8s.io/");

  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  @ParentCommand private JobcCommand parent;

  @Spec private CommandSpec spec;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    // Read as render reads "-": strict UTF-8, within the per-input limit, so an endless or huge
    // stdin ends in one located error instead of an OutOfMemoryError.
    InputFiles input = InputFiles.read(List.of("-"), parent.workingDirectory(), parent.stdin());
    if (input.diagnostics().stream().anyMatch(Diagnostic::isError)) {
      for (Diagnostic d : input.diagnostics()) {
        err.print("jobc krm: " + d.format() + "\n");
      }
      err.flush();
      return ExitCode.SOFTWARE;
    }
    Outcome outcome = run(input.sources().get(0).text());
    for (Diagnostic d : outcome.diagnostics()) {
      err.print("jobc krm: " + d.format() + "\n");
    }
    err.flush();
    if (outcome.resourceList() != null) {
      out.print(new YamlWriter().write(outcome.resourceList(), false));
      out.flush();
    }
    boolean failed = outcome.diagnostics().stream().anyMatch(Diagnostic::isError);
    if (out.checkError()) {
      err.print("jobc krm: error: could not write to standard output\n");
      err.flush();
      return ExitCode.SOFTWARE;
    }
    return failed ? ExitCode.SOFTWARE : ExitCode.OK;
  }

  /** The output ResourceList (null when the input could not be read as one) and diagnostics. */
  record Outcome(ObjectNode resourceList, List<Diagnostic> diagnostics) {}

  /** Transforms one ResourceList text; pure apart from compiling. */
  static Outcome run(String text) {
    List<Diagnostic> diagnostics = new ArrayList<>();
    LoadResult loaded =
        new YamlLoader(YamlLimits.defaults()).load(new Source(InputFiles.STDIN_NAME, text));
    diagnostics.addAll(loaded.diagnostics());
    if (!loaded.ok() || loaded.documents().size() != 1) {
      if (loaded.ok()) {
        diagnostics.add(inputError("expected one ResourceList document on stdin"));
      }
      return new Outcome(null, diagnostics);
    }
    Document doc = loaded.documents().get(0);
    JsonNode input = doc.root();
    if (!input.isObject()
        || !"ResourceList".equals(input.path("kind").asText())
        || !input.path("items").isArray()) {
      diagnostics.add(
          inputError("expected a ResourceList (kind: ResourceList with an items list) on stdin"));
      return new Outcome(null, diagnostics);
    }

    ArrayNode results = NODES.arrayNode();
    CompileOptions options;
    try {
      options = options(input.path("functionConfig"));
    } catch (IllegalArgumentException e) {
      Diagnostic d = inputError("functionConfig: " + e.getMessage());
      diagnostics.add(d);
      results.add(result(d, null, null));
      return new Outcome(output(input, (ArrayNode) input.get("items"), results), diagnostics);
    }

    ManifestCompiler compiler = new ManifestCompiler();
    Map<String, String> skipped = toolFiles(input.get("items"));
    // What jobs refer to (a TrainJob's runtimes): compiled with every job, read, not rendered, as
    // `jobc render` reads them from the files of its input.
    List<Source> referenced = new ArrayList<>();
    int at = 0;
    for (JsonNode item : input.get("items")) {
      Item where = Item.of(item, at++);
      if (compiler.screen(item).disposition() == ManifestCompiler.Disposition.REFERENCED) {
        referenced.add(new Source(where.name(), new YamlWriter().write(strip(item), false)));
      }
    }
    ArrayNode items = NODES.arrayNode();
    Map<String, String> identities = new HashMap<>();
    int position = 0;
    for (JsonNode item : input.get("items")) {
      Item where = Item.of(item, position++);
      String skip = skipped.get(where.path());
      if (skip != null) {
        // Tool configuration (a kustomization, what it names, an Argo CD plugin): render leaves
        // the file out with this note; here it passes through untouched, as kpt's own files do.
        Diagnostic d = new Diagnostic(Severity.NOTE, Code.NOTE, where.name(), -1, -1, "", skip);
        diagnostics.add(d);
        results.add(result(d, null, where));
        items.add(item);
        continue;
      }
      // The judgement `jobc render` makes on each document (ManifestCompiler.screen): a valid
      // kind, no near miss of a job kind, and, when it passes through, a valid name.
      ManifestCompiler.Screening screening = compiler.screen(item);
      if (screening.disposition() == ManifestCompiler.Disposition.REJECTED) {
        for (Finding f : screening.findings()) {
          Diagnostic d =
              new Diagnostic(
                  f.severity(), f.code(), where.name(), -1, -1, f.path().toString(), f.message());
          diagnostics.add(d);
          results.add(result(d, item.isObject() ? item : null, where));
        }
        items.add(item); // kept, as for job errors: exit 1 stops kpt from writing anyway
        continue;
      }
      if (screening.disposition() == ManifestCompiler.Disposition.REFERENCED) {
        continue; // read by the jobs that name it, not rendered
      }
      if (screening.disposition() == ManifestCompiler.Disposition.PASS_THROUGH) {
        items.add(item);
        remember(identities, item, where, diagnostics, results);
        continue;
      }
      List<Source> sources = new ArrayList<>();
      sources.add(new Source(where.name(), new YamlWriter().write(strip(item), false)));
      if (item.path("kind").asText().equals("TrainJob")) {
        sources.addAll(referenced);
      }
      CompileResult compiled = compiler.compile(sources, options);
      for (Diagnostic raw : compiled.diagnostics()) {
        // Lines and columns count in the re-serialized item, not in the user's file: drop them,
        // the field path and the file name locate the problem.
        Diagnostic d =
            new Diagnostic(
                raw.severity(), raw.code(), raw.file(), -1, -1, raw.path(), raw.message());
        diagnostics.add(d);
        results.add(result(d, item, where));
      }
      if (!compiled.ok()) {
        items.add(item); // keep the package intact; exit 1 stops kpt from writing anyway
        continue;
      }
      for (OutputObject o : compiled.objects()) {
        ObjectNode object = (ObjectNode) parseOne(o.yaml());
        place(object, where, o.fileName());
        items.add(object);
        remember(identities, object, where, diagnostics, results);
      }
    }
    return new Outcome(output(input, items, results), diagnostics);
  }

  /**
   * The files among the items that render would leave out as tool configuration ({@link
   * ToolFiles}), each with its note. kpt names each item's file in its path annotation; a file's
   * first document is its item of the lowest index.
   */
  private static Map<String, String> toolFiles(JsonNode items) {
    Map<String, JsonNode> first = new LinkedHashMap<>();
    Map<String, Integer> firstIndex = new HashMap<>();
    int position = 0;
    for (JsonNode item : items) {
      Item where = Item.of(item, position++);
      if (!where.path().isEmpty()
          && where.index() < firstIndex.getOrDefault(where.path(), Integer.MAX_VALUE)) {
        firstIndex.put(where.path(), where.index());
        first.put(where.path(), item);
      }
    }
    List<String> found = new ArrayList<>(first.keySet());
    found.sort(String::compareTo);
    return ToolFiles.skipped("", found, first::get);
  }

  /** Maps functionConfig (absent, a ConfigMap, or a {@value #CONFIG_KIND}) onto options. */
  static CompileOptions options(JsonNode config) {
    CompileOptions options = CompileOptions.defaults();
    if (config.isMissingNode() || config.isNull()) {
      return options;
    }
    JsonNode values;
    String kind = config.path("kind").asText();
    if (!config.isObject()) {
      throw new IllegalArgumentException(
          "expected a ConfigMap or a " + CONFIG_KIND + ", not " + what(config));
    }
    if (kind.equals("ConfigMap")) {
      values = config.path("data");
      if (!values.isMissingNode() && !values.isNull() && !values.isObject()) {
        // A list or a string would have been read as no options at all.
        throw new IllegalArgumentException(
            "data: expected a map of option names to values, not " + what(values));
      }
    } else if (kind.equals(CONFIG_KIND)) {
      values = config;
    } else {
      throw new IllegalArgumentException(
          "expected a ConfigMap or a " + CONFIG_KIND + ", got kind " + Quoting.quote(kind));
    }
    Map<String, String> named = new LinkedHashMap<>();
    for (Map.Entry<String, JsonNode> e : values.properties()) {
      if (kind.equals(CONFIG_KIND)
          && Set.of("apiVersion", "kind", "metadata").contains(e.getKey())) {
        continue;
      }
      if (!e.getValue().isValueNode() || e.getValue().isNull()) {
        throw new IllegalArgumentException(e.getKey() + ": expected a string, number or boolean");
      }
      named.put(e.getKey(), e.getValue().asText());
    }
    return options.toDraft().setText(named).build();
  }

  /** "a list", "a string", ... for messages. */
  private static String what(JsonNode node) {
    return node.isArray()
        ? "a list"
        : node.isTextual()
            ? "a string"
            : node.isNumber()
                ? "a number"
                : node.isBoolean() ? "a boolean" : "a " + node.getNodeType();
  }

  /** Where an item came from: its file and index within it, as the orchestrator annotated it. */
  record Item(String path, int index, int position) {
    static Item of(JsonNode item, int position) {
      JsonNode annotations = item.path("metadata").path("annotations");
      String path = annotations.path(PATH).asText(annotations.path(LEGACY_PATH).asText(""));
      String index = annotations.path(INDEX).asText(annotations.path(LEGACY_INDEX).asText("0"));
      int i;
      try {
        i = Integer.parseInt(index);
      } catch (NumberFormatException e) {
        // kpt and kustomize write a decimal; the index only names the document in diagnostics,
        // so another value names the file alone rather than failing the whole function.
        i = 0;
      }
      return new Item(path, i, position);
    }

    /** The name diagnostics use: the file, the document within it when not the first. */
    String name() {
      if (path.isEmpty()) {
        return "items[" + position + "]";
      }
      return index == 0 ? path : path + "#" + index;
    }

    /** The directory generated objects are written to, with a trailing slash, or "". */
    String directory() {
      int slash = path.lastIndexOf('/');
      return slash < 0 ? "" : path.substring(0, slash + 1);
    }
  }

  /** The item without orchestrator annotations, which must not reach generated objects. */
  private static JsonNode strip(JsonNode item) {
    ObjectNode copy = item.deepCopy();
    JsonNode annotations = copy.path("metadata").path("annotations");
    if (annotations instanceof ObjectNode a) {
      List<String> drop = new ArrayList<>();
      a.fieldNames()
          .forEachRemaining(
              name -> {
                if (ORCHESTRATOR_PREFIXES.stream().anyMatch(name::startsWith)) {
                  drop.add(name);
                }
              });
      a.remove(drop);
      if (a.isEmpty()) {
        ((ObjectNode) copy.get("metadata")).remove("annotations");
      }
    }
    return copy;
  }

  /** Files a generated object next to its job, named as {@code jobc render -o} names it. */
  private static void place(ObjectNode object, Item job, String fileName) {
    ObjectNode annotations = ((ObjectNode) object.get("metadata")).withObject("annotations");
    String path = job.directory() + fileName;
    annotations.put(LEGACY_PATH, path);
    annotations.put(LEGACY_INDEX, "0");
    annotations.put(PATH, path);
    annotations.put(INDEX, "0");
  }

  /** Reports a second object with the identity of an earlier one. */
  private static void remember(
      Map<String, String> identities,
      JsonNode object,
      Item where,
      List<Diagnostic> diagnostics,
      ArrayNode results) {
    JsonNode meta = object.path("metadata");
    String apiVersion = object.path("apiVersion").asText();
    String group = apiVersion.contains("/") ? apiVersion.substring(0, apiVersion.indexOf('/')) : "";
    String describe =
        object.path("kind").asText()
            + " "
            + (meta.path("namespace").asText("").isEmpty()
                ? ""
                : meta.path("namespace").asText() + "/")
            + meta.path("name").asText();
    String previous = identities.putIfAbsent(group + "/" + describe, where.name());
    if (previous != null) {
      Diagnostic d =
          new Diagnostic(
              Severity.ERROR,
              Code.DUPLICATE,
              where.name(),
              -1,
              -1,
              "metadata.name",
              "Duplicate value: "
                  + describe
                  + " is also produced by "
                  + Quoting.fileName(previous));
      diagnostics.add(d);
      results.add(result(d, object, where));
    }
  }

  private static ObjectNode output(JsonNode input, ArrayNode items, ArrayNode results) {
    ObjectNode out = NODES.objectNode();
    out.put("apiVersion", input.path("apiVersion").asText("config.kubernetes.io/v1"));
    out.put("kind", "ResourceList");
    out.set("items", items);
    if (!results.isEmpty()) {
      out.set("results", results);
    }
    return out;
  }

  /** A KRM {@code Result}: message, severity, resourceRef, field and file. */
  private static ObjectNode result(Diagnostic d, JsonNode item, Item where) {
    ObjectNode r = NODES.objectNode();
    // kpt prints field.path before the message; say the path only where there is no field.
    boolean field = item != null && !d.path().isEmpty();
    r.put("message", field || d.path().isEmpty() ? d.message() : d.path() + ": " + d.message());
    r.put(
        "severity",
        switch (d.severity()) {
          case ERROR -> "error";
          case WARNING -> "warning";
          case NOTE -> "info";
        });
    if (item != null) {
      ObjectNode ref = r.putObject("resourceRef");
      ref.put("apiVersion", item.path("apiVersion").asText());
      ref.put("kind", item.path("kind").asText());
      ref.put("name", item.path("metadata").path("name").asText());
      String ns = item.path("metadata").path("namespace").asText("");
      if (!ns.isEmpty()) {
        ref.put("namespace", ns);
      }
      if (!d.path().isEmpty()) {
        r.putObject("field").put("path", d.path());
      }
    }
    if (where != null && !where.path().isEmpty()) {
      ObjectNode file = r.putObject("file");
      file.put("path", where.path());
      file.put("index", where.index());
    }
    r.putObject("tags").put("code", d.code().title());
    return r;
  }

  private static JsonNode parseOne(String yaml) {
    LoadResult loaded = new YamlLoader(YamlLimits.defaults()).load(new Source("generated", yaml));
    if (!loaded.ok() || loaded.documents().size() != 1) {
      throw new IllegalStateException("generated YAML does not load: " + loaded.diagnostics());
    }
    return loaded.documents().get(0).root();
  }

  private static Diagnostic inputError(String message) {
    return new Diagnostic(Severity.ERROR, Code.INVALID, InputFiles.STDIN_NAME, -1, -1, "", message);
  }
}
