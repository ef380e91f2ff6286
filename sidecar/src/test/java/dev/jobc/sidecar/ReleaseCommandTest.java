package dev.jobc.sidecar;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jobc.options.WorkerKind;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** {@code release} beside a DGLJob launcher: the workers go when the launcher pod stops. */
class ReleaseCommandTest {
  ApiStandIn api;
  Termination termination;

  @BeforeEach
  void start() {
    termination = new Termination();
  }

  /** The stand-in API under the launcher Role jobc renders for DGLJob {@code g}. */
  private void api(WorkerKind workers) {
    api = new ApiStandIn().under(RenderedJob.dgl("g", 2, workers).role("g-launcher"));
  }

  @AfterEach
  void stop() {
    api.close();
  }

  private CompletableFuture<Integer> run(String... args) {
    ReleaseCommand command =
        new ReleaseCommand(
            termination,
            api::sidecarClient,
            Map.of("POD_NAMESPACE", ApiStandIn.NS, "POD_NAME", "g-launcher"));
    CommandLine cli = new CommandLine(command);
    return CompletableFuture.supplyAsync(() -> cli.execute(args));
  }

  private static Pod launcher(int exitCode) {
    return new PodBuilder()
        .withNewMetadata()
        .withName("g-launcher")
        .withNamespace(ApiStandIn.NS)
        .endMetadata()
        .withNewStatus()
        .withPhase(exitCode == 0 ? "Succeeded" : "Failed")
        .addNewContainerStatus()
        .withName("graphsage")
        .withNewState()
        .withNewTerminated()
        .withExitCode(exitCode)
        .endTerminated()
        .endState()
        .endContainerStatus()
        .endStatus()
        .build();
  }

  private List<Event> events() {
    return api.admin.v1().events().inNamespace(ApiStandIn.NS).list().getItems();
  }

  @Test
  void aFinishedLauncherScalesTheWorkerStatefulSetToZeroAtTheStop() throws Exception {
    api(WorkerKind.STATEFUL_SET);
    api.create(launcher(0));
    var running =
        run(
            "--container",
            "graphsage",
            "--clean-pod-policy",
            "Running",
            "--worker-set",
            "g-worker");
    assertThat(api.scalePatches).as("nothing before the stop").isEmpty();
    termination.requestStop();
    assertThat(running.get(30, TimeUnit.SECONDS)).isZero();
    assertThat(api.scales).containsEntry("g-worker", 0);
    assertThat(events())
        .singleElement()
        .satisfies(
            e -> {
              assertThat(e.getReason()).isEqualTo("WorkersScaledDown");
              assertThat(e.getMessage())
                  .isEqualTo(
                      "launcher succeeded; cleanPodPolicy Running: StatefulSet g-worker scaled to 0");
              assertThat(e.getInvolvedObject().getKind()).isEqualTo("Pod");
              assertThat(e.getInvolvedObject().getName()).isEqualTo("g-launcher");
            });
  }

  @Test
  void aFailedLauncherDeletesTheWorkerPodsBySelector() throws Exception {
    api(WorkerKind.PODS);
    api.create(launcher(2));
    for (int i = 0; i < 2; i++) {
      api.create(
          new PodBuilder()
              .withNewMetadata()
              .withName("g-worker-" + i)
              .withNamespace(ApiStandIn.NS)
              .withLabels(Map.of("jobc.dev/job-name", "g", "dgl-replica-type", "Worker"))
              .endMetadata()
              .withNewStatus()
              .withPhase("Running")
              .endStatus()
              .build());
    }
    var running =
        run(
            "--container",
            "graphsage",
            "--clean-pod-policy",
            "All",
            "--selector",
            "dgl-replica-type=Worker,jobc.dev/job-name=g");
    termination.requestStop();
    assertThat(running.get(30, TimeUnit.SECONDS)).isZero();
    assertThat(api.admin.pods().inNamespace(ApiStandIn.NS).list().getItems())
        .extracting(p -> p.getMetadata().getName())
        .containsExactly("g-launcher");
    assertThat(events())
        .extracting(Event::getMessage)
        .containsExactly(
            "launcher failed (exit code 2); cleanPodPolicy All: deleted g-worker-0, g-worker-1");
  }
}
