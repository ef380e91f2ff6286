package dev.jobc.sidecar.dgl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.jobc.conventions.DglNaming;
import dev.jobc.options.CompileOptions;
import dev.jobc.options.OptionTable;
import dev.jobc.options.WorkerKind;
import dev.jobc.sidecar.ApiStandIn;
import dev.jobc.sidecar.Eventually;
import dev.jobc.sidecar.OwnThread;
import dev.jobc.sidecar.RenderedSidecar;
import dev.jobc.sidecar.RoleCheck;
import dev.jobc.sidecar.base.Durations;
import dev.jobc.sidecar.base.Pods;
import dev.jobc.sidecar.base.Termination;
import io.fabric8.kubernetes.api.model.ContainerStateBuilder;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodSchedulingGate;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.mockwebserver.http.RecordedRequest;
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
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class WaitCommandTest {
  // One API per test: a watch of an earlier test, left registered in a shared mock server after
  // its client closed, made the mock drop later creates (RejectedExecutionException) and a test
  // wait for the client's retries.
  ApiStandIn api;
  @TempDir Path dir;
  final StringWriter err = new StringWriter();
  final Termination termination = new Termination();

  Eventually.FileEvents fileEvents; // wakes Eventually at each file the wait writes

  /**
   * The Roles jobc renders for a DGLJob {@code dgl} in the stand-in's namespace: the launcher's,
   * whose ServiceAccount runs {@code watcher-loop-partitioner} and {@code watcher-loop-worker}
   * (worker StatefulSet, or with {@code --workers pods} bare worker pods), and the partitioner's,
   * which runs {@code jobc-wait-launcher}. Every wait here runs under one of them: the stand-in
   * answers 403 to anything it does not grant.
   */
  static Role launcherRole;

  static Role launcherRoleWithPods;
  static Role partitionerRole;

  @BeforeAll
  static void renderRoles() {
    launcherRole = dglRole(WorkerKind.STATEFUL_SET, "dgl-launcher");
    launcherRoleWithPods = dglRole(WorkerKind.PODS, "dgl-launcher");
    partitionerRole = dglRole(WorkerKind.STATEFUL_SET, "dgl-partitioner");
  }

  private static Role dglRole(WorkerKind workers, String name) {
    return RenderedSidecar.named(dglObjects(workers), Role.class, name);
  }

  /** Everything jobc renders for the DGLJob {@code dgl} (12 workers, DGL-API). */
  private static List<HasMetadata> dglObjects(WorkerKind workers) {
    return RenderedSidecar.render(
        RenderedSidecar.dglJob("dgl", 12, "Running"),
        CompileOptions.defaults().with(OptionTable.WORKERS, workers));
  }

  /**
   * The rendered {@code watcher-loop-worker} lists and watches the job's workers only: the other
   * pods of the namespace (another job's, here) never reach its heap. It watched every pod of the
   * namespace, and died with 2,000 others there.
   */
  @Test
  void theRenderedWorkerWatcherWatchesTheJobsWorkersOnly() throws Exception {
    Pod launcher =
        RenderedSidecar.named(dglObjects(WorkerKind.STATEFUL_SET), Pod.class, "dgl-launcher");
    List<String> args =
        new ArrayList<>(
            launcher.getSpec().getInitContainers().stream()
                .filter(c -> c.getName().equals(DglNaming.WORKER_WATCHER))
                .findFirst()
                .orElseThrow()
                .getArgs());
    args.remove(0); // the subcommand
    args.set(args.indexOf("--dgl-files") + 1, dir.toString());
    for (int i = 0; i < 12; i++) {
      api.create(
          new PodBuilder(started("dgl-worker-" + i, true, false))
              .editMetadata()
              .withLabels(Map.of("jobc.dev/job-name", "dgl", "dgl-replica-type", "Worker"))
              .endMetadata()
              .build());
      api.create(started("other-worker-" + i, true, false));
    }
    assertThat(run(args.toArray(String[]::new))).isZero();
    assertThat(Files.readString(dir.resolve("hostfile")).lines()).hasSize(12);
    assertThat(api.podLists())
        .isNotEmpty()
        .allSatisfy(
            p -> assertThat(p).contains("labelSelector=").contains("jobc.dev/job-name=dgl"));
  }

  @BeforeEach
  void start() {
    api = new ApiStandIn();
    api.role = RoleCheck.of(launcherRole);
    fileEvents = Eventually.watching(dir);
  }

  @AfterEach
  void stop() {
    fileEvents.close();
    api.close();
    assertThat(api.denied).as("requests the rendered Role does not grant").isEmpty();
  }

  /**
   * Starts the wait with {@code args} on another thread; returns once it has listed the pods and
   * its watch is open, so that a change made after this reaches it through the watch.
   */
  private CompletableFuture<Integer> watching(String... args) {
    int watches = api.openWatches();
    CompletableFuture<Integer> code = OwnThread.supply(() -> run(args));
    Eventually.until("watching", () -> api.openWatches() > watches || code.isDone());
    assertThat(code).as("still waiting once it watches").isNotDone();
    return code;
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
        run(
            "--pod",
            "t-worker-0",
            "--pod",
            "t-worker-1",
            "--pod",
            "t-worker-2",
            "--selector",
            "training.kubeflow.org/job-name=t",
            "--timeout",
            "1s");
    assertThat(code).isEqualTo(1);
    assertThat(err.toString())
        .isEqualTo(
            "jobc-sidecar wait: timed out after 1s waiting for Ready: t-worker-1 (Running),"
                + " t-worker-2 (not found)\n");
  }

  @Test
  void aFailedPodEndsTheWait() {
    api.create(ApiStandIn.worker("f", 0, false, "10.2.0.0"));
    CompletableFuture<Integer> code = watching("--pod", "f-worker-0", "--timeout", "1h");
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
    // Both have seen the pods not there yet and watch when the changes come: the later path.
    CompletableFuture<Integer> succeeded =
        watching("--pod", "s-partitioner", "--for", "succeeded", "--timeout", "1h");
    CompletableFuture<Integer> ready = watching("--pod", "s-worker-0", "--timeout", "1h");
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
            "--selector",
            "training.kubeflow.org/job-name=dgl",
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
        OwnThread.supply(
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

  /** A pod in phase Running whose containers are {@code running} (started) or waiting. */
  private static Pod started(String name, boolean running, boolean ready) {
    return new PodBuilder(ApiStandIn.worker("x", 0, ready, "10.7.0.1"))
        .editMetadata()
        .withName(name)
        .endMetadata()
        .editStatus()
        .withContainerStatuses(status("main", running))
        .endStatus()
        .build();
  }

  private static ContainerStatus status(String container, boolean running) {
    ContainerStateBuilder state = new ContainerStateBuilder();
    if (running) {
      state.withNewRunning().endRunning();
    } else {
      state.withNewWaiting().withReason("PodInitializing").endWaiting();
    }
    return new ContainerStatusBuilder()
        .withName(container)
        .withRestartCount(0)
        .withReady(false)
        .withState(state.build())
        .build();
  }

  private void setContainers(String pod, ContainerStatus... statuses) {
    api.admin
        .pods()
        .inNamespace(ApiStandIn.NS)
        .withName(pod)
        .edit(
            p ->
                new PodBuilder(p).editStatus().withContainerStatuses(statuses).endStatus().build());
  }

  /**
   * dgl-operator's watcher-loop counts a worker in phase Running as ready; a readiness probe that
   * needs the DGL servers (started by dglrun's last phase, after this wait) never passes before.
   */
  @Test
  void runningNeedsEveryContainerStartedButNoReadiness() {
    api.create(started("r-worker-0", false, false));
    CompletableFuture<Integer> code =
        watching("--pod", "r-worker-0", "--for", "running", "--timeout", "1h");
    assertThat(code).isNotDone();
    setContainers("r-worker-0", status("main", true));
    assertThat(code.join()).isZero();
    assertThat(api.admin.pods().inNamespace(ApiStandIn.NS).withName("r-worker-0").get())
        .matches(p -> !Pods.ready(p), "not Ready");
  }

  /** The partitioner waits until the launcher's watcher-loop-partitioner can receive its copy. */
  @Test
  void waitsForOneInitContainerToRun() {
    api.role = RoleCheck.of(partitionerRole);
    Pod launcher =
        new PodBuilder(started("c-launcher", false, false))
            .editStatus()
            .withPhase("Pending")
            .withInitContainerStatuses(
                status("kubectl-download", true), status("watcher-loop-partitioner", false))
            .endStatus()
            .build();
    api.create(launcher);
    CompletableFuture<Integer> code =
        watching(
            "--pod",
            "c-launcher",
            "--for",
            "running",
            "--container",
            "watcher-loop-partitioner",
            "--timeout",
            "1h");
    assertThat(code).isNotDone();
    api.admin
        .pods()
        .inNamespace(ApiStandIn.NS)
        .withName("c-launcher")
        .edit(
            p ->
                new PodBuilder(p)
                    .editStatus()
                    .withInitContainerStatuses(
                        status("kubectl-download", false), status("watcher-loop-partitioner", true))
                    .endStatus()
                    .build());
    assertThat(code.join()).isZero();
  }

  /** dgl-operator creates the workers in phase Partitioned: the StatefulSet goes from 0 to 3. */
  @Test
  void scalesTheWorkersOnlyOnceThePartitionerHasSucceeded() {
    api.create(started("dgl-partitioner", true, false));
    int before = api.scalePatches.size();
    CompletableFuture<Integer> code =
        watching(
            "--pod",
            "dgl-partitioner",
            "--for",
            "succeeded",
            "--then-scale",
            "dgl-worker=3",
            "--timeout",
            "1h");
    assertThat(api.scalePatches).hasSize(before);
    api.setPhase("dgl-partitioner", "Succeeded");
    assertThat(code.join()).isZero();
    assertThat(api.scalePatches).hasSize(before + 1);
    RecordedRequest patch = api.scalePatches.get(before);
    assertThat(patch.getPath())
        .isEqualTo(
            "/apis/apps/v1/namespaces/team/statefulsets/dgl-worker/scale"
                + "?fieldManager=jobc-sidecar&force=true");
    assertThat(api.scaleBodies.get(before))
        .isEqualTo(
            "{\"apiVersion\":\"autoscaling/v1\",\"kind\":\"Scale\",\"metadata\":{\"name\":"
                + "\"dgl-worker\",\"namespace\":\"team\"},\"spec\":{\"replicas\":3}}");
  }

  @Test
  void aFailedPartitionerStartsNoWorkers() {
    api.create(started("dgl-partitioner", true, false));
    int before = api.scalePatches.size();
    CompletableFuture<Integer> code =
        watching(
            "--pod",
            "dgl-partitioner",
            "--for",
            "succeeded",
            "--then-scale",
            "dgl-worker=2",
            "--timeout",
            "1h");
    api.setPhase("dgl-partitioner", "Failed");
    assertThat(code.join()).isEqualTo(1);
    assertThat(err.toString()).isEqualTo("jobc-sidecar wait: pod dgl-partitioner failed\n");
    assertThat(api.scalePatches).hasSize(before);
  }

  /** Bare worker pods: jobc's scheduling gate goes, any other (Kueue's, say) stays. */
  @Test
  void liftsJobcsSchedulingGateOnlyOnceThePartitionerHasSucceeded() {
    api.role = RoleCheck.of(launcherRoleWithPods);
    api.create(started("dgl-partitioner", true, false));
    for (int i = 0; i < 2; i++) {
      api.create(
          new PodBuilder(ApiStandIn.worker("dgl", i, false, ""))
              .editStatus()
              .withPhase("Pending")
              .endStatus()
              .withNewSpec()
              .addNewSchedulingGate(DglNaming.PARTITIONED_GATE)
              .addNewSchedulingGate("example.com/other")
              .endSpec()
              .build());
    }
    CompletableFuture<Integer> code =
        watching(
            "--pod",
            "dgl-partitioner",
            "--for",
            "succeeded",
            "--then-ungate",
            "dgl-worker-0",
            "--then-ungate",
            "dgl-worker-1",
            "--timeout",
            "1h");
    assertThat(gates("dgl-worker-0")).contains(DglNaming.PARTITIONED_GATE);
    api.setPhase("dgl-partitioner", "Succeeded");
    assertThat(code.join()).isZero();
    for (int i = 0; i < 2; i++) {
      assertThat(gates("dgl-worker-" + i)).containsExactly("example.com/other");
    }
  }

  private List<String> gates(String pod) {
    return api
        .admin
        .pods()
        .inNamespace(ApiStandIn.NS)
        .withName(pod)
        .get()
        .getSpec()
        .getSchedulingGates()
        .stream()
        .map(PodSchedulingGate::getName)
        .toList();
  }

  @Test
  void usageErrorsExitWithTwo() {
    assertThat(run("--pod", "x", "--for", "runs")).isEqualTo(2);
    assertThat(run("--pod", "x", "--container", "c")).isEqualTo(2);
    assertThat(run("--pod", "x", "--then-scale", "w")).isEqualTo(2);
    assertThat(run("--pod", "x", "--then-scale", "w=-1")).isEqualTo(2);
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
