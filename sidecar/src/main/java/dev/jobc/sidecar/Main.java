package dev.jobc.sidecar;

import dev.jobc.sidecar.base.Log;
import dev.jobc.sidecar.base.PodWatch;
import dev.jobc.sidecar.base.Termination;
import dev.jobc.sidecar.dgl.ReleaseCommand;
import dev.jobc.sidecar.dgl.WaitCommand;
import dev.jobc.sidecar.mpi.HostsCommand;
import dev.jobc.sidecar.mpi.RunCommand;
import dev.jobc.sidecar.mpi.ScaleWorkersCommand;
import dev.jobc.sidecar.replicas.ReplicasCommand;
import dev.jobc.sidecar.replicas.TfJobCommand;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@code jobc-sidecar wait|run|release|tfjob|scale-workers|replicas [options]}. Exit codes: 0 ok, 1
 * failure (timeout, failed pod, API error after retries), 2 usage.
 */
@Command(
    name = "jobc-sidecar",
    mixinStandardHelpOptions = true,
    versionProvider = Main.Version.class,
    subcommands = {
      WaitCommand.class,
      RunCommand.class,
      HostsCommand.class,
      ReleaseCommand.class,
      TfJobCommand.class,
      ScaleWorkersCommand.class,
      ReplicasCommand.class
    },
    description = "Run-time helper for jobs rendered by jobc.")
public final class Main implements Runnable {
  /** Options that only print something: no start line before them. */
  private static final Set<String> INFORMATIONAL = Set.of("--version", "-V", "--help", "-h");

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  public static void main(String[] args) {
    Termination termination = Termination.install();
    int code = execute(termination, args);
    termination.finished(code);
    System.exit(code);
  }

  /**
   * Runs one command line; the exit code as documented above. The first log line comes at once,
   * before any API request (a hanging API would otherwise leave the log empty); an error the
   * command does not handle (an API server that refuses a namespace, a directory that cannot be
   * written) is one line and exit code 1, never a stack trace.
   */
  static int execute(Termination termination, String... args) {
    // --version and --help print what was asked and nothing more (the image's check reads it).
    if (args.length == 0 || !INFORMATIONAL.containsAll(List.of(args))) {
      Log.info("starting: " + String.join(" ", args));
    }
    CommandLine cli =
        new CommandLine(new Main(), new Factory(termination))
            .setErr(new PrintWriter(System.err, true))
            .setOut(new PrintWriter(System.out, true));
    cli.setExecutionExceptionHandler(
        (e, commandLine, parseResult) -> {
          Log.info("error: " + PodWatch.describe(e));
          return 1;
        });
    return cli.execute(args);
  }

  @Override
  public void run() {
    throw new CommandLine.ParameterException(
        spec.commandLine(), "give a command: wait, run, release, tfjob, scale-workers or replicas");
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
      if (cls == HostsCommand.class) {
        return cls.cast(new HostsCommand(termination));
      }
      if (cls == ReleaseCommand.class) {
        return cls.cast(new ReleaseCommand(termination));
      }
      if (cls == TfJobCommand.class) {
        return cls.cast(new TfJobCommand(termination));
      }
      if (cls == ScaleWorkersCommand.class) {
        return cls.cast(new ScaleWorkersCommand(termination));
      }
      if (cls == ReplicasCommand.class) {
        return cls.cast(new ReplicasCommand(termination));
      }
      return CommandLine.defaultFactory().create(cls);
    }
  }

  /**
   * The version Maven filtered into {@code version.properties}: the image runs the classes, not a
   * jar, so there is no manifest to read it from.
   */
  static final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() throws IOException {
      Properties properties = new Properties();
      try (InputStream in = Main.class.getResourceAsStream("version.properties")) {
        if (in == null) {
          throw new IllegalStateException("version.properties is missing");
        }
        properties.load(in);
      }
      return new String[] {"jobc-sidecar " + properties.getProperty("version")};
    }
  }
}
