package dev.jobc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jobc.model.CompileResult;
import dev.jobc.model.Source;
import dev.jobc.options.CompileOptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A warmed-up compiler compiles exactly as a new one does, while its warm-up runs beside it. */
class WarmStartTest {
  private static final Path CASE = Path.of("..", "golden", "cases", "mpijob-v2beta1-pi");

  @Test
  void aWarmCompilerGivesTheGoldenOutput() throws IOException {
    List<Source> input =
        List.of(new Source("input.yaml", Files.readString(CASE.resolve("input.yaml"))));
    String expected = Files.readString(CASE.resolve("expected.yaml"));

    CompileResult warm = WarmStart.begin().compiler().compile(input, CompileOptions.defaults());
    CompileResult cold = WarmStart.none().compiler().compile(input, CompileOptions.defaults());

    assertThat(warm.ok()).as(warm.diagnostics().toString()).isTrue();
    assertThat(warm.yaml()).isEqualTo(expected).isEqualTo(cold.yaml());
  }
}
