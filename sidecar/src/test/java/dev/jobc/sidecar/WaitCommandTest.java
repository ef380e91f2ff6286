package dev.jobc.sidecar;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.PodBuilder;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class WaitCommandTest {
  static ApiStandIn api;
  @TempDir Path dir;
  final StringWriter err = new StringWriter();
  final Termination termination = new Termination();

  @BeforeAll
  static void start() {
    api = new ApiStandIn();
  }

  @AfterAll
  static void stop() {
    api.close();
  }

  private int run(String... args) {
    WaitCommand command =
        new WaitCommand(
            termination,
            api::sidecarClient,
            Map.of("POD_NAMESPACE", ApiStandIn.NS, "POD_IP", "10.9.9.9"));
    return new CommandLine(command).setErr(new PrintWriter(err, true)).execute(args);
  }

  @Test
  void aTimeoutNamesThePodsStillWaitedFor() {
    api.create(ApiStandIn.worker("t", 0, true, "10.1.0.0"));
    api.create(ApiStandIn.worker("t", 1, false, "10.1.0.1"));
    int code =
        run("--pod", "t-worker-0", "--pod", "t-worker-1", "--pod", "t-worker-2", "--timeout", "1s");
    assertThat(code).isEqualTo(1);
    assertThat(err.toString())
        .isEqualTo(
            "jobc-sidecar wait: timed out after 1s waiting for Ready: t-worker-1 (Running),"
                + " t-worker-2 (not found)\n");
  }

  @Test
  void aFailedPodEndsTheWait() {
    api.create(ApiStandIn.worker("f", 0, false, "10.2.0.0"));
    CompletableFuture<Integer> code =
        CompletableFuture.supplyAsync(() -> run("--pod", "f-worker-0", "--timeout", "1h"));
    api.setPhase("f-worker-0", "Failed");
    assertThat(code.join()).isEqualTo(1);
    assertThat(err.toString()).isEqualTo("jobc-sidecar wait: pod f-worker-0 failed\n");
  }

  @Test
  void waitsForSucceededAndForReadinessThatComesLater() {
    api.create(
        new PodBuilder(ApiStandIn.worker("s", 0, false, "10.3.0.0"))
            .editMetadata()
            .withName("s-partitioner")
            .endMetadata()
            .build());
    api.create(ApiStandIn.worker("s", 0, false, "10.3.0.1"));
    CompletableFuture<Integer> succeeded =
        CompletableFuture.supplyAsync(
            () -> run("--pod", "s-partitioner", "--for", "succeeded", "--timeout", "1h"));
    CompletableFuture<Integer> ready =
        CompletableFuture.supplyAsync(() -> run("--pod", "s-worker-0", "--timeout", "1h"));
    api.setPhase("s-partitioner", "Succeeded");
    api.setReady("s-worker-0", true);
    assertThat(succeeded.join()).isZero();
    assertThat(ready.join()).isZero();
  }

  @Test
  void writesDglFilesInNumericIndexOrder() throws Exception {
    List<String> args = new ArrayList<>();
    for (int i = 11; i >= 0; i--) {
      api.create(ApiStandIn.worker("dgl", i, true, "10.4.0." + i));
    }
    api.create(
        new PodBuilder(ApiStandIn.worker("dgl", 0, false, "10.4.1.1"))
            .editMetadata()
            .withName("dgl-partitioner")
            .endMetadata()
            .build());
    for (int i = 0; i < 12; i++) {
      args.addAll(List.of("--pod", "dgl-worker-" + i));
    }
    args.addAll(
        List.of(
            "--dgl-files",
            dir.toString(),
            "--dgl-job",
            "dgl",
            "--dgl-slots",
            "2",
            "--timeout",
            "1m"));
    assertThat(run(args.toArray(String[]::new))).isZero();

    StringBuilder hostfile = new StringBuilder();
    for (int i = 0; i < 12; i++) {
      hostfile.append("10.4.0." + i + " 30050 dgl-worker-" + i + " slots=2\n");
    }
    assertThat(Files.readString(dir.resolve("hostfile"))).isEqualTo(hostfile.toString());
    assertThat(Files.readString(dir.resolve("hostfile")).lines().skip(2).findFirst())
        .hasValue("10.4.0.2 30050 dgl-worker-2 slots=2");
    assertThat(Files.readString(dir.resolve("partfile")))
        .isEqualTo("10.4.1.1 30050 dgl-partitioner\n");
    assertThat(Files.readString(dir.resolve("leadfile")))
        .isEqualTo("10.9.9.9 30050 dgl-launcher\n");
  }

  @Test
  void anEmptyPartfileWithoutAPartitionerAndThenServesUntilStopped() throws Exception {
    api.create(ApiStandIn.worker("np", 0, true, "10.5.0.0"));
    CompletableFuture<Integer> code =
        CompletableFuture.supplyAsync(
            () ->
                run(
                    "--pod",
                    "np-worker-0",
                    "--dgl-files",
                    dir.toString(),
                    "--dgl-job",
                    "np",
                    "--dgl-port",
                    "4000",
                    "--then-serve"));
    Eventually.until("files written", () -> Files.exists(dir.resolve("leadfile")));
    assertThat(Files.readString(dir.resolve("hostfile")))
        .isEqualTo("10.5.0.0 4000 np-worker-0 slots=1\n");
    assertThat(Files.readString(dir.resolve("partfile"))).isEmpty();
    assertThat(code).isNotDone();
    termination.requestStop();
    assertThat(code.get(20, TimeUnit.SECONDS)).isZero();
  }

  @Test
  void usageErrorsExitWithTwo() {
    assertThat(run("--pod", "x", "--for", "running")).isEqualTo(2);
    assertThat(run("--pod", "x", "--timeout", "10")).isEqualTo(2);
    assertThat(run("--pod", "x", "--dgl-files", dir.toString())).isEqualTo(2);
    assertThat(run("--pod", "x", "--selector", "nonsense")).isEqualTo(2);
    assertThat(run()).isEqualTo(2);
  }

  @Test
  void durationsAsKubernetesToolsWriteThem() {
    assertThat(Durations.parse("90s")).isEqualTo(Duration.ofSeconds(90));
    assertThat(Durations.parse("10m")).isEqualTo(Duration.ofMinutes(10));
    assertThat(Durations.parse("1h30m")).isEqualTo(Duration.ofMinutes(90));
    assertThat(Durations.parse("250ms")).isEqualTo(Duration.ofMillis(250));
    assertThat(Durations.format(Duration.ofMinutes(90))).isEqualTo("1h30m");
    for (String bad : List.of("", "10", "0s", "1d", "s", "1h 2m", "-1s")) {
      assertThatThrownBy(() -> Durations.parse(bad))
          .as(bad)
          .hasMessage("'" + bad + "' is not a duration (examples: 90s, 10m, 1h, 1h30m)");
    }
  }
}
