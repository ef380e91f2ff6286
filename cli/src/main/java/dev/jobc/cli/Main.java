package dev.jobc.cli;

import dev.jobc.diag.Quoting;
import java.io.BufferedWriter;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.function.Supplier;
import picocli.CommandLine;
import picocli.CommandLine.ExecutionException;
import picocli.CommandLine.IExecutionStrategy;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.RunLast;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * Entry point of the shaded jar: runs {@link JobcCommand} and exits with its exit code.
 *
 * <p>Nothing that goes wrong inside jobc reaches the user as a stack trace: an unexpected exception
 * or error ({@code OutOfMemoryError} and {@code StackOverflowError} included), in any subcommand,
 * prints one line, {@code jobc: internal error: <class>: <message>}, and exits {@value
 * JobcCommand#INTERNAL_ERROR}. The environment variable {@value JobcCommand#DEBUG} (set and not
 * {@code 0}) adds the stack trace.
 */
public final class Main {
  private Main() {} // don't instantiate

  public static void main(String[] args) {
    // Manifests are UTF-8 whatever the platform charset is. Auto-flush is off so a large render is
    // written in blocks; everything is flushed before the JVM exits.
    PrintWriter out = writer(FileDescriptor.out);
    PrintWriter err = writer(FileDescriptor.err);
    int exitCode = execute(new JobcCommand(), out, err, args);
    out.flush();
    err.flush();
    System.exit(exitCode);
  }

  /** Runs {@code command} with {@code args}, as {@link #main} does; never throws. */
  static int execute(JobcCommand command, PrintWriter out, PrintWriter err, String... args) {
    boolean debug = command.debug();
    try {
      return execute(commandLine(command, out, err, JobcCommand.subcommandsFor(args)), args);
    } catch (Throwable t) { // building the command line failed: a defect, reported the same way
      return internalError(t, err, debug);
    }
  }

  /**
   * The command line {@link #main} runs: {@code command} writing to {@code out} and {@code err},
   * with every exception of a subcommand reported by {@link #internalError}, and usage errors
   * printed on one line each.
   */
  static CommandLine commandLine(JobcCommand command, PrintWriter out, PrintWriter err) {
    return commandLine(command, out, err, JobcCommand.SUBCOMMANDS);
  }

  /** As above, with only {@code subcommands} registered. */
  static CommandLine commandLine(
      JobcCommand command,
      PrintWriter out,
      PrintWriter err,
      Map<String, Supplier<Object>> subcommands) {
    boolean debug = command.debug();
    // Subcommands first: picocli passes the settings below on only to the subcommands registered
    // when they are made.
    CommandLine cli = JobcCommand.tree(command, subcommands).setOut(out).setErr(err);
    IExecutionStrategy run = new RunLast();
    // picocli reports exceptions from call() to the handler below, but prints a stack trace for
    // those thrown while printing help or the version; route those to the handler too.
    cli.setExecutionStrategy(
        parseResult -> {
          try {
            return run.execute(parseResult);
          } catch (ExecutionException | ParameterException e) {
            throw e;
          } catch (RuntimeException e) {
            throw new ExecutionException(cli, "internal error", e);
          }
        });
    cli.setExecutionExceptionHandler((e, commandLine, parseResult) -> internalError(e, err, debug));
    cli.setParameterExceptionHandler(
        (e, arguments) -> {
          // As kubectl and helm do: what is wrong, on one line (it may quote an argument), then
          // where the help is; the full usage would bury the message.
          CommandLine failed = e.getCommandLine();
          PrintWriter writer = failed.getErr();
          writer.print("jobc: error: " + Quoting.oneLine(String.valueOf(e.getMessage())) + "\n");
          UnmatchedArgumentException.printSuggestions(e, writer);
          writer.print("Run '" + failed.getCommandSpec().qualifiedName() + " --help' for usage.\n");
          writer.flush();
          return failed.getCommandSpec().exitCodeOnInvalidInput();
        });
    return cli;
  }

  /**
   * Runs {@code cli}; an exception or error that escapes picocli (an {@code Error} thrown by a
   * subcommand does) is reported by {@link #internalError}.
   */
  static int execute(CommandLine cli, String... args) {
    JobcCommand command = cli.getCommand();
    try {
      return cli.execute(args);
    } catch (Throwable t) {
      return internalError(t, cli.getErr(), command.debug());
    }
  }

  /**
   * Reports a defect of jobc: one line naming the exception, its stack trace only when {@code
   * debug}. Returns {@link JobcCommand#INTERNAL_ERROR}.
   */
  static int internalError(Throwable t, PrintWriter err, boolean debug) {
    Throwable shown = t instanceof ExecutionException && t.getCause() != null ? t.getCause() : t;
    String message = shown.getMessage();
    err.print(
        "jobc: internal error: "
            + shown.getClass().getName()
            + (message == null ? "" : ": " + Quoting.oneLine(message))
            + "\n");
    if (debug) {
      shown.printStackTrace(err);
    }
    err.flush();
    return JobcCommand.INTERNAL_ERROR;
  }

  private static PrintWriter writer(FileDescriptor fd) {
    return new PrintWriter(
        new BufferedWriter(
            new OutputStreamWriter(new FileOutputStream(fd), StandardCharsets.UTF_8)));
  }
}
