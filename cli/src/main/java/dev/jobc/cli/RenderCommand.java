package dev.jobc.cli;

import dev.jobc.ManifestCompiler;
import dev.jobc.io.InputSelection;
import dev.jobc.io.OutputDirectory;
import dev.jobc.io.Render;
import dev.jobc.io.RenderedDirectory;
import dev.jobc.model.OutputObject;
import dev.jobc.options.CompileOptions;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
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
    modelTransformer = CompileFlags.class,
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
  /** kubectl's {@code -o} formats, refused as directory names: a user meant the format. */
  private static final java.util.Set<String> OUTPUT_FORMATS =
      java.util.Set.of("yaml", "json", "wide", "name");

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
      names = "--exclude",
      paramLabel = "GLOB",
      description =
          "Leave out the files and directories below a PATH directory that GLOB matches, relative"
              + " to it (kpt/**) or as shown in messages; a GLOB without / matches a name at any"
              + " depth (test-*.yaml). Repeatable. Tool configuration (kustomization.yaml and"
              + " the files it names, Helm charts, Argo CD's plugin.yaml) is left out anyway,"
              + " with a note.")
  private List<String> excludes = new ArrayList<>();

  @Option(
      names = "--allow-missing",
      description =
          "Read a PATH that does not exist as an empty directory instead of failing: git keeps"
              + " no empty directory, so deleting the last job of jobs/ deletes jobs/ (the"
              + " pre-commit hooks pass it).")
  private boolean allowMissing;

  @Option(
      names = "--fail-if-changed",
      description =
          "With -o: exit 1 after writing when DIR changed (a file added, changed or removed),"
              + " naming each file on stderr; for pre-commit hooks, which otherwise miss new"
              + " files.")
  private boolean failIfChanged;

  @Override
  public Integer call() {
    if (paths.isEmpty()) {
      String taken =
          destination == null
              ? ""
              : destination.check != null
                  ? "; " + destination.check + " was taken as the DIR of --check DIR"
                  : "; " + destination.output + " was taken as the DIR of -o DIR";
      throw usage("no input: give a file, a directory or - (stdin)" + taken);
    }
    if (paths.stream().filter("-"::equals).count() > 1) {
      throw usage("- (stdin) can be given only once");
    }
    if (destination != null && "".equals(destination.output)) {
      throw usage("-o: the directory name is empty");
    }
    if (destination != null
        && destination.output != null
        && OUTPUT_FORMATS.contains(destination.output)) {
      // kubectl's and helm's -o takes a format; jobc's takes a directory.
      throw usage(
          "-o "
              + destination.output
              + ": -o takes a directory, not an output format; without -o jobc render prints"
              + " YAML on standard output (write -o ./"
              + destination.output
              + " for a directory of that name)");
    }
    if (destination != null && "".equals(destination.check)) {
      throw usage("--check: the directory name is empty");
    }
    if (failIfChanged && (destination == null || destination.output == null)) {
      throw usage("--fail-if-changed needs -o DIR");
    }
    CompileOptions options = options();
    InputSelection selection;
    try {
      selection = new InputSelection(excludes, allowMissing);
    } catch (IllegalArgumentException e) {
      throw usage("--" + e.getMessage());
    }
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();

    Render render =
        Render.of(
            new ManifestCompiler(),
            paths,
            selection,
            parent.workingDirectory(),
            parent.stdin(),
            options);
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
              : RenderedDirectory.write(objects, dir, render.inputs().paths());
      outcome.warnings().forEach(w -> err.print(w + "\n"));
      err.print(outcome.report());
      exitCode = outcome.ok() ? ExitCode.OK : ExitCode.SOFTWARE;
      if (outcome.stale()) {
        // After a long diff, the one thing to do: the same render, written.
        err.print(
            "jobc: error: "
                + dir.name()
                + " is not what the inputs render to; to update it, run: "
                + writeCommand()
                + "\n");
      }
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

  /**
   * This command line with {@code -o DIR} for {@code --check DIR}: what makes the directory
   * current. Words are shell-quoted when they need it.
   */
  private String writeCommand() {
    List<String> words = new ArrayList<>(List.of("jobc", "render"));
    List<String> all = spec.commandLine().getParseResult().originalArgs();
    // The whole command line: what follows this subcommand's name is its own.
    List<String> args = all.subList(all.indexOf(spec.name()) + 1, all.size());
    for (int i = 0; i < args.size(); i++) {
      String arg = args.get(i);
      if (arg.equals("--check") && i + 1 < args.size()) {
        words.add("-o");
        words.add(args.get(++i));
      } else if (arg.startsWith("--check=")) {
        words.add("-o");
        words.add(arg.substring("--check=".length()));
      } else {
        words.add(arg);
      }
    }
    return String.join(" ", words.stream().map(RenderCommand::shellWord).toList());
  }

  private static String shellWord(String word) {
    return word.matches("[A-Za-z0-9_@%+=:,./-]+") ? word : "'" + word.replace("'", "'\\''") + "'";
  }

  private CompileOptions options() {
    try {
      return CompileFlags.options(spec);
    } catch (IllegalArgumentException e) {
      throw usage(e.getMessage());
    }
  }

  private ParameterException usage(String message) {
    return new ParameterException(spec.commandLine(), message);
  }
}
