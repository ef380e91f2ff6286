package dev.jobc.sidecar.mpi;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jobc.sidecar.base.Termination;
import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** {@code run}'s options: this pod from the options or the env, the grace period. */
class RunCommandTest {
  static final Map<String, String> ENV = Map.of("POD_NAMESPACE", "env-ns", "POD_NAME", "env-pod");

  @Test
  void optionsWinOverTheEnvAndTheEnvFillsTheRest() {
    RunCommand run = new RunCommand(new Termination(), () -> null, ENV);
    new CommandLine(run).parseArgs("--job", "pi", "--launcher-container", "l", "--pod", "opt-pod");
    assertThat(run.settings().namespace()).isEqualTo("env-ns");
    assertThat(run.settings().pod()).isEqualTo("opt-pod");
  }

  /** The launcher pod's grace period reaches the sidecar from its arguments, before any read. */
  @Test
  void theRenderedGracePeriodBoundsTheCleanUpAfterSigterm() {
    Termination t = new Termination();
    RunCommand run = new RunCommand(t, () -> null, ENV);
    new CommandLine(run)
        .parseArgs("--job", "pi", "--launcher-container", "l", "--termination-grace-period", "300");
    run.settings();
    assertThat(t.grace()).isEqualTo(java.time.Duration.ofSeconds(295));
  }
}
