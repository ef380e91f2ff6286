package dev.jobc.cli;

import dev.jobc.ManifestCompiler;
import dev.jobc.diag.Quoting;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.ExitCode;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code jobc schema}: prints the JSON Schema that jobc checks an input kind against. */
@Command(
    name = "schema",
    mixinStandardHelpOptions = true,
    versionProvider = JobcCommand.Version.class,
    description = {
      "Prints the JSON Schema jobc checks an input kind against, e.g. for editor validation.",
      "",
      "Example: jobc schema kubeflow.org/v2beta1 MPIJob"
    },
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {
      "0:success",
      "2:usage error, or the kind is not an accepted input",
      "3:internal error (a defect in jobc)"
    })
final class SchemaCommand implements Callable<Integer> {
  @Spec private CommandSpec spec;

  @Parameters(index = "0", paramLabel = "API_VERSION", description = "e.g. kubeflow.org/v2beta1")
  private String apiVersion;

  @Parameters(index = "1", paramLabel = "KIND", description = "e.g. MPIJob")
  private String kind;

  @Override
  public Integer call() {
    ManifestCompiler compiler = new ManifestCompiler();
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
}
