package dev.jobc.cli;

import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.AutoComplete;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.ExitCode;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code jobc completion bash|zsh}: the shell completion script of every command and flag, as
 * picocli generates it from the command model (so new options complete without a change here).
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
      "zsh:  source <(jobc completion zsh)"
    },
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {"0:success", "2:usage error (a shell other than bash or zsh)"})
final class CompletionCommand implements Callable<Integer> {
  @Spec private CommandSpec spec;

  @Parameters(paramLabel = "SHELL", description = "bash or zsh.")
  private String shell;

  @Override
  public Integer call() {
    if (!shell.equals("bash") && !shell.equals("zsh")) {
      throw new CommandLine.ParameterException(
          spec.commandLine(), "SHELL must be bash or zsh, not \"" + shell + "\"");
    }
    CommandLine root = spec.commandLine().getParent();
    String script = AutoComplete.bash("jobc", root);
    PrintWriter out = spec.commandLine().getOut();
    if (shell.equals("zsh")) {
      // picocli's script runs in zsh through zsh's bash completion layer.
      out.print(
          "autoload -U +X compinit && compinit\nautoload -U +X bashcompinit && bashcompinit\n");
    }
    out.print(script);
    out.flush();
    return out.checkError() ? ExitCode.SOFTWARE : ExitCode.OK;
  }
}
