package dev.jobc.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jobc.ManifestCompiler;
import dev.jobc.diag.Diagnostic;
import dev.jobc.diag.Quoting;
import dev.jobc.io.InputSelection;
import dev.jobc.io.Render;
import dev.jobc.options.CompileOptions;
import dev.jobc.options.Option;
import dev.jobc.options.OptionTable;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.ExitCode;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code jobc argocd}: the {@code generate} command of the Argo CD Config Management Plugin.
 * Renders every {@code *.yaml}/{@code *.yml} below the working directory (the application's path)
 * to stdout.
 *
 * <p>Options, weakest first: {@code ARGOCD_APP_NAMESPACE} as the namespace, then {@code
 * ARGOCD_ENV_JOBC_<NAME>} (the Application's {@code plugin.env}), then the plugin parameters
 * ({@code ARGOCD_APP_PARAMETERS}, or {@code PARAM_<NAME>} when that is absent). Any error exits 1
 * with nothing at all on stdout, and so does a render that finds no object: Argo CD only warns
 * about empty output, and with pruning on, an empty render deletes the whole application.
 */
@Command(
    name = "argocd",
    modelTransformer = OptionListHelp.class,
    mixinStandardHelpOptions = true,
    versionProvider = JobcCommand.Version.class,
    description = {
      "Argo CD Config Management Plugin generate command: renders the working directory.",
      "",
      "Options come from ARGOCD_APP_NAMESPACE (namespace), ARGOCD_ENV_JOBC_<NAME> and the plugin"
          + " parameters (ARGOCD_APP_PARAMETERS or PARAM_<NAME>), where NAME is one of the"
          + " options listed below."
    },
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {
      "0:success",
      "1:any error, or nothing to render (stdout empty)",
      "3:internal error (a defect in jobc)"
    })
final class ArgoCdCommand implements Callable<Integer> {
  static final String ENV_PREFIX = "ARGOCD_ENV_JOBC_";

  /** The parameter that leaves files out ({@code jobc render --exclude}); no compile option. */
  static final String EXCLUDE = "exclude";

  @ParentCommand private JobcCommand parent;

  @Spec private CommandSpec spec;

  @picocli.CommandLine.Option(
      names = "--parameters",
      description =
          "Print the plugin's parameter announcements (a JSON array, one per option of jobc"
              + " render) and exit; plugin.yaml runs this as its dynamic parameters command.")
  private boolean parameters;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    if (parameters) {
      out.print(announcements() + "\n");
      out.flush();
      return out.checkError() ? ExitCode.SOFTWARE : ExitCode.OK;
    }
    CompileOptions options;
    InputSelection selection;
    try {
      options = options(parent.environment());
      selection = new InputSelection(excludes(parent.environment()), false);
    } catch (IllegalArgumentException e) {
      // The message may quote a variable or parameter: one line, whatever it holds.
      err.print("jobc argocd: error: " + Quoting.oneLine(e.getMessage()) + "\n");
      err.flush();
      return ExitCode.SOFTWARE;
    }
    Render render =
        Render.of(
            new ManifestCompiler(),
            List.of("."),
            selection,
            parent.workingDirectory(),
            parent.stdin(),
            options);
    for (Diagnostic d : render.diagnostics()) {
      // Inputs are read as "."; name them relative to the application path, as users wrote them.
      String file = d.file().startsWith("./") ? d.file().substring(2) : d.file();
      err.print(
          new Diagnostic(d.severity(), d.code(), file, d.line(), d.column(), d.path(), d.message())
                  .format()
              + "\n");
    }
    if (!render.ok()) {
      err.print("jobc argocd: error: nothing written, because of the errors above\n");
      err.flush();
      return ExitCode.SOFTWARE;
    }
    if (render.result().objects().isEmpty()) {
      err.print(
          "jobc argocd: error: no objects found below the application path; refusing to print an"
              + " empty render (Argo CD would prune every resource of the application)\n");
      err.flush();
      return ExitCode.SOFTWARE;
    }
    err.print(
        "jobc argocd: rendered "
            + render.result().objects().size()
            + " objects from "
            + render.inputs().files().size()
            + " files\n");
    err.flush();
    out.print(render.result().yaml());
    out.flush();
    if (out.checkError()) {
      err.print("jobc argocd: error: could not write to standard output\n");
      err.flush();
      return ExitCode.SOFTWARE;
    }
    return ExitCode.OK;
  }

  /**
   * The options that {@code environment} asks for.
   *
   * @throws IllegalArgumentException naming the variable or parameter that is unknown or invalid
   */
  static CompileOptions options(Map<String, String> environment) {
    // Two channels, each over the one before: the Application's environment, then its parameters.
    CompileOptions.Draft env = CompileOptions.defaults().toDraft();
    String appNamespace = environment.getOrDefault("ARGOCD_APP_NAMESPACE", "");
    if (!appNamespace.isEmpty()) {
      set(env, "namespace", appNamespace, "ARGOCD_APP_NAMESPACE");
    }
    // Sorted, so that a run with two bad variables always reports the same one.
    for (Map.Entry<String, String> e : new TreeMap<>(environment).entrySet()) {
      if (e.getKey().startsWith(ENV_PREFIX)) {
        String name = optionName(e.getKey().substring(ENV_PREFIX.length()), e.getKey());
        set(env, name, e.getValue(), e.getKey());
      }
    }
    CompileOptions.Draft params = env.build().toDraft();
    String json = environment.get("ARGOCD_APP_PARAMETERS");
    if (json != null && !json.isBlank()) {
      for (Map.Entry<String, String> p : parameters(json).entrySet()) {
        set(params, p.getKey(), p.getValue(), "parameter " + p.getKey());
      }
    } else {
      for (Map.Entry<String, String> e : new TreeMap<>(environment).entrySet()) {
        // PARAM_EXCLUDE and PARAM_EXCLUDE_<i> carry the exclude parameter: see excludes.
        if (e.getKey().startsWith("PARAM_") && !e.getKey().matches("PARAM_EXCLUDE(_[0-9]+)?")) {
          String name = optionName(e.getKey().substring("PARAM_".length()), e.getKey());
          set(params, name, e.getValue(), e.getKey());
        }
      }
    }
    return params.build();
  }

  /**
   * The {@value #EXCLUDE} parameter's globs ({@code jobc render --exclude}): an array (or one
   * string) in {@code ARGOCD_APP_PARAMETERS}, else {@code PARAM_EXCLUDE_<i>} (or {@code
   * PARAM_EXCLUDE}) when that is absent.
   */
  static List<String> excludes(Map<String, String> environment) {
    String json = environment.get("ARGOCD_APP_PARAMETERS");
    List<String> globs = new ArrayList<>();
    if (json != null && !json.isBlank()) {
      for (JsonNode p : parameterList(json)) {
        if (!p.path("name").asText("").equals(EXCLUDE)) {
          continue;
        }
        if (p.path("array").isArray()) {
          p.path("array").forEach(glob -> globs.add(glob.asText()));
        } else if (p.path("string").isTextual()) {
          globs.add(p.path("string").asText());
        } else {
          throw new IllegalArgumentException(
              "parameter " + EXCLUDE + ": expected an array of globs (\"array\": [\"...\"])");
        }
      }
      return globs;
    }
    String single = environment.get("PARAM_EXCLUDE");
    if (single != null) {
      globs.add(single);
    }
    for (int i = 0; environment.containsKey("PARAM_EXCLUDE_" + i); i++) {
      globs.add(environment.get("PARAM_EXCLUDE_" + i));
    }
    return globs;
  }

  /**
   * Argo CD's parameter announcements, one per option: name, title, tooltip (the option's help) and
   * the default as the string value, in table order; then {@value #EXCLUDE}, an array.
   */
  static String announcements() {
    ArrayNode list = JsonNodeFactory.instance.arrayNode();
    for (Option<?> option : OptionTable.ALL) {
      ObjectNode p = list.addObject();
      p.put("name", option.name());
      p.put("title", option.name());
      p.put("tooltip", option.helpText());
      if (option.defaultText() != null) {
        p.put("string", option.defaultText());
      }
    }
    ObjectNode exclude = list.addObject();
    exclude.put("name", EXCLUDE);
    exclude.put("title", EXCLUDE);
    exclude.put(
        "tooltip",
        "Globs of files and directories to leave out, as jobc render --exclude: relative to the"
            + " application path (kpt/**), or without a / a name at any depth (test-*.yaml).");
    exclude.put("collectionType", "array");
    return list.toString();
  }

  /** Parameter name to value from {@code ARGOCD_APP_PARAMETERS}; only string parameters exist. */
  static Map<String, String> parameters(String json) {
    Map<String, String> out = new TreeMap<>();
    for (JsonNode p : parameterList(json)) {
      String name = p.path("name").asText("");
      if (name.equals(EXCLUDE)) {
        continue; // not a compile option: see excludes
      }
      if (!OptionTable.names().contains(name)) {
        throw new IllegalArgumentException(
            "unknown parameter \""
                + name
                + "\"; known parameters: "
                + String.join(", ", OptionTable.names()));
      }
      if (!p.path("string").isTextual()) {
        throw new IllegalArgumentException(
            "parameter " + name + ": expected a string value (\"string\": \"...\")");
      }
      out.put(name, p.path("string").asText());
    }
    return out;
  }

  private static JsonNode parameterList(String json) {
    JsonNode list;
    try {
      list = new ObjectMapper().readTree(json);
    } catch (java.io.IOException e) {
      throw new IllegalArgumentException("ARGOCD_APP_PARAMETERS is not JSON: " + e.getMessage());
    }
    if (list == null || !list.isArray()) {
      throw new IllegalArgumentException("ARGOCD_APP_PARAMETERS must be a JSON array");
    }
    return list;
  }

  /** {@code CLUSTER_DOMAIN} → {@code cluster-domain}, or an error naming {@code variable}. */
  private static String optionName(String suffix, String variable) {
    for (Option<?> option : OptionTable.ALL) {
      if (option.envName().equals(suffix)) {
        return option.name();
      }
    }
    throw new IllegalArgumentException(
        "unknown variable "
            + variable
            + "; known suffixes: "
            + String.join(", ", OptionTable.ALL.stream().map(Option::envName).toList()));
  }

  private static void set(CompileOptions.Draft draft, String name, String value, String from) {
    try {
      draft.setText(name, value);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(from + ": " + e.getMessage(), e);
    }
  }
}
