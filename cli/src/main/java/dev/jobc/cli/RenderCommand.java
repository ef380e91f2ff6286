package dev.jobc.cli;

import dev.jobc.CompileOptions;
import dev.jobc.CompileResult;
import dev.jobc.ManifestCompiler;
import dev.jobc.OutputObject;
import dev.jobc.diag.Code;
import dev.jobc.diag.Diagnostic;
import dev.jobc.diag.Severity;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;
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
      "1:input errors, refused or failed output, or drift found by --check",
      "2:usage error (bad option, no PATH)"
    })
final class RenderCommand implements Callable<Integer> {
  @ParentCommand private JobcCommand parent;

  @Spec private CommandSpec spec;

  @Parameters(
      paramLabel = "PATH",
      arity = "0..*",
      description = {
        "A file, a directory (every *.yaml and *.yml below it, in path order, skipping hidden"
            + " files and directories), or - for stdin."
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
            "Write one file per object (<kind>-<name>.yaml) and make DIR hold exactly those files."
                + " DIR is replaced as a whole and only if it holds nothing but *.yaml/*.yml files;"
                + " nothing is written when there is any error.")
    String output;

    @Option(
        names = "--check",
        paramLabel = "DIR",
        description =
            "Write nothing; compare the render with the *.yaml/*.yml files in DIR, print a unified"
                + " diff on stderr and exit 1 if they differ.")
    String check;
  }

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
    CompileOptions options = options();
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();

    InputFiles inputs = InputFiles.read(paths, parent.workingDirectory(), parent.stdin());
    CompileResult result = new ManifestCompiler().compile(inputs.sources(), options);
    List<Diagnostic> diagnostics = new ArrayList<>(inputs.diagnostics());
    diagnostics.addAll(result.diagnostics());
    diagnostics.sort(Diagnostic.ORDER);
    boolean failed = print(err, diagnostics) || !result.ok();

    int exitCode;
    if (failed) {
      exitCode = ExitCode.SOFTWARE;
    } else if (destination == null) {
      out.print(result.yaml());
      exitCode = ExitCode.OK;
    } else {
      exitCode = toDirectory(result.objects(), inputs, err);
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
    try {
      CompileOptions options =
          CompileOptions.defaults()
              .withKubectlImage(kubectlImage)
              .withSidecarImage(sidecarImage)
              .withTransport(CompileOptions.Transport.parse(transport))
              .withWorkers(CompileOptions.WorkerKind.parse(workers))
              .withGpusPerNode(gpusPerNode)
              .withUnitsPerNode(unitsPerNode);
      if (sshSecret != null) {
        options = options.withSshSecret(sshSecret).withTransport(CompileOptions.Transport.SSH);
      }
      if (namespace != null) {
        options = options.withNamespace(namespace);
      }
      if (clusterDomain != null) {
        options = options.withClusterDomain(clusterDomain);
      }
      if (gangScheduler != null) {
        options = options.withGangScheduler(gangScheduler);
      }
      return options;
    } catch (IllegalArgumentException e) {
      throw usage(e.getMessage());
    }
  }

  private int toDirectory(List<OutputObject> objects, InputFiles inputs, PrintWriter err) {
    boolean check = destination.check != null;
    String dirName = check ? destination.check : destination.output;
    OutputDirectory dir = new OutputDirectory(dirName, parent.workingDirectory().resolve(dirName));
    Optional<SortedMap<String, String>> files = files(objects, dir, err);
    if (files.isEmpty()) {
      return ExitCode.SOFTWARE;
    }
    try {
      return check ? check(files.get(), dir, err) : write(files.get(), dir, inputs, err);
    } catch (IOException e) {
      err.print("jobc: error: " + dir.name() + ": " + e.getMessage() + "\n");
      return ExitCode.SOFTWARE;
    }
  }

  /** File name to text, or empty (after printing why) when two objects want the same file. */
  private static Optional<SortedMap<String, String>> files(
      List<OutputObject> objects, OutputDirectory dir, PrintWriter err) {
    Map<String, OutputObject> byName = new LinkedHashMap<>();
    SortedMap<String, String> files = new TreeMap<>();
    List<Diagnostic> collisions = new ArrayList<>();
    for (OutputObject object : objects) {
      OutputObject previous = byName.putIfAbsent(object.fileName(), object);
      if (previous != null) {
        collisions.add(
            new Diagnostic(
                Severity.ERROR,
                Code.DUPLICATE,
                dir.display(object.fileName()),
                -1,
                -1,
                "",
                "both "
                    + describe(previous)
                    + " and "
                    + describe(object)
                    + " would be written to this file; give them distinct names"));
      } else {
        files.put(object.fileName(), object.yaml());
      }
    }
    print(err, collisions);
    return collisions.isEmpty() ? Optional.of(files) : Optional.empty();
  }

  private static int write(
      SortedMap<String, String> files, OutputDirectory dir, InputFiles inputs, PrintWriter err)
      throws IOException {
    Optional<String> refusal = dir.refusal(inputs.files());
    if (refusal.isPresent()) {
      err.print("jobc: error: " + refusal.get() + "\n");
      return ExitCode.SOFTWARE;
    }
    dir.replace(files);
    return ExitCode.OK;
  }

  private static int check(SortedMap<String, String> rendered, OutputDirectory dir, PrintWriter err)
      throws IOException {
    if (!dir.exists()) {
      err.print(dir.name() + ": error: no such directory\n");
      return ExitCode.SOFTWARE;
    }
    SortedMap<String, String> existing = dir.read();
    TreeSet<String> names = new TreeSet<>(existing.keySet());
    names.addAll(rendered.keySet());
    boolean drift = false;
    for (String name : names) {
      String before = existing.get(name);
      String after = rendered.get(name);
      String oldLabel = before == null ? "/dev/null" : dir.display(name);
      String newLabel = after == null ? "/dev/null" : name + " (rendered)";
      String diff =
          UnifiedDiff.diff(
              oldLabel, before == null ? "" : before, newLabel, after == null ? "" : after);
      if (diff.isEmpty() && (before == null) != (after == null)) {
        // An empty file on one side only: no line differs, but the set of files does.
        diff = "--- " + oldLabel + "\n+++ " + newLabel + "\n";
      }
      err.print(diff);
      drift |= !diff.isEmpty();
    }
    return drift ? ExitCode.SOFTWARE : ExitCode.OK;
  }

  /** Prints each diagnostic on its own line and says whether any was an error. */
  private static boolean print(PrintWriter err, List<Diagnostic> diagnostics) {
    boolean error = false;
    for (Diagnostic d : diagnostics) {
      // "\n", not println: the output must be the same bytes on every platform.
      err.print(d.format() + "\n");
      error |= d.isError();
    }
    return error;
  }

  private static String describe(OutputObject o) {
    return o.kind() + " " + (o.namespace().isEmpty() ? "" : o.namespace() + "/") + o.name();
  }

  private ParameterException usage(String message) {
    return new ParameterException(spec.commandLine(), message);
  }
}
