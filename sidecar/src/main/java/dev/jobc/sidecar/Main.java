package dev.jobc.sidecar;

import java.io.PrintWriter;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@code jobc-sidecar wait|run|release [options]}. Exit codes: 0 ok, 1 failure (timeout, failed
 * pod, API error after retries), 2 usage.
 */
@Command(
    name = "jobc-sidecar",
    mixinStandardHelpOptions = true,
    versionProvider = Main.Version.class,
    subcommands = {WaitCommand.class, RunCommand.class, ReleaseCommand.class},
    description = "Run-time helper for jobs rendered by jobc.")
public final class Main implements Runnable {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  public static void main(String[] args) {
    Termination termination = Termination.install();
    int code = execute(termination, args);
    termination.finished(code);
    System.exit(code);
  }

  /** Runs one command line; the exit code as documented above. */
  static int execute(Termination termination, String... args) {
    CommandLine cli =
        new CommandLine(new Main(), new Factory(termination))
            .setErr(new PrintWriter(System.err, true))
            .setOut(new PrintWriter(System.out, true));
    return cli.execute(args);
  }

  @Override
  public void run() {
    throw new CommandLine.ParameterException(
        spec.commandLine(), "give a command: wait, run or release");
  }

  /** Gives subcommands the process' termination. */
  private record Factory(Termination termination) implements CommandLine.IFactory {
    @Override
    public <K> K create(Class<K> cls) throws Exception {
      if (cls == WaitCommand.class) {
        return cls.cast(new WaitCommand(termination));
      }
      if (cls == RunCommand.class) {
        return cls.cast(new RunCommand(termination));
      }
      if (cls == ReleaseCommand.class) {
        return cls.cast(new ReleaseCommand(termination));
      }
      return CommandLine.defaultFactory().create(cls);
    }
  }

  /** The version of the jar (from its manifest). */
  static final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      String v = Main.class.getPackage().getImplementationVersion();
      return new String[] {"jobc-sidecar " + (v == null ? "(development)" : v)};
    }
  }
}
