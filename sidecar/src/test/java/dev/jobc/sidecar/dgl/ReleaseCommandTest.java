package dev.jobc.sidecar.dgl;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jobc.conventions.DglNaming;
import dev.jobc.options.CompileOptions;
import dev.jobc.options.OptionTable;
import dev.jobc.options.WorkerKind;
import dev.jobc.sidecar.ApiStandIn;
import dev.jobc.sidecar.Eventually;
import dev.jobc.sidecar.OwnThread;
import dev.jobc.sidecar.RenderedSidecar;
import dev.jobc.sidecar.base.Termination;
import dev.jobc.sidecar.base.WorkerCleanup;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.rbac.Role;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * {@code release} beside a DGLJob launcher, as jobc renders it (the container's arguments and the
 * launcher's Role, which the stand-in enforces): the workers go when the launcher pod stops.
 */
class ReleaseCommandTest {
  ApiStandIn api;
  Termination termination;

  @BeforeEach
  void start() {
    api = new ApiStandIn();
    termination = new Termination();
  }

  @AfterEach
  void stop() {
    api.close();
    assertThat(api.denied).as("requests the rendered Role does not grant").isEmpty();
  }

  /** The objects jobc renders for DGLJob {@code g} with {@code cleanPodPolicy} and workers. */
  private static List<HasMetadata> render(String cleanPodPolicy, WorkerKind workers) {
    return RenderedSidecar.render(
        RenderedSidecar.dglJob("g", 2, cleanPodPolicy),
        CompileOptions.defaults().with(OptionTable.WORKERS, workers));
  }

  /**
   * Runs the rendered {@code jobc-release-workers} under the rendered launcher Role; returns once
   * it has warmed up and waits for the stop.
   */
  private CompletableFuture<Integer> run(List<HasMetadata> objects) {
    Pod launcher = RenderedSidecar.named(objects, Pod.class, "g-launcher");
    api.under(RenderedSidecar.named(objects, Role.class, "g-launcher")).rendered(objects);
    Container release =
        launcher.getSpec().getInitContainers().stream()
            .filter(c -> c.getName().equals(DglNaming.WORKER_RELEASE))
            .findFirst()
            .orElseThrow();
    ReleaseCommand command =
        new ReleaseCommand(
            termination,
            api::sidecarClient,
            Map.of("POD_NAMESPACE", ApiStandIn.NS, "POD_NAME", "g-launcher"));
    CommandLine cli = new CommandLine(command);
    List<String> args = release.getArgs().subList(1, release.getArgs().size());
    int events = api.dryRuns.size();
    CompletableFuture<Integer> code =
        OwnThread.supply(() -> cli.execute(args.toArray(String[]::new)));
    // The warm-up's dry-run Event is its last request before it waits for the stop.
    Eventually.until(
        "warmed up",
        () ->
            code.isDone()
                || api.dryRuns.stream().skip(events).anyMatch(r -> r.contains("/events")));
    assertThat(code).as("waiting for the stop").isNotDone();
    return code;
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
    api.create(launcher(0));
    api.scales.put("g-worker", 2);
    var running = run(render("Running", WorkerKind.STATEFUL_SET));
    // Warmed up by dry runs: checked by the API server, nothing changed, no Event.
    assertThat(api.dryRuns)
        .anyMatch(r -> r.startsWith("PATCH /apis/apps/v1/namespaces/team/statefulsets/g-worker/"));
    assertThat(api.scalePatches).as("nothing before the stop").isEmpty();
    assertThat(api.scales).containsEntry("g-worker", 2);
    assertThat(events()).isEmpty();
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

  /** Bare worker pods are ended, never deleted (they are jobc's, in Git). */
  @Test
  void aFailedLauncherEndsTheWorkerPodsBySelector() throws Exception {
    api.create(launcher(2));
    for (int i = 0; i < 2; i++) {
      api.create(
          new PodBuilder()
              .withNewMetadata()
              .withName("g-worker-" + i)
              .withNamespace(ApiStandIn.NS)
              .withLabels(Map.of("jobc.dev/job-name", "g", "dgl-replica-type", "Worker"))
              .endMetadata()
              .withNewSpec()
              .endSpec()
              .withNewStatus()
              .withPhase("Running")
              .endStatus()
              .build());
    }
    var running = run(render("All", WorkerKind.PODS));
    termination.requestStop();
    assertThat(running.get(30, TimeUnit.SECONDS)).isZero();
    assertThat(api.admin.pods().inNamespace(ApiStandIn.NS).list().getItems())
        .filteredOn(p -> p.getMetadata().getName().startsWith("g-worker-"))
        .hasSize(2)
        .allSatisfy(
            p -> {
              assertThat(p.getSpec().getActiveDeadlineSeconds()).isEqualTo(1L);
              assertThat(p.getMetadata().getAnnotations())
                  .containsEntry(WorkerCleanup.ENDED_BY, "g-launcher");
            });
    assertThat(events())
        .extracting(Event::getMessage)
        .containsExactly(
            "launcher failed (exit code 2); cleanPodPolicy All: ended g-worker-0, g-worker-1");
  }

  /**
   * The release goes on through an API outage longer than the four attempts it used to make: five
   * failed patches (one request per attempt).
   */
  @Test
  void theReleaseOutlastsAnApiOutageOfMoreThanFourAttempts() throws Exception {
    api.create(launcher(0));
    api.scales.put("g-worker", 2);
    var running = run(render("Running", WorkerKind.STATEFUL_SET));
    api.scaleFailures.set(5);
    termination.requestStop();
    assertThat(running.get(30, TimeUnit.SECONDS)).isZero();
    assertThat(api.scales).containsEntry("g-worker", 0);
    assertThat(api.scaleFailures).hasValue(0);
  }
}
