package dev.jobc.fuzz;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The checks that make a fuzzing run fail: findings, and a run that mutated too little. */
class TargetRunsTest {
  private static final byte[] SEED = "seed".getBytes(StandardCharsets.UTF_8);

  private final TargetRuns runs = new TargetRuns(TargetRunsTest.class, "x", () -> Stream.of(SEED));

  @Test
  void aFuzzingRunThatOnlyReplayedItsSeedsFails() throws Exception {
    runs.execute(SEED, () -> {});
    runs.execute(new byte[0], () -> {}); // libFuzzer's first input
    assertThatThrownBy(() -> runs.report(true, 0)).hasMessageContaining("mutated nothing");
    assertThatCode(() -> runs.report(false, 0)).doesNotThrowAnyException();
  }

  @Test
  void aFuzzingRunWithAnInputOfItsOwnPasses() throws Exception {
    runs.execute(SEED, () -> {});
    runs.execute("seeds".getBytes(StandardCharsets.UTF_8), () -> {});
    assertThatCode(() -> runs.report(true, 0)).doesNotThrowAnyException();
  }

  @Test
  void aRunBoundedByExecutionsNeedsHalfOfThemOfItsOwn() throws Exception {
    runs.execute(new byte[0], () -> {});
    runs.execute(SEED, () -> {});
    runs.execute("seeds".getBytes(StandardCharsets.UTF_8), () -> {});
    assertThatThrownBy(() -> runs.report(true, 5))
        .hasMessageContaining("3 executions, 1 of them inputs made by this run, fewer than 2: half")
        .hasMessageContaining("half of its 5 runs");
    runs.execute("seedz".getBytes(StandardCharsets.UTF_8), () -> {});
    assertThatCode(() -> runs.report(true, 5)).doesNotThrowAnyException();
    assertThatCode(() -> runs.report(false, 5)).doesNotThrowAnyException();
  }

  @Test
  void aFindingIsPassedOnAndFailsTheReportEvenWhenTheRunWentOn() throws Exception {
    assertThatThrownBy(
            () ->
                runs.execute(
                    "seeds".getBytes(StandardCharsets.UTF_8),
                    () -> {
                      throw new IllegalStateException("boom");
                    }))
        .hasMessage("boom");
    runs.execute("more".getBytes(StandardCharsets.UTF_8), () -> {});
    assertThatThrownBy(() -> runs.report(true, 0))
        .hasMessageContaining("1 distinct finding(s): java.lang.IllegalStateException at ");
  }
}
