package dev.jobc.cli;

import dev.jobc.ManifestCompiler;
import dev.jobc.diag.Quoting;
import dev.jobc.io.InputFiles;
import dev.jobc.io.IoErrors;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.ExitCode;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code jobc schema}: prints the JSON Schema that jobc checks an input kind against. */
@Command(
    name = "schema",
    mixinStandardHelpOptions = true,
    versionProvider = JobcCommand.Version.class,
    description = {
      "Prints the JSON Schema jobc checks an input kind against, e.g. for editor validation.",
      "",
      "Example: jobc schema kubeflow.org/v2beta1 MPIJob",
      "         jobc schema --all schemas/   (every schema, one file each, for an editor)"
    },
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {
      "0:success",
      "2:usage error, or the kind is not an accepted input",
      "3:internal error (a defect in jobc)"
    })
final class SchemaCommand implements Callable<Integer> {
  @ParentCommand private JobcCommand parent;

  @Spec private CommandSpec spec;

  @Parameters(
      index = "0",
      arity = "0..1",
      paramLabel = "API_VERSION",
      description = "e.g. kubeflow.org/v2beta1",
      completionCandidates = ApiVersions.class)
  private String apiVersion;

  @Parameters(
      index = "1",
      arity = "0..1",
      paramLabel = "KIND",
      description = "e.g. MPIJob",
      completionCandidates = Kinds.class)
  private String kind;

  /** Every accepted apiVersion, for shell completion; read only when a script is written. */
  static final class ApiVersions implements Iterable<String> {
    @Override
    public Iterator<String> iterator() {
      return accepted(0).iterator();
    }
  }

  /** Every accepted kind, for shell completion. */
  static final class Kinds implements Iterable<String> {
    @Override
    public Iterator<String> iterator() {
      return accepted(1).iterator();
    }
  }

  /** Word {@code i} of each {@code "apiVersion kind"} jobc accepts, each once. */
  private static List<String> accepted(int i) {
    return new ManifestCompiler()
        .acceptedKinds().stream().map(k -> k.split(" ")[i]).distinct().toList();
  }

  @Option(
      names = "--all",
      paramLabel = "DIR",
      description =
          "Write every schema into DIR (created when missing), one file per accepted kind and"
              + " version, named as jobc publishes them: <kind>.<group>-<version>.schema.json.")
  private String all;

  @Override
  public Integer call() {
    ManifestCompiler compiler = new ManifestCompiler();
    if (all != null) {
      if (apiVersion != null) {
        throw new ParameterException(spec.commandLine(), "--all takes no API_VERSION or KIND");
      }
      return writeAll(compiler);
    }
    if (apiVersion == null || kind == null) {
      throw new ParameterException(spec.commandLine(), "give API_VERSION and KIND, or --all DIR");
    }
    String schema = compiler.schema(apiVersion, kind);
    if (schema == null) {
      PrintWriter err = spec.commandLine().getErr();
      err.print(
          "jobc: error: no schema for "
              + Quoting.oneLine(apiVersion)
              + " "
              + Quoting.oneLine(kind)
              + ": not a kind jobc accepts as input; it accepts "
              + String.join(", ", compiler.acceptedKinds())
              + "\n");
      return ExitCode.USAGE;
    }
    PrintWriter out = spec.commandLine().getOut();
    out.print(schema.endsWith("\n") ? schema : schema + "\n");
    out.flush();
    return ExitCode.OK;
  }

  private int writeAll(ManifestCompiler compiler) {
    Path dir = parent.workingDirectory().resolve(all);
    PrintWriter err = spec.commandLine().getErr();
    String shown = Quoting.oneLine(all);
    try {
      try {
        Files.createDirectories(dir);
      } catch (FileAlreadyExistsException e) {
        throw new NotDirectoryException(dir.toString()); // a file where the directory would be
      }
      for (String accepted : compiler.schemaKinds()) {
        String version = accepted.substring(0, accepted.indexOf(' '));
        String kindName = accepted.substring(accepted.indexOf(' ') + 1);
        String schema = compiler.schema(version, kindName);
        int slash = version.indexOf('/');
        String file =
            kindName.toLowerCase(Locale.ROOT)
                + "."
                + version.substring(0, slash)
                + "-"
                + version.substring(slash + 1)
                + ".schema.json";
        try {
          Files.writeString(dir.resolve(file), schema.endsWith("\n") ? schema : schema + "\n");
        } catch (IOException e) {
          shown = Quoting.oneLine(InputFiles.join(all, file));
          throw e;
        }
        err.print("jobc: wrote " + Quoting.oneLine(all) + "/" + file + "\n");
      }
    } catch (IOException e) {
      // The directory (or file) as typed, and why, as every other command says it.
      err.print("jobc: error: " + shown + ": " + IoErrors.reason(e) + "\n");
      err.flush();
      return ExitCode.SOFTWARE;
    }
    err.flush();
    return ExitCode.OK;
  }
}
