package dev.jobc.sidecar;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jobc.sidecar.base.SidecarCommand;
import dev.jobc.sidecar.base.Termination;
import dev.jobc.sidecar.dgl.ReleaseCommand;
import dev.jobc.sidecar.dgl.WaitCommand;
import dev.jobc.sidecar.mpi.RunCommand;
import dev.jobc.sidecar.replicas.TfJobCommand;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** What every subcommand shares: {@code --namespace}, and this pod from the options or the env. */
class SidecarCommandTest {
  static final String NO_POD = "give --namespace and --pod, or set POD_NAMESPACE and POD_NAME";
  static final Map<String, String> ENV = Map.of("POD_NAMESPACE", "env-ns", "POD_NAME", "env-pod");

  private static String usageError(SidecarCommand command, String... args) {
    StringWriter err = new StringWriter();
    int code = new CommandLine(command).setErr(new PrintWriter(err, true)).execute(args);
    assertThat(code).as(err.toString()).isEqualTo(2);
    return err.toString();
  }

  @Test
  void withoutOptionsOrEnvEachCommandNamesBoth() {
    Termination t = new Termination();
    assertThat(
            usageError(
                new RunCommand(t, () -> null, Map.of()),
                "--job",
                "pi",
                "--launcher-container",
                "l"))
        .startsWith(NO_POD + "\n");
    assertThat(
            usageError(
                new ReleaseCommand(t, () -> null, Map.of("POD_NAMESPACE", "ns")),
                "--container",
                "c",
                "--worker-set",
                "w"))
        .startsWith(NO_POD + "\n");
    assertThat(
            usageError(
                new TfJobCommand(t, () -> null, Map.of("POD_NAME", "p")),
                "--job",
                "mnist",
                "--self",
                "Chief:mnist-chief-0",
                "--restart-policy",
                "Chief=Never",
                "--replicas",
                "Chief=1"))
        .startsWith(NO_POD + "\n");
    assertThat(
            usageError(
                new RunCommand(t, () -> null, Map.of("POD_NAMESPACE", "", "POD_NAME", "p")),
                "--job",
                "pi",
                "--launcher-container",
                "l"))
        .as("an empty variable is no value")
        .startsWith(NO_POD + "\n");
  }

  @Test
  void namespaceComesFirstInEveryUsageMessage() {
    Termination t = new Termination();
    for (SidecarCommand command :
        new SidecarCommand[] {
          new RunCommand(t), new ReleaseCommand(t), new TfJobCommand(t), new WaitCommand(t)
        }) {
      List<String> options =
          new CommandLine(command)
              .getUsageMessage()
              .lines()
              .filter(l -> l.startsWith("      --"))
              .toList();
      assertThat(options.get(0)).matches(" +--namespace=NS +Default: \\$POD_NAMESPACE\\.");
      assertThat(options.get(1)).startsWith("      --pod=NAME ");
    }
  }
}
