package dev.jobc.cli;

import java.io.PrintWriter;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.ExitCode;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code jobc completion bash|zsh}: the shell completion script of every command and option,
 * written from the command model ({@link ShellCompletion}), so new options complete without a
 * change here.
 */
@Command(
    name = "completion",
    mixinStandardHelpOptions = true,
    versionProvider = JobcCommand.Version.class,
    description = {
      "Prints the shell completion script for bash or zsh.",
      "",
      "bash: source <(jobc completion bash)   (or save it in"
          + " ~/.local/share/bash-completion/completions/jobc)",
      "zsh:  source <(jobc completion zsh)   (or save it as _jobc in a directory of $fpath)"
    },
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {"0:success", "2:usage error (a shell other than bash or zsh)"})
final class CompletionCommand implements Callable<Integer> {
  /** The shells there is a script for. */
  static final class Shells implements Iterable<String> {
    @Override
    public Iterator<String> iterator() {
      return List.of("bash", "zsh").iterator();
    }
  }

  @Spec private CommandSpec spec;

  @Parameters(
      paramLabel = "SHELL",
      description = "bash or zsh.",
      completionCandidates = Shells.class)
  private String shell;

  @Override
  public Integer call() {
    if (!shell.equals("bash") && !shell.equals("zsh")) {
      throw new CommandLine.ParameterException(
          spec.commandLine(), "SHELL must be bash or zsh, not \"" + shell + "\"");
    }
    CommandSpec root = spec.commandLine().getParent().getCommandSpec();
    PrintWriter out = spec.commandLine().getOut();
    out.print(shell.equals("bash") ? ShellCompletion.bash(root) : ShellCompletion.zsh(root));
    out.flush();
    return out.checkError() ? ExitCode.SOFTWARE : ExitCode.OK;
  }
}
