package dev.jobc.cli;

import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.ExitCode;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code jobc version}: what {@code jobc --version} prints, as kubectl and helm spell it. */
@Command(
    name = "version",
    mixinStandardHelpOptions = true,
    versionProvider = JobcCommand.Version.class,
    description = "Prints jobc's version and the git commit it was built from.",
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {"0:success"})
final class VersionCommand implements Callable<Integer> {
  @Spec private CommandSpec spec;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    for (String line : new JobcCommand.Version().getVersion()) {
      out.println(line);
    }
    out.flush();
    return out.checkError() ? ExitCode.SOFTWARE : ExitCode.OK;
  }
}
