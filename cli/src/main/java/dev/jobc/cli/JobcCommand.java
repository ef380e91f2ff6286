package dev.jobc.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.function.Supplier;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.HelpCommand;
import picocli.CommandLine.IVersionProvider;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * The top-level {@code jobc} command: holds the working directory and standard input that
 * subcommands read from, and dispatches to them.
 */
@Command(
    name = "jobc",
    mixinStandardHelpOptions = true,
    versionProvider = JobcCommand.Version.class,
    description =
        "Compiles MPIJob, DGLJob, TFJob, PyTorchJob, XGBoostJob, JAXJob and PaddleJob specs into"
            + " plain Kubernetes objects, and TrainJobs into JobSets; migrates v1 jobs to"
            + " TrainJobs.",
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {
      "0:success",
      "1:input errors, refused output, or drift found by render --check",
      "2:usage error (bad option or argument)",
      "3:internal error: a defect in jobc, reported on one line ("
          + JobcCommand.DEBUG
          + "=1 adds"
          + " the stack trace)"
    })
public final class JobcCommand implements Callable<Integer> {
  /**
   * The subcommands, in the order help lists them. {@link Main} registers them on the command line
   * rather than the {@code @Command} annotation, so that a run of one of them can leave the others
   * out (see {@link #subcommandsFor}).
   */
  static final Map<String, Supplier<Object>> SUBCOMMANDS = subcommands();

  /** Subcommands that need no sibling to parse or run (help and completion list them all). */
  private static final Set<String> STANDALONE =
      Set.of("render", "migrate", "krm", "argocd", "schema", "version");

  /** Exit code of an internal error: an exception jobc did not expect, never bad input. */
  static final int INTERNAL_ERROR = 3;

  /** The environment variable that adds stack traces to internal errors ({@link Main}). */
  static final String DEBUG = "JOBC_DEBUG";

  private final Path workingDirectory;
  private final InputStream stdin;

  @Spec private CommandSpec spec;

  private final Map<String, String> environment;

  /** Runs in the process's current directory, reads {@code System.in} and the process env. */
  public JobcCommand() {
    this(Path.of(""), System.in, System.getenv());
  }

  /**
   * Runs as if started in {@code workingDirectory}: relative paths on the command line resolve
   * against it but keep their spelling in messages, and {@code -} reads {@code stdin}.
   */
  public JobcCommand(Path workingDirectory, InputStream stdin) {
    this(workingDirectory, stdin, Map.of());
  }

  /** As above, with {@code environment} standing for the process environment. */
  public JobcCommand(Path workingDirectory, InputStream stdin, Map<String, String> environment) {
    this.workingDirectory = Objects.requireNonNull(workingDirectory, "workingDirectory");
    this.stdin = Objects.requireNonNull(stdin, "stdin");
    this.environment = Map.copyOf(environment);
  }

  /**
   * The environment variables commands may read: {@code jobc argocd} takes its options there, and
   * every command {@value #DEBUG}.
   */
  Map<String, String> environment() {
    return environment;
  }

  /** True when {@value #DEBUG} is set to anything but empty or {@code 0}. */
  boolean debug() {
    String value = environment.getOrDefault(DEBUG, "");
    return !value.isEmpty() && !value.equals("0");
  }

  private static Map<String, Supplier<Object>> subcommands() {
    Map<String, Supplier<Object>> all = new LinkedHashMap<>();
    all.put("render", RenderCommand::new);
    all.put("migrate", MigrateCommand::new);
    all.put("krm", KrmCommand::new);
    all.put("argocd", ArgoCdCommand::new);
    all.put("schema", SchemaCommand::new);
    all.put("completion", CompletionCommand::new);
    all.put("version", VersionCommand::new);
    all.put("help", HelpCommand::new);
    return Collections.unmodifiableMap(all);
  }

  /**
   * The subcommands a command line with {@code args} needs: only the one it names when that one
   * stands alone, else all. picocli reflects over every registered subcommand's options when the
   * command line is built, a fifth of a short render's start; the output is the same either way.
   */
  static Map<String, Supplier<Object>> subcommandsFor(String... args) {
    if (args.length > 0 && STANDALONE.contains(args[0])) {
      return Map.of(args[0], SUBCOMMANDS.get(args[0]));
    }
    return SUBCOMMANDS;
  }

  /**
   * The picocli command line for {@code command} run with {@code args}: {@code command} with the
   * subcommands those arguments need ({@link #subcommandsFor}). Build it here rather than with
   * {@code new CommandLine(command)}, which has no subcommands.
   */
  public static CommandLine commandLine(JobcCommand command, String... args) {
    return tree(command, subcommandsFor(args));
  }

  /**
   * {@code command} with {@code subcommands}, as picocli would build it from a {@code subcommands}
   * attribute: each from its own {@code new CommandLine}, which also applies its model transformer
   * ({@code addSubcommand} with a bare object would not).
   */
  static CommandLine tree(JobcCommand command, Map<String, Supplier<Object>> subcommands) {
    CommandLine cli = new CommandLine(command);
    WrappedHelpLists.install(cli);
    subcommands.forEach(
        (name, make) -> {
          CommandLine sub = new CommandLine(make.get());
          WrappedHelpLists.install(sub);
          cli.addSubcommand(name, sub);
        });
    return cli;
  }

  Path workingDirectory() {
    return workingDirectory;
  }

  InputStream stdin() {
    return stdin;
  }

  @Override
  public Integer call() {
    throw new ParameterException(
        spec.commandLine(), "missing command: give one of " + spec.subcommands().keySet());
  }

  /**
   * Reads what Maven filtered into {@code version.properties}: the project version and the git
   * commit of the build (cli/pom.xml, execution {@code build-commit}).
   */
  static final class Version implements IVersionProvider {
    @Override
    public String[] getVersion() {
      Properties properties = properties();
      String commit = properties.getProperty("commit", "");
      String commitLine;
      // An unfiltered placeholder means the build did not ask git: as unknown as no checkout.
      if (commit.matches("[0-9a-f]{40}")) {
        commitLine =
            "commit: "
                + commit
                + (Boolean.parseBoolean(properties.getProperty("modified"))
                    ? " (built with uncommitted changes)"
                    : "");
      } else {
        commitLine = "commit: unknown (not built from a git checkout)";
      }
      return new String[] {"jobc " + properties.getProperty("version"), commitLine};
    }

    private static Properties properties() {
      Properties properties = new Properties();
      try (InputStream in = Version.class.getResourceAsStream("version.properties")) {
        if (in == null) {
          throw new IllegalStateException("version.properties is missing from the jar");
        }
        properties.load(in);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      return properties;
    }
  }
}
