package dev.jobc.golden;

import static org.junit.jupiter.api.Assertions.fail;

import dev.jobc.cli.JobcCommand;
import dev.jobc.diag.Diagnostic;
import dev.jobc.io.UnifiedDiff;
import dev.jobc.load.Document;
import dev.jobc.load.LoadResult;
import dev.jobc.load.YamlLimits;
import dev.jobc.load.YamlLoader;
import dev.jobc.model.Source;
import dev.jobc.render.YamlWriter;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import picocli.CommandLine;

/**
 * Runs every case of {@code golden/cases} through {@code jobc render} and checks its output byte
 * for byte, that a second run prints the same bytes, and that the canonical writer reproduces
 * {@code expected.yaml}.
 *
 * <p>System properties: {@code golden.dir} (set by golden/pom.xml), {@code golden.case} (run one
 * case), {@code golden.update} (rewrite expectations, then fail each case so the run never passes:
 * an aborted test would count as skipped, and a build with skipped tests succeeds).
 */
class GoldenCasesTest {

  private static final String UPDATE_COMMAND =
      "mvn -B -pl golden -am verify -Dgolden.update=true -Dgolden.case=";

  private static final String MIGRATE_UPDATE_COMMAND =
      "mvn -B -pl golden -am verify -Dtest=MigrateCasesTest -Dgolden.migrate.update=true"
          + " -Dgolden.migrate.case=";

  @TestFactory
  Stream<DynamicTest> cases() {
    return cases("golden", GoldenCase.RENDER);
  }

  /**
   * The cases of the directory that system property {@code <prefix>.dir} names, each run as {@code
   * jobc <command>}, with {@code <prefix>.case} and {@code <prefix>.update} as above:
   * MigrateCasesTest runs golden/migrate-cases here too ({@code golden.migrate.*}).
   */
  static Stream<DynamicTest> cases(String prefix, String command) {
    String dir = System.getProperty(prefix + ".dir");
    if (dir == null || dir.isBlank()) {
      throw new AssertionError(
          prefix + ".dir is not set: run through Maven (golden/pom.xml sets it)");
    }
    boolean update = Boolean.parseBoolean(System.getProperty(prefix + ".update"));
    if (update && System.getenv("CI") != null) {
      throw new AssertionError(
          "golden.update refuses to run when CI is set: expectations are rewritten only where"
              + " someone reads the diff before committing it");
    }
    List<GoldenCase> cases = GoldenCase.discover(Path.of(dir), update, command);
    String only = System.getProperty(prefix + ".case", "").strip();
    if (!only.isEmpty()) {
      cases = cases.stream().filter(c -> c.name().equals(only)).toList();
      if (cases.isEmpty()) {
        throw new AssertionError("no golden case named " + only + " in " + dir);
      }
    }
    // No test source URI: surefire 3.5 silently drops dynamic tests whose source is a directory,
    // failures included.
    return cases.stream().map(c -> DynamicTest.dynamicTest(c.name(), () -> check(c, update)));
  }

  /** The directory of the cases, {@code golden.dir}. */
  static Path casesDir() {
    String dir = System.getProperty("golden.dir");
    if (dir == null || dir.isBlank()) {
      throw new AssertionError("golden.dir is not set: run through Maven (golden/pom.xml sets it)");
    }
    return Path.of(dir);
  }

  /** What one {@code jobc} run printed and returned; {@code crash} is set when it threw. */
  record Run(int exit, String out, String err, String crash) {}

  /** Runs {@code jobc} as {@code bin/jobc} would, in {@code dir}, with an empty stdin. */
  static Run run(Path dir, List<String> args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    StringWriter crash = new StringWriter();
    String[] arguments = args.toArray(String[]::new);
    CommandLine cli =
        JobcCommand.commandLine(new JobcCommand(dir, InputStream.nullInputStream()), arguments);
    cli.setOut(new PrintWriter(out, true));
    cli.setErr(new PrintWriter(err, true));
    // picocli would print a stack trace and exit 1, which looks like an error case; a crash must
    // never become an expectation.
    cli.setExecutionExceptionHandler(
        (e, commandLine, parseResult) -> {
          e.printStackTrace(new PrintWriter(crash, true));
          return 1;
        });
    int exit = cli.execute(arguments);
    cli.getOut().flush();
    cli.getErr().flush();
    return new Run(exit, out.toString(), err.toString(), crash.toString());
  }

  private static void check(GoldenCase c, boolean update) {
    check(c, update, true);
  }

  /**
   * Runs a case and compares its output with its expectation, once: what a change to the compiler
   * can break. The second run and the fixed-point check of {@code expected.yaml} are left to {@link
   * #cases()}; {@link KindCases} runs this under PIT, where every run counts.
   */
  static void compare(GoldenCase c) {
    check(c, false, false);
  }

  private static void check(GoldenCase c, boolean update, boolean thorough) {
    List<String> args = c.arguments();
    Run first = run(c.dir(), args);
    Run second = thorough ? run(c.dir(), args) : first;
    List<String> failures = new ArrayList<>();
    if (!first.crash().isEmpty()) {
      fail(header(c, args) + "jobc threw instead of reporting a diagnostic:\n" + first.crash());
    }
    if (first.exit() != 0 && first.exit() != 1) {
      fail(
          header(c, args)
              + "exit code "
              + first.exit()
              + " (0 or 1 expected; 2 is a usage error: check options.yaml)\nstderr:\n"
              + first.err());
    }
    if (first.exit() != second.exit()) {
      failures.add("not deterministic: exit " + first.exit() + ", then " + second.exit());
    }
    failures.add(UnifiedDiff.diff("stdout (run 1)", first.out(), "stdout (run 2)", second.out()));
    failures.add(UnifiedDiff.diff("stderr (run 1)", first.err(), "stderr (run 2)", second.err()));
    if (update) {
      if (first.exit() == 0) {
        failures.add(fixedPointProblem(first.out()));
      }
      failIfAny(c, args, failures, false);
      fail(update(c, first));
      return;
    }
    switch (c.expectation()) {
      case SUCCESS -> {
        String expected = GoldenCase.read(c.dir().resolve(GoldenCase.EXPECTED));
        if (first.exit() != 0) {
          failures.add("exit code " + first.exit() + ", expected 0 (" + GoldenCase.EXPECTED + ")");
        }
        failures.add(UnifiedDiff.diff(GoldenCase.EXPECTED, expected, "stdout", first.out()));
        String warnings =
            c.hasWarnings() ? GoldenCase.read(c.dir().resolve(GoldenCase.WARNINGS)) : "";
        failures.add(UnifiedDiff.diff(GoldenCase.WARNINGS, warnings, "stderr", first.err()));
        if (thorough) {
          failures.add(fixedPointProblem(expected));
        }
      }
      case ERROR -> {
        String expected = GoldenCase.read(c.dir().resolve(GoldenCase.ERRORS));
        if (first.exit() != 1) {
          failures.add("exit code " + first.exit() + ", expected 1 (" + GoldenCase.ERRORS + ")");
        }
        failures.add(UnifiedDiff.diff(GoldenCase.ERRORS, expected, "stderr", first.err()));
        failures.add(UnifiedDiff.diff("stdout (expected empty)", "", "stdout", first.out()));
      }
      case NEW ->
          throw new IllegalStateException("discover() lets NEW through only in update mode");
    }
    failIfAny(c, args, failures, true);
  }

  /**
   * Writes the run's output into the case's expectation and says what changed. A case never
   * switches between success and error here: that is a decision for a person ({@code git mv}).
   */
  private static String update(GoldenCase c, Run run) {
    boolean success = run.exit() == 0;
    if (c.expectation() == GoldenCase.Expectation.SUCCESS && !success
        || c.expectation() == GoldenCase.Expectation.ERROR && success) {
      fail(
          header(c, List.of())
              + "expects "
              + (success ? "an error" : "success")
              + " but jobc exited "
              + run.exit()
              + "; update mode never switches a case between success and error: rename the"
              + " expectation by hand if that is intended\nstdout:\n"
              + run.out()
              + "stderr:\n"
              + run.err());
    }
    List<String> changed = new ArrayList<>();
    if (success) {
      write(c.dir().resolve(GoldenCase.EXPECTED), run.out(), changed);
      Path warnings = c.dir().resolve(GoldenCase.WARNINGS);
      if (!run.err().isEmpty()) {
        write(warnings, run.err(), changed);
      } else if (Files.exists(warnings)) {
        delete(warnings, changed);
      }
    } else {
      write(c.dir().resolve(GoldenCase.ERRORS), run.err(), changed);
    }
    return (changed.isEmpty()
            ? "golden.update: " + c.dir() + " unchanged"
            : "golden.update: rewrote " + String.join(", ", changed) + "; read `git diff golden/`")
        + " (an update run always fails; run again without -Dgolden.update to check)";
  }

  private static void write(Path file, String text, List<String> changed) {
    try {
      if (Files.exists(file) && Files.readString(file, StandardCharsets.UTF_8).equals(text)) {
        return;
      }
      Files.writeString(file, text, StandardCharsets.UTF_8);
      changed.add(file.toString());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void delete(Path file, List<String> changed) {
    try {
      Files.delete(file);
      changed.add(file + " (deleted)");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Reads a YAML stream with {@link YamlLoader} and writes each document back with {@link
   * YamlWriter}; returns a diff when that does not give the same bytes, else "".
   */
  static String fixedPointProblem(String stream) {
    LoadResult loaded =
        new YamlLoader(YamlLimits.defaults()).load(new Source(GoldenCase.EXPECTED, stream));
    List<String> errors =
        loaded.diagnostics().stream().filter(Diagnostic::isError).map(Diagnostic::format).toList();
    if (!errors.isEmpty()) {
      return "the output does not load with YamlLoader:\n" + String.join("\n", errors) + "\n";
    }
    // The separator layout is the renderer's; reproduce it so only the documents are compared.
    boolean leadingMarker = stream.startsWith("---\n");
    StringBuilder rewritten = new StringBuilder();
    YamlWriter writer = new YamlWriter();
    List<Document> documents = loaded.documents();
    for (int i = 0; i < documents.size(); i++) {
      if (i > 0 || leadingMarker) {
        rewritten.append("---\n");
      }
      rewritten.append(writer.write(documents.get(i).root(), false));
    }
    String diff =
        UnifiedDiff.diff(
            GoldenCase.EXPECTED,
            stream,
            "YamlWriter.write(load(...), false)",
            rewritten.toString());
    return diff.isEmpty() ? "" : "the canonical writer is not a fixed point:\n" + diff;
  }

  private static void failIfAny(
      GoldenCase c, List<String> args, List<String> failures, boolean offerUpdate) {
    List<String> real = failures.stream().filter(f -> !f.isEmpty()).toList();
    if (real.isEmpty()) {
      return;
    }
    StringBuilder message = new StringBuilder(header(c, args));
    for (String f : real) {
      message.append(f);
      if (!f.endsWith("\n")) {
        message.append('\n');
      }
    }
    if (offerUpdate) {
      message
          .append("If the new output is right (check it against the upstream source), run:\n  ")
          .append(c.command().equals(GoldenCase.RENDER) ? UPDATE_COMMAND : MIGRATE_UPDATE_COMMAND)
          .append(c.name())
          .append('\n');
    }
    fail(message.toString());
  }

  private static String header(GoldenCase c, List<String> args) {
    return "golden case "
        + c.dir()
        + (args.isEmpty() ? "" : " (jobc " + String.join(" ", args) + ")")
        + ":\n";
  }
}
