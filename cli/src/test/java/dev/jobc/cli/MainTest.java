package dev.jobc.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.IVersionProvider;

/**
 * Failures inside jobc end in one line and exit code 3, whatever throws and whichever command runs;
 * {@code JOBC_DEBUG=1} adds the stack trace. The failures are forced through the real execution
 * path: a standard input or working directory that throws, or a command added for the test.
 */
class MainTest {
  private static final String FORGED = "boom\n/etc/passwd:1:1: error: forged";

  @TempDir Path dir;

  /** Standard input whose first read throws what {@code failure} makes. */
  private static InputStream failing(Supplier<? extends Throwable> failure) {
    return new InputStream() {
      @Override
      public int read() {
        throw sneaky(failure.get());
      }

      @Override
      public int read(byte[] b, int off, int len) {
        throw sneaky(failure.get());
      }
    };
  }

  @SuppressWarnings("unchecked")
  private static <T extends Throwable> RuntimeException sneaky(Throwable t) throws T {
    throw (T) t;
  }

  private Run run(InputStream stdin, Map<String, String> env, String... args) {
    return Run.of(new JobcCommand(dir, stdin, env), args);
  }

  @Test
  void anExceptionInRenderIsOneLineWithoutATrace() {
    Run run = run(failing(() -> new IllegalStateException(FORGED)), Map.of(), "render", "-");
    assertThat(run.exitCode()).isEqualTo(JobcCommand.INTERNAL_ERROR).isEqualTo(3);
    assertThat(run.out()).isEmpty();
    assertThat(run.err())
        .isEqualTo(
            "jobc: internal error: java.lang.IllegalStateException:"
                + " boom\\n/etc/passwd:1:1: error: forged\n");
  }

  @Test
  void jobcDebugAddsTheStackTrace() {
    Run run =
        run(
            failing(() -> new IllegalStateException("boom")),
            Map.of("JOBC_DEBUG", "1"),
            "render",
            "-");
    assertThat(run.exitCode()).isEqualTo(3);
    assertThat(run.err())
        .startsWith("jobc: internal error: java.lang.IllegalStateException: boom\n")
        .contains("\tat dev.jobc.cli.MainTest$");
    assertThat(
            run(
                    failing(() -> new IllegalStateException("boom")),
                    Map.of("JOBC_DEBUG", "0"),
                    "render",
                    "-")
                .err())
        .isEqualTo("jobc: internal error: java.lang.IllegalStateException: boom\n");
  }

  @Test
  void errorsEndInOneLineToo() {
    Run overflow = run(failing(StackOverflowError::new), Map.of(), "krm");
    assertThat(overflow.exitCode()).isEqualTo(3);
    assertThat(overflow.out()).isEmpty();
    assertThat(overflow.err()).isEqualTo("jobc: internal error: java.lang.StackOverflowError\n");

    Run memory =
        run(failing(() -> new OutOfMemoryError("Java heap space")), Map.of(), "render", "-");
    assertThat(memory.exitCode()).isEqualTo(3);
    assertThat(memory.err())
        .isEqualTo("jobc: internal error: java.lang.OutOfMemoryError: Java heap space\n");
  }

  @Test
  void argocdReportsAnInternalErrorTheSameWay() {
    Path broken =
        (Path)
            Proxy.newProxyInstance(
                Path.class.getClassLoader(),
                new Class<?>[] {Path.class},
                (proxy, method, args) -> {
                  throw new UnsupportedOperationException("no file system here");
                });
    Run run = Run.of(new JobcCommand(broken, InputStream.nullInputStream(), Map.of()), "argocd");
    assertThat(run.exitCode()).isEqualTo(3);
    assertThat(run.out()).isEmpty();
    assertThat(run.err())
        .isEqualTo(
            "jobc: internal error: java.lang.UnsupportedOperationException: no file system here\n");
  }

  /** A command that fails as the test says, for what no input of the real commands can reach. */
  @Command(name = "fail", mixinStandardHelpOptions = true, versionProvider = BrokenVersion.class)
  static final class FailingCommand implements Callable<Integer> {
    private final Throwable failure;

    FailingCommand(Throwable failure) {
      this.failure = failure;
    }

    @Override
    public Integer call() {
      throw sneaky(failure);
    }
  }

  static final class BrokenVersion implements IVersionProvider {
    @Override
    public String[] getVersion() {
      throw new IllegalStateException("version.properties is missing from the jar");
    }
  }

  private static Run runFailing(Throwable failure, String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cli =
        Main.commandLine(
            new JobcCommand(Path.of(""), InputStream.nullInputStream(), Map.of()),
            new PrintWriter(out),
            new PrintWriter(err));
    cli.addSubcommand(new FailingCommand(failure));
    int exitCode = Main.execute(cli, args);
    return new Run(exitCode, out.toString(), err.toString());
  }

  @Test
  void everyCommandSharesTheHandlingEvenOutsideItsCall() {
    assertThat(runFailing(new IllegalArgumentException("bad"), "fail"))
        .isEqualTo(
            new Run(3, "", "jobc: internal error: java.lang.IllegalArgumentException: bad\n"));
    assertThat(runFailing(new StackOverflowError(), "fail"))
        .isEqualTo(new Run(3, "", "jobc: internal error: java.lang.StackOverflowError\n"));
    // picocli itself prints a stack trace for exceptions while printing help or the version.
    assertThat(runFailing(new IllegalStateException("unused"), "fail", "--version"))
        .isEqualTo(
            new Run(
                3,
                "",
                "jobc: internal error: java.lang.IllegalStateException: version.properties is"
                    + " missing from the jar\n"));
  }

  @Test
  void aUsageErrorQuotingAnArgumentStaysOnOneLine() {
    Run run = run(InputStream.nullInputStream(), Map.of(), "render", "--namespace", FORGED, "-");
    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err().lines().findFirst().orElseThrow())
        .contains("boom\\n/etc/passwd:1:1: error: forged");
    assertThat(run.err()).doesNotContain("\n/etc/passwd");

    Run unknown = run(InputStream.nullInputStream(), Map.of(), "render", "--x" + FORGED, "-");
    assertThat(unknown.exitCode()).isEqualTo(2);
    assertThat(unknown.err().lines().findFirst().orElseThrow())
        .isEqualTo("jobc: error: Unknown option: '--xboom\\n/etc/passwd:1:1: error: forged'");
    assertThat(unknown.err()).doesNotContain("\n/etc/passwd");
  }

  @Test
  void exitCodesAreDocumented() {
    assertThat(Run.in(dir, "--help").out()).contains("3   internal error");
    assertThat(Run.in(dir, "krm", "--help").out()).contains("3   internal error");
  }
}
