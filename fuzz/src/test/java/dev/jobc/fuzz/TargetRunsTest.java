package dev.jobc.fuzz;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.jobc.model.Budget;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The checks that make a fuzzing run fail: findings, a run that mutated too little, an execution
 * past the memory ceiling.
 */
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

  /**
   * With fuzz.findings=report (CI), a fuzzing run's finding is kept as a file with its trace and
   * the run passes; regression mode still fails on it.
   */
  @Test
  void aReportedFindingIsKeptAndOnlyAFuzzingRunPasses(@TempDir Path dir) throws Exception {
    System.setProperty("fuzz.findings", "report");
    System.setProperty("fuzz.findings.dir", dir.toString());
    try {
      byte[] input = "boom".getBytes(StandardCharsets.UTF_8);
      TargetRuns.Body boom =
          () -> {
            throw new IllegalStateException("boom");
          };
      assertThatThrownBy(() -> runs.execute(input, boom, false)).hasMessage("boom");
      runs.execute(input, boom, true);
      Path kept = dir.resolve("TargetRunsTest.x/crash-c53d2f1a9a8499bcb477be56c31caa5c76ae60f5");
      assertThat(kept).hasBinaryContent(input);
      assertThat(Path.of(kept + ".txt")).content().contains("IllegalStateException: boom");
      assertThatThrownBy(() -> runs.report(false, 0))
          .hasMessageContaining("1 distinct finding(s): java.lang.IllegalStateException at ");
      assertThatCode(() -> runs.report(true, 0)).doesNotThrowAnyException();
    } finally {
      System.clearProperty("fuzz.findings");
      System.clearProperty("fuzz.findings.dir");
    }
  }

  @Test
  void anExecutionThatAllocatesPastTheCeilingIsAFinding() throws Exception {
    assertThatCode(() -> MemoryCeiling.hold(64L << 20, () -> waste(16))).doesNotThrowAnyException();
    assertThatThrownBy(() -> MemoryCeiling.hold(64L << 20, () -> waste(128)))
        .hasMessageContaining("more than the 64 MiB one execution may");
  }

  @Test
  void theFuzzJvmHasJobcsHeap() {
    var flags = java.lang.management.ManagementFactory.getRuntimeMXBean().getInputArguments();
    assertThat(flags).contains("-Xmx" + Budget.HEAP_MIB + "m");
  }

  /** Allocates {@code mib} MiB, a megabyte at a time, keeping none of it. */
  private static void waste(int mib) {
    long sum = 0;
    for (int i = 0; i < mib; i++) {
      byte[] block = new byte[1 << 20];
      block[i % block.length] = 1;
      sum += block[i % block.length];
    }
    if (sum != mib) {
      throw new IllegalStateException();
    }
  }
}
