package dev.jobc.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.jobc.ManifestCompiler;
import dev.jobc.diag.Code;
import dev.jobc.diag.Diagnostic;
import dev.jobc.load.LoadResult;
import dev.jobc.load.YamlLimits;
import dev.jobc.load.YamlLoader;
import dev.jobc.model.Budget;
import dev.jobc.model.CompileResult;
import dev.jobc.model.Source;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Fuzzes {@link ManifestCompiler#compile}: whatever the text and options, it returns diagnostics,
 * never throws, and stays within jobc's memory ceiling ({@link MemoryCeiling}). Input: {@link
 * CompileInput} (YAML behind an optional options line); seeds: the golden cases, plus any input
 * committed under {@code CompileFuzzTestInputs/compile/}.
 */
class CompileFuzzTest {
  private static final TargetRuns RUNS =
      new TargetRuns(CompileFuzzTest.class, "compile", CompileFuzzTest::seeds);

  // Made at the first execution, after Jazzer has installed its agent (see GoldenSeeds).
  private static ManifestCompiler compiler;
  private static YamlLoader loader;

  static Stream<byte[]> seeds() {
    return GoldenSeeds.compileSeeds();
  }

  @AfterAll
  static void report() {
    RUNS.report();
  }

  @MethodSource("seeds")
  @FuzzTest
  void compile(byte[] input) throws Exception {
    RUNS.execute(input, () -> MemoryCeiling.hold("compile", () -> compileOnce(input)));
  }

  private static void compileOnce(byte[] input) {
    if (compiler == null) {
      compiler = new ManifestCompiler();
      // The output may be longer and deeper than one input may be (aliases expanded, templates
      // nested in generated objects), up to the run's output budget: read it back as kubectl
      // would, without the input's limits.
      YamlLimits inputs = YamlLimits.defaults();
      loader =
          new YamlLoader(
              new YamlLimits(
                  Math.toIntExact(Budget.RUN_OUTPUT_CHARS),
                  inputs.maxDepth() + 20,
                  Budget.RUN_OUTPUT_CHARS,
                  inputs.maxAliases(),
                  inputs.maxAliasNodes(),
                  inputs.maxNumberDigits()));
    }
    CompileInput in;
    try {
      in = CompileInput.decode(input);
    } catch (IllegalArgumentException e) {
      return; // a bad option is a usage error; front ends reject it before compiling
    }
    check(compiler.compile(List.of(new Source("input.yaml", in.text())), in.options()));
  }

  /** What every result must satisfy besides having been returned. */
  private static void check(CompileResult result) {
    for (Diagnostic d : result.diagnostics()) {
      if (d.code() == Code.INTERNAL) {
        throw new AssertionError("a defect reported as a diagnostic: " + d.format());
      }
    }
    if (!result.ok()) {
      if (!result.objects().isEmpty()) {
        throw new AssertionError("objects next to errors: " + result.diagnostics());
      }
      return;
    }
    // The output is read back by every consumer (kubectl, kpt, jobc krm itself).
    LoadResult reloaded = loader.load(new Source("output", result.yaml()));
    if (!reloaded.ok() || reloaded.documents().size() != result.objects().size()) {
      throw new AssertionError(
          "the output does not load as "
              + result.objects().size()
              + " documents: "
              + reloaded.diagnostics()
              + "\n"
              + result.yaml());
    }
  }
}
