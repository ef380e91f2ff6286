package dev.jobc.fuzz;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import java.util.stream.Stream;

/**
 * Counts the executions of one fuzz target, and among them the inputs this run made (neither a
 * seed, nor a committed input, nor in the corpus the run started from), so that a fuzzing run that
 * spent its executions replaying what it was given fails instead of passing for fuzzing.
 */
final class TargetRuns {
  private final String testClassName;
  private final String method;
  private final String target;
  private final Supplier<Stream<byte[]>> seeds;
  private final List<Path> inputDirectories;
  private final AtomicLong executions = new AtomicLong();
  private final AtomicLong made = new AtomicLong();
  private Set<ByteBuffer> given;
  private final Set<String> findings = new LinkedHashSet<>();

  /**
   * @param testClass and {@code method}: the fuzz test, whose committed inputs are on the class
   *     path ({@code <Class>Inputs/<method>/}) and whose corpus fuzz/pom.xml keeps in {@code
   *     <fuzz.corpus>/<method>}; both are read at the first execution, before the fuzzer adds to
   *     the corpus
   * @param seeds the Java seeds of the fuzz test
   */
  TargetRuns(Class<?> testClass, String method, Supplier<Stream<byte[]>> seeds) {
    this.testClassName = testClass.getSimpleName();
    this.method = method;
    this.target = testClassName + "." + method;
    this.seeds = seeds;
    List<Path> dirs = new ArrayList<>();
    URL committed = testClass.getResource(testClass.getSimpleName() + "Inputs/" + method);
    if (committed != null) {
      try {
        dirs.add(Path.of(committed.toURI()));
      } catch (URISyntaxException e) {
        throw new IllegalStateException(e);
      }
    }
    String corpus = System.getProperty("fuzz.corpus");
    if (corpus != null) {
      dirs.add(Path.of(corpus, method));
    }
    this.inputDirectories = List.copyOf(dirs);
  }

  /** What a fuzz target does with one input. */
  interface Body {
    void run() throws Exception;
  }

  /**
   * Runs {@code body} as the execution of the target with {@code input}: counts it, and records
   * what it throws before passing that on, so that {@link #report} names every distinct finding of
   * a run that went on after the first ({@code -Djazzer.keep_going=N}), which Jazzer lets pass.
   */
  void execute(byte[] input, Body body) throws Exception {
    execute(input, body, fuzzing());
  }

  /** {@link #execute(byte[], Body)} in fuzzing mode or not. */
  void execute(byte[] input, Body body, boolean fuzzing) throws Exception {
    count(input);
    try {
      body.run();
    } catch (Exception | Error e) {
      synchronized (this) {
        findings.add(e.getClass().getName() + where(e));
      }
      Path reported = reportOnly() && fuzzing ? keep(input, e) : null;
      if (reported == null) {
        throw e;
      }
    }
  }

  /**
   * Whether a fuzzing run's findings are reported rather than failing it ({@code fuzz.findings} is
   * {@code report}; fuzz/pom.xml sets it in CI). Two fuzzing runs of one commit with one seed take
   * different paths (Jazzer's and libFuzzer's state is not reproducible), so a run in CI can find a
   * defect that was there before the change under test, at random; the CI log names it, and the
   * replay of every seed and committed input (regression mode) still fails on any.
   */
  static boolean reportOnly() {
    return "report".equals(System.getProperty("fuzz.findings"));
  }

  /**
   * Writes {@code input} to {@code fuzz.findings.dir}/{@code <target>}/crash-{@code <sha1>} with
   * the trace of {@code thrown} beside it, and prints where: Jazzer, which sees no crash, writes
   * none. Returns the input's file.
   */
  private Path keep(byte[] input, Throwable thrown) throws IOException {
    Path dir = Path.of(System.getProperty("fuzz.findings.dir", "fuzz-findings"), target);
    Files.createDirectories(dir);
    String sha1;
    try {
      sha1 = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-1").digest(input));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e); // every JDK has SHA-1
    }
    Path file = dir.resolve("crash-" + sha1);
    Files.write(file, input);
    StringWriter trace = new StringWriter();
    thrown.printStackTrace(new PrintWriter(trace));
    Files.writeString(dir.resolve("crash-" + sha1 + ".txt"), trace.toString());
    System.out.println(target + ": finding reported, not failing (fuzz.findings=report): " + file);
    return file;
  }

  /** " at " the first jobc frame below the fuzz test (else the top frame), or "". */
  private static String where(Throwable e) {
    StackTraceElement[] trace = e.getStackTrace();
    for (StackTraceElement frame : trace) {
      if (frame.getClassName().startsWith("dev.jobc.")
          && !frame.getClassName().startsWith("dev.jobc.fuzz.")) {
        return " at " + frame;
      }
    }
    return trace.length == 0 ? "" : " at " + trace[0];
  }

  private synchronized void count(byte[] input) {
    if (given == null) {
      given = new HashSet<>();
      seeds.get().forEach(s -> given.add(ByteBuffer.wrap(s)));
      for (Path dir : inputDirectories) {
        if (Files.isDirectory(dir)) {
          try (Stream<Path> files = Files.list(dir)) {
            for (Path file : files.filter(Files::isRegularFile).toList()) {
              given.add(ByteBuffer.wrap(Files.readAllBytes(file)));
            }
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        }
      }
    }
    executions.incrementAndGet();
    if (input.length > 0 && !given.contains(ByteBuffer.wrap(input))) {
      made.incrementAndGet();
    }
  }

  /**
   * Prints the counts (to the test's output file under target/surefire-reports); fails when the
   * target threw, and in fuzzing mode unless inputs of the run's own making were at least half of
   * its bound on executions ({@code jazzer.max_executions}, libFuzzer's -runs, which fuzz/pom.xml
   * sets), or at least one when it has none (a run bounded by time). libFuzzer executes exactly
   * that many inputs, its replay of the given ones included, however fast the machine: the minimum
   * depends on the runs and the given inputs, never on timing.
   */
  void report() {
    report(fuzzing(), Long.getLong("jazzer.max_executions", 0));
  }

  /** {@link #report()}, in fuzzing mode or not, with libFuzzer's {@code runs} (0: no bound). */
  synchronized void report(boolean fuzzing, long runs) {
    System.out.printf(
        "%s (%s mode): %d executions, %d of them inputs made by this run%n",
        target, fuzzing ? "fuzzing" : "regression", executions.get(), made.get());
    if (!findings.isEmpty() && fuzzing && reportOnly()) {
      System.out.println(
          "FUZZING FINDINGS, reported and not failing (fuzz.findings=report): "
              + target
              + ": "
              + findings.size()
              + " distinct finding(s): "
              + String.join("; ", findings)
              + " (inputs and traces in "
              + Path.of(System.getProperty("fuzz.findings.dir", "fuzz-findings"), target)
              + ")");
    } else if (!findings.isEmpty()) {
      throw new AssertionError(
          target
              + ": "
              + findings.size()
              + " distinct finding(s): "
              + String.join("; ", findings)
              + " (a fuzzing run writes each input to "
              + testClassName
              + "Inputs/"
              + method
              + "/crash-<sha1>)");
    }
    long due = runs > 0 ? runs / 2 : 1;
    if (fuzzing && made.get() < due) {
      String given = "the given inputs (seeds, committed inputs, corpus)";
      throw new AssertionError(
          String.format(
              "%s: %d executions, %d of them inputs made by this run, fewer than %d: %s",
              target,
              executions.get(),
              made.get(),
              due,
              runs > 0
                  ? "half of its "
                      + runs
                      + " runs; replaying "
                      + given
                      + " took the rest (lower fuzz.seeds or raise the runs)"
                  : "the fuzzer mutated nothing; is fuzz.duration shorter than replaying "
                      + given
                      + " takes?"));
    }
  }

  /** Whether Jazzer fuzzes ({@code JAZZER_FUZZ} set, as Jazzer reads it) or replays inputs. */
  static boolean fuzzing() {
    String value = System.getenv("JAZZER_FUZZ");
    return value != null
        && (value.equals("1") || value.equalsIgnoreCase("true") || value.equalsIgnoreCase("yes"));
  }
}
