package dev.jobc.cli;

import dev.jobc.ManifestCompiler;
import dev.jobc.io.InputSelection;
import dev.jobc.io.OutputDirectory;
import dev.jobc.io.Render;
import dev.jobc.io.RenderedDirectory;
import dev.jobc.migrate.TrainJobMigration;
import dev.jobc.options.CompileOptions;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.ExitCode;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code jobc migrate}: the training-operator v1 jobs and MPIJobs {@code v2beta1} of files,
 * directories or standard input, each as a Kubeflow Trainer v2.3.0 TrainJob and the runtime it
 * needs, printed or written to a directory ({@code -o}). The compiler decides everything ({@link
 * ManifestCompiler#migrate}); this only wires it.
 */
@Command(
    name = "migrate",
    modelTransformer = CompileFlags.class,
    mixinStandardHelpOptions = true,
    versionProvider = JobcCommand.Version.class,
    sortOptions = false,
    description = {
      "Writes each PyTorchJob, MPIJob (kubeflow.org/v2beta1), JAXJob and XGBoostJob as a Kubeflow"
          + " Trainer v2.3.0 TrainJob, plus a TrainingRuntime <job>-runtime when none of the"
          + " runtimes Trainer installs runs it unchanged, as one YAML stream to commit.",
      "",
      "Each job is checked as jobc render checks it, with the same options. A field with no"
          + " Trainer v2 equivalent is an error naming it, and so is a TFJob, PaddleJob or DGLJob;"
          + " other documents are left out. See docs/trainjob.md#migrate."
    },
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {
      "0:success",
      "1:input errors, a field or kind with no Trainer v2 equivalent, or refused output",
      "2:usage error (bad option, no PATH)",
      "3:internal error (a defect in jobc)"
    })
final class MigrateCommand implements Callable<Integer> {
  @ParentCommand private JobcCommand parent;

  @Spec private CommandSpec spec;

  @Parameters(
      paramLabel = "PATH",
      arity = "0..*",
      description = {
        "A file, a directory (every *.yaml and *.yml below it, in path order), or - for stdin,"
            + " read as jobc render reads them."
      })
  private List<String> paths = new ArrayList<>();

  @Option(
      names = {"-o", "--output"},
      paramLabel = "DIR",
      description =
          "Write one file per object (<kind>-<name>.yaml) and make DIR hold exactly those files"
              + " and .jobc-files, as jobc render -o does; nothing is written when there is any"
              + " error.")
  private String output;

  @Option(
      names = "--exclude",
      paramLabel = "GLOB",
      description =
          "Leave out the files and directories below a PATH directory that GLOB matches, as"
              + " jobc render --exclude does. Repeatable.")
  private List<String> excludes = new ArrayList<>();

  @Override
  public Integer call() {
    if (paths.isEmpty()) {
      throw usage(
          "no input: give a file, a directory or - (stdin)"
              + (output == null ? "" : "; " + output + " was taken as the DIR of -o DIR"));
    }
    if (paths.stream().filter("-"::equals).count() > 1) {
      throw usage("- (stdin) can be given only once");
    }
    if ("".equals(output)) {
      throw usage("-o: the directory name is empty");
    }
    CompileOptions options;
    InputSelection selection;
    try {
      options = CompileFlags.options(spec);
      selection = new InputSelection(excludes, false);
    } catch (IllegalArgumentException e) {
      throw usage(e.getMessage());
    }
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    Render migration =
        Render.migrate(
            new ManifestCompiler(),
            paths,
            selection,
            parent.workingDirectory(),
            parent.stdin(),
            options);
    err.print(migration.report());
    int exitCode;
    if (!migration.ok()) {
      exitCode = ExitCode.SOFTWARE;
    } else {
      if (migration.result().objects().isEmpty()) {
        err.print(
            "jobc: warning: no job to migrate: the input holds no "
                + String.join(
                    ", ", TrainJobMigration.KINDS.subList(0, TrainJobMigration.KINDS.size() - 1))
                + " or "
                + TrainJobMigration.KINDS.get(TrainJobMigration.KINDS.size() - 1)
                + "\n");
      }
      if (output == null) {
        out.print(migration.result().yaml());
        exitCode = ExitCode.OK;
      } else {
        OutputDirectory dir =
            new OutputDirectory(output, parent.workingDirectory().resolve(output));
        RenderedDirectory.Outcome outcome =
            RenderedDirectory.write(migration.result().objects(), dir, migration.inputs().paths());
        outcome.warnings().forEach(w -> err.print(w + "\n"));
        err.print(outcome.report());
        exitCode = outcome.ok() ? ExitCode.OK : ExitCode.SOFTWARE;
      }
    }
    err.flush();
    if (out.checkError() && exitCode == ExitCode.OK) {
      err.print("jobc: error: could not write to standard output\n");
      err.flush();
      return ExitCode.SOFTWARE;
    }
    return exitCode;
  }

  private ParameterException usage(String message) {
    return new ParameterException(spec.commandLine(), message);
  }
}
