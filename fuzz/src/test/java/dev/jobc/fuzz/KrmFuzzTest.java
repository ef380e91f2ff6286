package dev.jobc.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import com.fasterxml.jackson.databind.JsonNode;
import dev.jobc.cli.JobcCommand;
import dev.jobc.diag.Code;
import dev.jobc.load.LoadResult;
import dev.jobc.load.YamlLimits;
import dev.jobc.load.YamlLoader;
import dev.jobc.model.Source;
import java.io.ByteArrayInputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Fuzzes {@code jobc krm} in this JVM (so that Jazzer sees its coverage): the fuzzer's bytes are
 * standard input, and whatever they are, the command exits 0 or 1 without throwing, and writes
 * either a ResourceList (with an error result when it exits 1) or, for input that is not one, only
 * diagnostics on stderr. Seeds: the golden cases as ResourceLists, plus any input committed under
 * {@code KrmFuzzTestInputs/krm/}.
 */
class KrmFuzzTest {
  private static final TargetRuns RUNS =
      new TargetRuns(KrmFuzzTest.class, "krm", KrmFuzzTest::seeds);

  // Made at the first execution, after Jazzer has installed its agent (see GoldenSeeds).
  private static YamlLoader loader;

  static Stream<byte[]> seeds() {
    return GoldenSeeds.krmSeeds();
  }

  @AfterAll
  static void report() {
    RUNS.report();
  }

  @MethodSource("seeds")
  @FuzzTest
  void krm(byte[] input) throws Exception {
    RUNS.execute(input, () -> MemoryCeiling.hold("krm", () -> krmOnce(input)));
  }

  private static void krmOnce(byte[] input) throws Exception {
    if (loader == null) {
      loader = new YamlLoader(YamlLimits.defaults());
    }
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    AtomicReference<Exception> thrown = new AtomicReference<>();
    int exit =
        JobcCommand.commandLine(
                new JobcCommand(Path.of(""), new ByteArrayInputStream(input)), "krm")
            .setOut(new PrintWriter(out))
            .setErr(new PrintWriter(err))
            // picocli would print the trace and exit 1; the finding is the exception itself.
            .setExecutionExceptionHandler(
                (e, commandLine, parseResult) -> {
                  thrown.set(e);
                  return 70;
                })
            .execute("krm");
    if (thrown.get() != null) {
      throw thrown.get();
    }
    check(input, exit, out.toString(), err.toString());
  }

  private static void check(byte[] input, int exit, String out, String err) {
    String run = "exit " + exit + "\n--- stdout\n" + out + "--- stderr\n" + err;
    if (exit != 0 && exit != 1) {
      throw new AssertionError("exit code neither 0 nor 1: " + run);
    }
    if (out.isEmpty()) {
      // Only input that is no ResourceList at all gets no ResourceList back.
      if (exit != 1 || !err.startsWith("jobc krm: ")) {
        throw new AssertionError("no ResourceList and no reason on stderr: " + run);
      }
      // Read the input as krm does: a defect of the reader is a diagnostic coded INTERNAL. Not
      // the words "please report it" on stderr: the fuzzer learns them from this very check and
      // writes them into a key, which the diagnostics then echo in their field paths (the
      // committed crash-1c11d17e… input).
      String text = new String(input, StandardCharsets.UTF_8);
      if (loader.load(new Source("<stdin>", text)).diagnostics().stream()
          .anyMatch(d -> d.code() == Code.INTERNAL)) {
        throw new AssertionError("a defect reported as a diagnostic: " + run);
      }
      return;
    }
    LoadResult loaded = loader.load(new Source("stdout", out));
    if (!loaded.ok() || loaded.documents().size() != 1) {
      throw new AssertionError("stdout is not one YAML document: " + loaded.diagnostics() + run);
    }
    JsonNode list = loaded.documents().get(0).root();
    if (!list.path("kind").asText().equals("ResourceList") || !list.path("items").isArray()) {
      throw new AssertionError("stdout is not a ResourceList: " + run);
    }
    boolean errorResult = false;
    for (JsonNode result : list.path("results")) {
      if (result.path("tags").path("code").asText().equals(Code.INTERNAL.title())) {
        throw new AssertionError("a defect reported as a result: " + run);
      }
      errorResult |= result.path("severity").asText().equals("error");
    }
    if (errorResult != (exit == 1)) {
      throw new AssertionError("exit code and error results disagree: " + run);
    }
  }
}
