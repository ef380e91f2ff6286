package dev.jobc.cli;

import dev.jobc.ManifestCompiler;
import dev.jobc.io.NamedOptions;
import dev.jobc.io.OutputDirectory;
import dev.jobc.io.Render;
import dev.jobc.io.RenderedDirectory;
import dev.jobc.model.OutputObject;
import dev.jobc.options.CompileOptions;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.ExitCode;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code jobc render}: compiles files, directories or standard input and prints the objects, writes
 * them to a directory ({@code -o}), or checks a directory for drift ({@code --check}).
 */
@Command(
    name = "render",
    mixinStandardHelpOptions = true,
    versionProvider = JobcCommand.Version.class,
    sortOptions = false,
    description = {
      "Compiles job specs into Kubernetes objects and prints them as one YAML stream.",
      "",
      "Documents that are not a supported job kind pass through unchanged, so a whole directory"
          + " can be rendered. Diagnostics (errors and warnings) go to stderr; stdout carries"
          + " manifests only, and nothing at all when there is an error."
    },
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {
      "0:success",
      "1:input errors, refused or failed output, drift found by --check, or a DIR that"
          + " --fail-if-changed found changed",
      "2:usage error (bad option, no PATH)",
      "3:internal error (a defect in jobc)"
    })
final class RenderCommand implements Callable<Integer> {
  @ParentCommand private JobcCommand parent;

  @Spec private CommandSpec spec;

  @Parameters(
      paramLabel = "PATH",
      arity = "0..*",
      description = {
        "A file, a directory (every *.yaml and *.yml below it, in path order, following"
            + " symbolic links, skipping hidden files and directories), or - for stdin. At most"
            + " 4000000 characters are read from one input, and 8000000 from all together."
      })
  private List<String> paths = new ArrayList<>();

  @ArgGroup(exclusive = true)
  private Destination destination;

  /** Where the objects go instead of stdout; the two are exclusive. */
  static final class Destination {
    @Option(
        names = {"-o", "--output"},
        paramLabel = "DIR",
        description =
            "Write one file per object (<kind>-<name>.yaml) and make DIR hold exactly those files"
                + " and .jobc-files, their list. DIR is replaced as a whole, and only if it holds"
                + " nothing but files jobc wrote there; nothing is written when there is any"
                + " error.")
    String output;

    @Option(
        names = "--check",
        paramLabel = "DIR",
        description =
            "Write nothing; compare the render with the files in DIR (as -o would write them),"
                + " print a unified diff on stderr and exit 1 if they differ.")
    String check;
  }

  @Option(
      names = "--fail-if-changed",
      description =
          "With -o: exit 1 after writing when DIR changed (a file added, changed or removed),"
              + " naming each file on stderr; for pre-commit hooks, which otherwise miss new"
              + " files.")
  private boolean failIfChanged;

  @Option(
      names = "--namespace",
      paramLabel = "NS",
      description = "Namespace for jobs that do not set metadata.namespace.")
  private String namespace;

  @Option(
      names = "--cluster-domain",
      paramLabel = "DOMAIN",
      description = "Cluster DNS domain appended to host names (<pod>.<job>.<ns>.svc.DOMAIN).")
  private String clusterDomain;

  @Option(
      names = "--kubectl-image",
      paramLabel = "IMAGE",
      description = "Image that provides kubectl for kubexec.sh (default: ${DEFAULT-VALUE}).")
  private String kubectlImage = CompileOptions.DEFAULT_KUBECTL_IMAGE;

  @Option(
      names = "--disable-flux-substitution",
      description =
          "Annotate generated objects kustomize.toolkit.fluxcd.io/substitute: disabled, so that"
              + " Flux post-build substitution leaves ${...} in commands and scripts alone.")
  private boolean disableFluxSubstitution;

  @Option(
      names = "--sidecar-image",
      paramLabel = "IMAGE",
      description =
          "Image of the jobc sidecar that waits for peer pods at run time (default:"
              + " ${DEFAULT-VALUE}).")
  private String sidecarImage = CompileOptions.DEFAULT_SIDECAR_IMAGE;

  @Option(
      names = "--transport",
      paramLabel = "kubexec|ssh",
      description =
          "How the launcher reaches workers: kubexec (kubectl exec, the default; no keys) or ssh"
              + " (keys from an existing Secret, see --ssh-secret).")
  private String transport = "kubexec";

  @Option(
      names = "--ssh-secret",
      paramLabel = "NAME",
      description =
          "Existing Secret (kubernetes.io/ssh-auth) with the SSH keys; implies --transport ssh."
              + " jobc never generates keys.")
  private String sshSecret;

  @Option(
      names = "--workers",
      paramLabel = "statefulset|pods",
      description =
          "What runs the workers: a StatefulSet <job>-worker (default; lost workers come back)"
              + " or bare Pods <job>-worker-<i> (mpi-operator's own shape).")
  private String workers = "statefulset";

  @Option(
      names = "--gpus-per-node",
      paramLabel = "N",
      description =
          "GPUs per node for v1alpha1 'gpus:' totals without spec.gpusPerNode (default:"
              + " ${DEFAULT-VALUE}).")
  private int gpusPerNode = CompileOptions.DEFAULT_PER_NODE;

  @Option(
      names = "--units-per-node",
      paramLabel = "N",
      description =
          "Units per node for v1alpha1 'processingUnits:' totals without"
              + " spec.processingUnitsPerNode (default: ${DEFAULT-VALUE}).")
  private int unitsPerNode = CompileOptions.DEFAULT_PER_NODE;

  @Option(
      names = "--gang-scheduler",
      paramLabel = "SCHEDULER",
      description =
          "Gang-schedule every job: volcano (Volcano PodGroup, schedulerName volcano),"
              + " scheduler-plugins (coscheduling PodGroup, schedulerName"
              + " scheduler-plugins-scheduler) or any other scheduler name (coscheduling PodGroup,"
              + " that schedulerName). A job's jobc.dev/gang-scheduler annotation wins; an empty"
              + " one turns gang scheduling off for that job.")
  private String gangScheduler;

  @Override
  public Integer call() {
    if (paths.isEmpty()) {
      throw usage("no input: give a file, a directory or - (stdin)");
    }
    if (paths.stream().filter("-"::equals).count() > 1) {
      throw usage("- (stdin) can be given only once");
    }
    if (destination != null && "".equals(destination.output)) {
      throw usage("-o: the directory name is empty");
    }
    if (destination != null && "".equals(destination.check)) {
      throw usage("--check: the directory name is empty");
    }
    if (failIfChanged && (destination == null || destination.output == null)) {
      throw usage("--fail-if-changed needs -o DIR");
    }
    CompileOptions options = options();
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();

    Render render =
        Render.of(
            new ManifestCompiler(), paths, parent.workingDirectory(), parent.stdin(), options);
    // "\n", not println: the output must be the same bytes on every platform.
    err.print(render.report());

    int exitCode;
    if (!render.ok()) {
      exitCode = ExitCode.SOFTWARE;
    } else if (destination == null) {
      out.print(render.result().yaml());
      exitCode = ExitCode.OK;
    } else {
      boolean check = destination.check != null;
      String dirName = check ? destination.check : destination.output;
      OutputDirectory dir =
          new OutputDirectory(dirName, parent.workingDirectory().resolve(dirName));
      List<OutputObject> objects = render.result().objects();
      RenderedDirectory.Outcome outcome =
          check
              ? RenderedDirectory.check(objects, dir)
              : RenderedDirectory.write(objects, dir, render.inputs().files());
      err.print(outcome.report());
      exitCode = outcome.ok() ? ExitCode.OK : ExitCode.SOFTWARE;
      if (failIfChanged && !outcome.changes().isEmpty()) {
        for (OutputDirectory.Change change : outcome.changes()) {
          err.print("jobc: " + dir.display(change.fileName()) + ": " + change.kind().word() + "\n");
        }
        err.print(
            "jobc: error: "
                + dir.name()
                + " changed; review the changes and add them (--fail-if-changed)\n");
        exitCode = ExitCode.SOFTWARE;
      }
    }
    err.flush();
    // PrintWriter swallows write errors (a full disk, a closed pipe); don't report success then.
    if (out.checkError() && exitCode == ExitCode.OK) {
      err.print("jobc: error: could not write to standard output\n");
      err.flush();
      return ExitCode.SOFTWARE;
    }
    return exitCode;
  }

  private CompileOptions options() {
    Map<String, String> named = new LinkedHashMap<>();
    named.put("kubectl-image", kubectlImage);
    if (namespace != null) {
      named.put("namespace", namespace);
    }
    if (clusterDomain != null) {
      named.put("cluster-domain", clusterDomain);
    }
    named.put("disable-flux-substitution", String.valueOf(disableFluxSubstitution));
    named.put("transport", transport);
    if (sshSecret != null) {
      named.put("ssh-secret", sshSecret); // implies --transport ssh
    }
    named.put("workers", workers);
    named.put("gpus-per-node", String.valueOf(gpusPerNode));
    named.put("units-per-node", String.valueOf(unitsPerNode));
    named.put("sidecar-image", sidecarImage);
    if (gangScheduler != null) {
      named.put("gang-scheduler", gangScheduler);
    }
    try {
      return NamedOptions.applyAll(CompileOptions.defaults(), named);
    } catch (IllegalArgumentException e) {
      throw usage(e.getMessage());
    }
  }

  private ParameterException usage(String message) {
    return new ParameterException(spec.commandLine(), message);
  }
}
