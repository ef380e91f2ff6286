package dev.jobc.sidecar.mpi;

import static java.nio.file.StandardWatchEventKinds.ENTRY_CREATE;
import static java.nio.file.StandardWatchEventKinds.ENTRY_MODIFY;
import static org.assertj.core.api.Assertions.assertThat;

import dev.jobc.conventions.MpiEra;
import dev.jobc.options.CompileOptions;
import dev.jobc.options.OptionTable;
import dev.jobc.options.WorkerKind;
import dev.jobc.sidecar.ApiStandIn;
import dev.jobc.sidecar.Eventually;
import dev.jobc.sidecar.OwnThread;
import dev.jobc.sidecar.RenderedSidecar;
import dev.jobc.sidecar.RoleCheck;
import dev.jobc.sidecar.base.PodWatch;
import dev.jobc.sidecar.base.Termination;
import dev.jobc.sidecar.base.WorkerCleanup;
import dev.jobc.sidecar.client.ClusterApi;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.io.IOException;
import java.nio.file.ClosedWatchServiceException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class LauncherSidecarTest {
  static final String JOB = "pi";
  static final String LAUNCHER_POD = JOB + "-launcher-abcde";
  static final Pattern WELL_FORMED =
      Pattern.compile("#!/bin/sh\n(echo pi-worker-\\d+\\.pi\\.team\\.svc\n)*");

  @TempDir Path dir;
  ApiStandIn api;
  ClusterApi client;
  Termination termination;
  CompletableFuture<Integer> running;
  Thread reader;
  final List<String> malformed = new CopyOnWriteArrayList<>();
  WatchService outputEvents;
  Eventually.FileEvents fileEvents; // wakes Eventually at each write of the sidecar's files

  @BeforeEach
  void start() throws IOException {
    api = new ApiStandIn();
    client = api.sidecarClient();
    termination = new Termination();
    Files.createDirectories(dir.resolve("config"));
    Files.createDirectories(dir.resolve("out"));
    Files.writeString(dir.resolve("config/hostfile"), "pi-worker-0.pi.team.svc slots=1\n");
    Files.writeString(dir.resolve("config/kubexec.sh"), "#!/bin/sh\n");
    // Reads discover_hosts.sh at every change of its directory while the test runs (inotify
    // reports each write and rename): every content seen must be a whole script, never a partly
    // written one.
    fileEvents = Eventually.watching(dir, dir.resolve("out"));
    outputEvents = dir.getFileSystem().newWatchService();
    dir.resolve("out").register(outputEvents, ENTRY_CREATE, ENTRY_MODIFY);
    reader =
        new Thread(
            () -> {
              Path f = dir.resolve("out/discover_hosts.sh");
              try {
                while (true) {
                  WatchKey key = outputEvents.take();
                  key.pollEvents();
                  key.reset();
                  try {
                    String s = Files.readString(f);
                    if (!WELL_FORMED.matcher(s).matches()) {
                      malformed.add(s);
                    }
                  } catch (NoSuchFileException e) {
                    // another file of the directory changed; this one is not written yet
                  }
                }
              } catch (ClosedWatchServiceException | InterruptedException e) {
                // the test has ended
              } catch (IOException e) {
                malformed.add(e.toString());
              }
            });
    reader.start();
  }

  @AfterEach
  void stop() throws Exception {
    termination.requestStop();
    if (running != null) {
      running.get(20, TimeUnit.SECONDS);
    }
    outputEvents.close();
    reader.join();
    fileEvents.close();
    api.close();
    assertThat(malformed).as("partial or malformed discover_hosts.sh seen").isEmpty();
    assertThat(api.denied).as("requests the rendered Role does not grant").isEmpty();
    try (Stream<Path> files = Files.list(dir.resolve("out"))) {
      assertThat(files.map(p -> p.getFileName().toString()))
          .as("no temporary file left behind")
          .allMatch(n -> !n.endsWith(".tmp"));
    }
  }

  /**
   * The launcher Role the compiler renders for this test's job (StatefulSet or bare-Pod workers):
   * the stand-in answers 403 to any request of the sidecar it does not grant.
   */
  private static Role renderedRole(boolean podWorkers) {
    return RenderedSidecar.named(
        RenderedSidecar.render(
            RenderedSidecar.mpiJob(2),
            CompileOptions.defaults()
                .with(OptionTable.WORKERS, podWorkers ? WorkerKind.PODS : WorkerKind.STATEFUL_SET)),
        Role.class,
        "pi-launcher");
  }

  /**
   * The launcher's Job {@code job}, its pod and one Ready worker exist, and a sidecar with {@code
   * policy} (and {@code workerReplicas} to scale back to) has opened the gate.
   */
  private void gateOpenWithOneReadyWorker(Job job, String policy, int workerReplicas) {
    api.create(job);
    api.create(ApiStandIn.launcher(JOB));
    api.create(ApiStandIn.worker(JOB, 0, true, "10.0.0.0"));
    runSidecar(1, "pi-worker", policy, workerReplicas);
    Eventually.until("gate open", () -> Files.exists(dir.resolve("ready")));
  }

  /** When the sidecar reports workers not Ready: far beyond any test unless a test says. */
  private java.time.Duration notReadyAfter = java.time.Duration.ofHours(1);

  private void runSidecar(int readyWorkers, String workerSet, String policy, int workerReplicas) {
    runSidecar(readyWorkers, workerSet, policy, workerReplicas, 0);
  }

  private void runSidecar(
      int readyWorkers, String workerSet, String policy, int workerReplicas, int maxWorkers) {
    api.role = RoleCheck.of(renderedRole(workerSet == null));
    var settings =
        new LauncherSidecar.Settings(
            ApiStandIn.NS,
            LAUNCHER_POD,
            JOB,
            MpiEra.V2BETA1,
            1,
            null,
            null,
            readyWorkers,
            workerSet,
            policy,
            workerReplicas,
            maxWorkers,
            "mpi-launcher",
            dir.resolve("config"),
            dir.resolve("out"),
            dir.resolve("ready"));
    LauncherSidecar sidecar =
        new LauncherSidecar(client, settings, termination).notReadyAfter(notReadyAfter);
    running =
        OwnThread.supply(
            () -> {
              try {
                return sidecar.run();
              } catch (Exception e) {
                throw new IllegalStateException(e);
              }
            });
  }

  private String discoverHosts() {
    try {
      return Files.readString(dir.resolve("out/discover_hosts.sh"));
    } catch (IOException e) {
      return "(" + e.getClass().getSimpleName() + ")";
    }
  }

  private static String script(int... workers) {
    return "#!/bin/sh\n"
        + IntStream.of(workers)
            .mapToObj(i -> "echo pi-worker-" + i + ".pi.team.svc\n")
            .collect(Collectors.joining());
  }

  private String jobUid() {
    return api.admin
        .batch()
        .v1()
        .jobs()
        .inNamespace(ApiStandIn.NS)
        .withName(JOB + "-launcher")
        .get()
        .getMetadata()
        .getUid();
  }

  private List<Event> events() {
    return api.admin.v1().events().inNamespace(ApiStandIn.NS).list().getItems();
  }

  @Test
  void followsTheReadySetAndOpensTheGateOnceEnoughWorkersAreReady() throws IOException {
    api.create(ApiStandIn.launcher(JOB));
    for (int i = 0; i < 3; i++) {
      api.create(ApiStandIn.worker(JOB, i, false, "10.0.0." + i));
    }
    runSidecar(3, "pi-worker", "Running", 0);

    Eventually.equals("no worker Ready", script(), this::discoverHosts);
    assertThat(Files.readString(dir.resolve("out/hostfile")))
        .isEqualTo("pi-worker-0.pi.team.svc slots=1\n");
    assertThat(Files.isExecutable(dir.resolve("out/kubexec.sh"))).isTrue();
    api.setReady("pi-worker-1", true);
    api.setReady("pi-worker-0", true);
    Eventually.equals("0 and 1 Ready", script(0, 1), this::discoverHosts);
    assertThat(dir.resolve("ready")).as("gate still closed at 2 of 3").doesNotExist();

    api.setReady("pi-worker-2", true);
    Eventually.until("gate open", () -> Files.exists(dir.resolve("ready")));
    assertThat(discoverHosts()).isEqualTo(script(0, 1, 2));
    api.setReady("pi-worker-1", false);
    Eventually.equals("1 no longer Ready", script(0, 2), this::discoverHosts);
    api.delete("pi-worker-0");
    Eventually.equals("0 deleted", script(2), this::discoverHosts);
    assertThat(Files.isExecutable(dir.resolve("out/discover_hosts.sh"))).isTrue();
    Eventually.until(
        "WorkersReady event",
        () -> events().stream().anyMatch(e -> "WorkersReady".equals(e.getReason())));
    Event ready =
        events().stream().filter(e -> "WorkersReady".equals(e.getReason())).findFirst().get();
    assertThat(ready.getInvolvedObject().getKind()).isEqualTo("Job");
    assertThat(ready.getInvolvedObject().getName()).isEqualTo("pi-launcher");
    assertThat(ready.getInvolvedObject().getUid()).isEqualTo("0b5c7d1e-job-uid");
    assertThat(api.lists.get()).as("one list, then the watch").isEqualTo(1);
  }

  @Test
  void aDiscoverHostsScriptThatCannotBeWrittenEndsTheSidecarWithOne() throws Exception {
    api.create(ApiStandIn.launcher(JOB));
    api.create(ApiStandIn.worker(JOB, 0, true, "10.0.0.0"));
    api.role = RoleCheck.of(renderedRole(false));
    // A directory where the script goes: the rename over it fails, as a full or read-only
    // volume makes every write fail.
    Files.createDirectories(dir.resolve("broken/discover_hosts.sh/in-the-way"));
    var settings =
        new LauncherSidecar.Settings(
            ApiStandIn.NS,
            LAUNCHER_POD,
            JOB,
            MpiEra.V2BETA1,
            1,
            null,
            null,
            1,
            "pi-worker",
            "Running",
            0,
            1,
            "mpi-launcher",
            dir.resolve("config"),
            dir.resolve("broken"),
            dir.resolve("ready"));
    LauncherSidecar sidecar = new LauncherSidecar(client, settings, termination);
    // Without a stop from outside: the sidecar stops itself, and exits 1 for the kubelet to
    // restart it, instead of leaving the launcher waiting for a script that never comes.
    assertThat(sidecar.run()).isEqualTo(1);
    assertThat(dir.resolve("ready")).as("the gate stays closed").doesNotExist();
    try (Stream<Path> files = Files.list(dir.resolve("broken"))) {
      assertThat(files.map(p -> p.getFileName().toString())).noneMatch(n -> n.endsWith(".tmp"));
    }
  }

  @Test
  void scaleUpBeyondTheInitialWorkersIsFollowedInNumericOrder() {
    api.create(ApiStandIn.launcher(JOB));
    api.create(ApiStandIn.worker(JOB, 0, true, "10.0.0.0"));
    api.create(ApiStandIn.worker(JOB, 1, true, "10.0.0.1"));
    runSidecar(2, "pi-worker", "None", 0);
    Eventually.equals("initial workers", script(0, 1), this::discoverHosts);
    for (int i = 2; i < 12; i++) {
      api.create(ApiStandIn.worker(JOB, i, true, "10.0.0." + i));
    }
    Eventually.equals(
        "12 workers, numeric order",
        script(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11),
        this::discoverHosts);
  }

  @Test
  void aDroppedWatchReconnectsWithoutListingAndMissesNothing() {
    api.create(ApiStandIn.launcher(JOB));
    api.create(ApiStandIn.worker(JOB, 0, true, "10.0.0.0"));
    api.create(ApiStandIn.worker(JOB, 1, false, "10.0.0.1"));
    runSidecar(1, "pi-worker", "None", 0);
    Eventually.equals("initial", script(0), this::discoverHosts);
    Eventually.until("watch open", () -> api.openWatches() == 1);

    api.dropWatches();
    api.setReady("pi-worker-1", true);
    api.setReady("pi-worker-0", false);
    Eventually.equals("changes made around the drop", script(1), this::discoverHosts);
    Eventually.until("watching again", () -> api.openWatches() == 1);
    // fabric8 resumes a dropped watch from the last resource version, or, when that fails, lists
    // once and watches again: never more than one list per (re)connect.
    assertThat(api.lists.get()).isBetween(1, 2).isLessThanOrEqualTo(api.watchRequests.get());
  }

  @Test
  void theApiUnavailableMidRunThenBackMissesNothing() {
    api.create(ApiStandIn.launcher(JOB));
    api.create(ApiStandIn.worker(JOB, 0, true, "10.0.0.0"));
    api.create(ApiStandIn.worker(JOB, 1, false, "10.0.0.1"));
    runSidecar(1, "pi-worker", "None", 0);
    Eventually.equals("initial", script(0), this::discoverHosts);
    Eventually.until("watch open", () -> api.openWatches() == 1);

    api.down.set(true);
    api.dropWatches();
    api.setReady("pi-worker-1", true);
    api.setReady("pi-worker-0", false);
    assertThat(discoverHosts()).as("nothing known while the API is down").isEqualTo(script(0));
    api.down.set(false);
    Eventually.equals("changes made while the API was down", script(1), this::discoverHosts);
    Eventually.until("watching again", () -> api.openWatches() == 1);
    // Failed watch reconnects hand over to the informer, which lists once and watches.
    assertThat(api.lists.get()).isBetween(1, 2).isLessThanOrEqualTo(api.watchRequests.get());
  }

  @Test
  void goneAfterADropMakesTheInformerListAgain() {
    api.create(ApiStandIn.launcher(JOB));
    api.create(ApiStandIn.worker(JOB, 0, true, "10.0.0.0"));
    runSidecar(1, "pi-worker", "None", 0);
    Eventually.equals("initial", script(0), this::discoverHosts);
    Eventually.until("watch open", () -> api.openWatches() == 1);

    api.create(ApiStandIn.worker(JOB, 1, true, "10.0.0.1"));
    api.delete("pi-worker-0");
    api.goneOnNextWatch.set(true);
    api.dropWatches();
    Eventually.equals("state after the re-list", script(1), this::discoverHosts);
    Eventually.until("watching again", () -> api.openWatches() == 1);
    assertThat(api.goneOnNextWatch).as("410 Gone was sent").isFalse();
    Eventually.until("a list after 410 Gone", () -> api.lists.get() >= 2);
    assertThat(api.lists.get()).isLessThanOrEqualTo(api.watchRequests.get());
  }

  @Test
  void theApiUnavailableAtStartThenBack() {
    api.down.set(true);
    api.create(ApiStandIn.launcher(JOB));
    api.create(ApiStandIn.worker(JOB, 0, true, "10.0.0.0"));
    runSidecar(1, "pi-worker", "None", 0);
    api.create(ApiStandIn.worker(JOB, 1, true, "10.0.0.1"));
    assertThat(dir.resolve("ready")).doesNotExist();
    api.down.set(false);
    Eventually.equals("state once the API is back", script(0, 1), this::discoverHosts);
    Eventually.until("gate open", () -> Files.exists(dir.resolve("ready")));
  }

  @Test
  void runningPolicyScalesTheStatefulSetToZeroWithServerSideApplyOnSuccess() {
    api.create(ApiStandIn.launcher(JOB));
    api.create(ApiStandIn.worker(JOB, 0, true, "10.0.0.0"));
    api.scaleFailures.set(1); // the first attempt fails; the clean-up retries
    runSidecar(1, "pi-worker", "Running", 0);
    Eventually.until("gate open", () -> Files.exists(dir.resolve("ready")));
    api.launcherEnded(LAUNCHER_POD, "mpi-launcher", 0);

    Eventually.until("scale patch", () -> api.scalePatches.size() == 1);
    RecordedRequest patch = api.scalePatches.get(0);
    assertThat(patch.getPath())
        .isEqualTo(
            "/apis/apps/v1/namespaces/team/statefulsets/pi-worker/scale"
                + "?fieldManager=jobc-sidecar&force=true");
    assertThat(patch.getHeader("Content-Type")).startsWith("application/apply-patch+yaml");
    assertThat(api.scaleBodies.get(0))
        .isEqualTo(
            "{\"apiVersion\":\"autoscaling/v1\",\"kind\":\"Scale\",\"metadata\":{\"name\":"
                + "\"pi-worker\",\"namespace\":\"team\"},\"spec\":{\"replicas\":0}}");
    Eventually.until(
        "WorkersScaledDown event",
        () ->
            events().stream()
                .anyMatch(
                    e ->
                        "WorkersScaledDown".equals(e.getReason())
                            && e.getMessage().startsWith("launcher succeeded; cleanPodPolicy")));
    // Later pod changes do not clean up twice.
    api.setReady("pi-worker-0", false);
    Eventually.equals("worker gone", script(), this::discoverHosts);
    assertThat(api.scalePatches).hasSize(1);
  }

  /** The pod ended as the sidecar ends it: activeDeadlineSeconds 1, and who ended it. */
  private boolean ended(String pod) {
    var p = api.admin.pods().inNamespace(ApiStandIn.NS).withName(pod).get();
    return p != null
        && p.getSpec() != null
        && Long.valueOf(1).equals(p.getSpec().getActiveDeadlineSeconds())
        && LAUNCHER_POD.equals(p.getMetadata().getAnnotations().get(WorkerCleanup.ENDED_BY));
  }

  /**
   * Bare worker pods are jobc's, in Git: they are ended (the kubelet stops a pod whose
   * activeDeadlineSeconds has passed) and never deleted, which a GitOps tool would undo.
   */
  @Test
  void allPolicyWithoutAStatefulSetEndsTheWorkerPodsWithoutDeletingThem() {
    api.create(ApiStandIn.launcher(JOB));
    api.create(ApiStandIn.worker(JOB, 0, true, "10.0.0.0"));
    api.create(ApiStandIn.worker(JOB, 1, true, "10.0.0.1"));
    api.create(ApiStandIn.worker(JOB, 2, true, "10.0.0.2"));
    api.setPhase("pi-worker-1", "Pending");
    api.setPhase("pi-worker-2", "Succeeded");
    runSidecar(1, null, "All", 0);
    Eventually.until("gate open", () -> Files.exists(dir.resolve("ready")));
    api.launcherEnded(LAUNCHER_POD, "mpi-launcher", 0);
    Eventually.until(
        "WorkersEnded event",
        () ->
            events().stream()
                .anyMatch(
                    e ->
                        "WorkersEnded".equals(e.getReason())
                            && e.getMessage()
                                .equals(
                                    "launcher succeeded; cleanPodPolicy All: ended pi-worker-0,"
                                        + " pi-worker-1")));
    assertThat(ended("pi-worker-0")).isTrue();
    assertThat(ended("pi-worker-1")).isTrue();
    assertThat(ended("pi-worker-2")).as("a pod that has ended needs nothing").isFalse();
  }

  @Test
  void runningPolicyWithoutAStatefulSetKeepsPodsThatHaveEnded() {
    api.create(ApiStandIn.launcher(JOB));
    api.create(ApiStandIn.worker(JOB, 0, true, "10.0.0.0"));
    api.create(ApiStandIn.worker(JOB, 1, true, "10.0.0.1"));
    api.setPhase("pi-worker-1", "Failed");
    runSidecar(1, null, "Running", 0);
    Eventually.until("gate open", () -> Files.exists(dir.resolve("ready")));
    api.launcherEnded(LAUNCHER_POD, "mpi-launcher", 0);
    Eventually.until(
        "WorkersEnded event",
        () -> events().stream().anyMatch(e -> "WorkersEnded".equals(e.getReason())));
    assertThat(ended("pi-worker-0")).isTrue();
    // The failed worker is not Running: the policy leaves it, as it was.
    assertThat(ended("pi-worker-1")).isFalse();
    assertThat(
            api.admin
                .pods()
                .inNamespace(ApiStandIn.NS)
                .withName("pi-worker-1")
                .get()
                .getStatus()
                .getPhase())
        .isEqualTo("Failed");
  }

  @Test
  void nonePolicyKeepsTheWorkersAndSaysSo() {
    api.create(ApiStandIn.launcher(JOB));
    api.create(ApiStandIn.worker(JOB, 0, true, "10.0.0.0"));
    runSidecar(1, "pi-worker", "None", 0);
    api.launcherEnded(LAUNCHER_POD, "mpi-launcher", 0);
    Eventually.until(
        "WorkersKept event",
        () -> events().stream().anyMatch(e -> "WorkersKept".equals(e.getReason())));
    assertThat(api.scalePatches).isEmpty();
  }

  @Test
  void aFailedLauncherThatMayBeRetriedKeepsTheWorkers() throws Exception {
    api.create(ApiStandIn.launcherJob(JOB, 6, 0, false, null));
    api.create(ApiStandIn.launcher(JOB));
    api.create(ApiStandIn.worker(JOB, 0, true, "10.0.0.0"));
    runSidecar(1, "pi-worker", "All", 0);
    Eventually.until("gate open", () -> Files.exists(dir.resolve("ready")));
    api.launcherEnded(LAUNCHER_POD, "mpi-launcher", 3);
    // SIGTERM: the final read of the launcher pod sees the failure and still keeps the workers.
    termination.requestStop();
    assertThat(running.get(20, TimeUnit.SECONDS)).isZero();
    assertThat(api.scalePatches).isEmpty();
  }

  /**
   * kubelet stops the native sidecar right after the launcher's main container has ended, so
   * SIGTERM often arrives while the clean-up the watch started is still waiting for the API. The
   * stop must let it finish: closing the watch first interrupted it, and the workers kept running.
   */
  @Test
  void sigtermDuringACleanUpLetsItFinish() throws Exception {
    api.create(ApiStandIn.launcher(JOB));
    api.create(ApiStandIn.worker(JOB, 0, true, "10.0.0.0"));
    api.scaleDelay = Duration.ofSeconds(3); // a slow API server: the stop comes within this
    runSidecar(1, "pi-worker", "Running", 0);
    Eventually.until("gate open", () -> Files.exists(dir.resolve("ready")));
    api.launcherEnded(LAUNCHER_POD, "mpi-launcher", 0);
    Eventually.until("scale patch sent", () -> api.scalePatches.size() == 1);
    termination.requestStop();
    assertThat(running.get(20, TimeUnit.SECONDS)).isZero();
    assertThat(events())
        .anyMatch(
            e ->
                "WorkersScaledDown".equals(e.getReason())
                    && e.getMessage().startsWith("launcher succeeded; cleanPodPolicy Running"));
    assertThat(api.scalePatches).hasSize(1);
  }

  @Test
  void aFinalFailureCleansUpAtSigtermEvenBeforeTheWatchDeliversIt() throws Exception {
    gateOpenWithOneReadyWorker(ApiStandIn.launcherJob(JOB, 0, 0, false, null), "All", 0);
    api.down.set(true); // the watch cannot deliver the launcher's end...
    api.dropWatches();
    api.launcherEnded(LAUNCHER_POD, "mpi-launcher", 1);
    api.down.set(false); // ...but the read at SIGTERM can
    termination.requestStop();
    assertThat(running.get(20, TimeUnit.SECONDS)).isZero();
    assertThat(api.scalePatches).hasSize(1);
    assertThat(events())
        .anyMatch(
            e ->
                "WorkersScaledDown".equals(e.getReason())
                    && e.getMessage()
                        .equals(
                            "launcher failed (exit code 1), failure 1 of backoffLimit 0: no retry"
                                + " left; cleanPodPolicy All: StatefulSet pi-worker scaled to 0"));
  }

  /**
   * An API outage at SIGTERM: the sidecar reads its pod and Job again, backing off, for the pod's
   * grace period, not 5 s. Six reads (pauses of 250 ms doubling: 7.75 s after the first) show it
   * still trying past the 5 s after which it used to give up; the API back, it releases.
   */
  @Test
  void anApiOutageAtSigtermIsOutlastedForTheGracePeriod() throws Exception {
    termination.podGracePeriod(30L);
    gateOpenWithOneReadyWorker(ApiStandIn.launcherJob(JOB, 0, 0, false, null), "All", 0);
    api.down.set(true);
    api.dropWatches();
    api.launcherEnded(LAUNCHER_POD, "mpi-launcher", 1);
    String getPod = "GET /api/v1/namespaces/" + ApiStandIn.NS + "/pods/" + LAUNCHER_POD;
    termination.requestStop();
    Eventually.until(
        "six reads of the pod refused",
        () -> api.refusedWhileDown.stream().filter(getPod::equals).count() >= 6);
    api.down.set(false);
    assertThat(running.get(30, TimeUnit.SECONDS)).isZero();
    assertThat(api.scales).containsEntry("pi-worker", 0);
    assertThat(events()).anyMatch(e -> "WorkersScaledDown".equals(e.getReason()));
  }

  /**
   * Workers that do not become Ready: after a while a Warning Event on the Job names them (the
   * launcher used to wait for ever without saying which), and the launcher waits on.
   */
  @Test
  void workersNotReadyAfterAWhileAreNamedInAnEvent() {
    notReadyAfter = java.time.Duration.ofMillis(200);
    api.create(ApiStandIn.launcherJob(JOB, 6, 0, false, null));
    api.create(ApiStandIn.launcher(JOB));
    api.create(ApiStandIn.worker(JOB, 0, true, "10.0.0.0"));
    api.create(ApiStandIn.worker(JOB, 1, false, "10.0.0.1"));
    runSidecar(3, "pi-worker", "None", 0);
    Eventually.until(
        "WorkersNotReady event",
        () -> events().stream().anyMatch(e -> "WorkersNotReady".equals(e.getReason())));
    Event e =
        events().stream()
            .filter(x -> "WorkersNotReady".equals(x.getReason()))
            .findFirst()
            .orElseThrow();
    assertThat(e.getType()).isEqualTo("Warning");
    assertThat(e.getMessage())
        .isEqualTo(
            "2 of 3 worker(s) not Ready after 200ms: pi-worker-1, pi-worker-2; the launcher waits"
                + " on (runPolicy.activeDeadlineSeconds bounds the job)");
    assertThat(e.getInvolvedObject().getKind()).isEqualTo("Job");
    assertThat(Files.exists(dir.resolve("ready"))).isFalse();
    assertThat(running).isNotDone();
  }

  /** Restart policy Never: the Job counts this pod's failure once it has stopped, and retries. */
  @Test
  void aFailureWithRetriesLeftKeepsTheWorkersForTheNextLauncher() throws Exception {
    gateOpenWithOneReadyWorker(ApiStandIn.launcherJob(JOB, 2, 1, false, null), "Running", 0);
    api.launcherEnded(LAUNCHER_POD, "mpi-launcher", 1);
    termination.requestStop();
    assertThat(running.get(20, TimeUnit.SECONDS)).isZero();
    assertThat(api.scalePatches).isEmpty();
    assertThat(events())
        .anyMatch(
            e ->
                "WorkersKept".equals(e.getReason())
                    && e.getMessage()
                        .startsWith(
                            "launcher failed (exit code 1), failure 2 of backoffLimit 2: the Job"
                                + " retries"));
  }

  /** The failure that uses up backoffLimit is final: upstream then applies cleanPodPolicy. */
  @Test
  void theFailureThatUsesUpBackoffLimitReleasesTheWorkers() throws Exception {
    gateOpenWithOneReadyWorker(ApiStandIn.launcherJob(JOB, 2, 2, false, null), "Running", 0);
    api.launcherEnded(LAUNCHER_POD, "mpi-launcher", 1);
    termination.requestStop();
    assertThat(running.get(20, TimeUnit.SECONDS)).isZero();
    assertThat(api.scalePatches).hasSize(1);
    assertThat(api.scales).containsEntry("pi-worker", 0);
  }

  /**
   * DeadlineExceeded (or backoffLimit used up with restart policy OnFailure): the Job controller
   * marks the Job (FailureTarget from Kubernetes 1.31) and deletes the running launcher pod, whose
   * main container never ended by itself.
   */
  @ParameterizedTest
  @ValueSource(strings = {"FailureTarget=DeadlineExceeded", "Failed=BackoffLimitExceeded"})
  void aJobThatHasFailedReleasesTheWorkersAtSigterm(String condition) throws Exception {
    gateOpenWithOneReadyWorker(ApiStandIn.launcherJob(JOB, 6, 0, false, null), "Running", 0);
    api.update(ApiStandIn.launcherJob(JOB, 6, 0, false, condition));
    termination.requestStop();
    assertThat(running.get(20, TimeUnit.SECONDS)).isZero();
    assertThat(api.scalePatches).hasSize(1);
    assertThat(events())
        .anyMatch(
            e ->
                "WorkersScaledDown".equals(e.getReason())
                    && e.getMessage()
                        .equals(
                            "launcher Job failed ("
                                + condition.substring(condition.indexOf('=') + 1)
                                + "); cleanPodPolicy Running: StatefulSet pi-worker scaled to 0"));
  }

  /**
   * Before Kubernetes 1.31 the Job controller deleted the pods first and wrote Failed after: the
   * stop waits a few seconds for it rather than keep workers that no launcher will use.
   */
  @Test
  void aFailedConditionWrittenAfterTheStopStillReleasesTheWorkers() throws Exception {
    gateOpenWithOneReadyWorker(ApiStandIn.launcherJob(JOB, 6, 0, false, null), "All", 0);
    api.launcherEnded(LAUNCHER_POD, "mpi-launcher", 137);
    termination.requestStop();
    api.update(ApiStandIn.launcherJob(JOB, 6, 0, false, "Failed=DeadlineExceeded"));
    assertThat(running.get(20, TimeUnit.SECONDS)).isZero();
    assertThat(api.scalePatches).hasSize(1);
  }

  /**
   * kubelet stops the sidecar as soon as the main container has ended, and its report of that end
   * may reach the API later than the stop: the stop waits for it rather than keep the workers.
   */
  @Test
  void aLauncherEndReportedAfterTheStopStillDecides() throws Exception {
    gateOpenWithOneReadyWorker(ApiStandIn.launcherJob(JOB, 0, 0, false, null), "Running", 0);
    api.launcherRunning(LAUNCHER_POD, "mpi-launcher");
    termination.requestStop();
    api.launcherEnded(LAUNCHER_POD, "mpi-launcher", 2);
    assertThat(running.get(20, TimeUnit.SECONDS)).isZero();
    assertThat(api.scalePatches).hasSize(1);
  }

  /** Kueue suspends the Job: every worker goes, whatever cleanPodPolicy says (upstream too). */
  @Test
  void aSuspendedJobReleasesEveryWorkerEvenWithCleanPodPolicyNone() throws Exception {
    gateOpenWithOneReadyWorker(ApiStandIn.launcherJob(JOB, 6, 0, false, null), "None", 1);
    api.update(ApiStandIn.launcherJob(JOB, 6, 0, true, null));
    termination.requestStop();
    assertThat(running.get(20, TimeUnit.SECONDS)).isZero();
    assertThat(api.scales).containsEntry("pi-worker", 0);
    assertThat(events())
        .anyMatch(
            e ->
                "WorkersScaledDown".equals(e.getReason())
                    && e.getMessage()
                        .equals(
                            "launcher Job suspended; all workers released: StatefulSet pi-worker"
                                + " scaled to 0"));
  }

  /** The Job resumed: its new launcher pod scales the workers from 0 up, once. */
  @Test
  void aLauncherThatFindsTheWorkersAtZeroScalesThemUp() throws Exception {
    api.scales.put("pi-worker", 0);
    api.create(ApiStandIn.launcherJob(JOB, 6, 0, false, null));
    // Owned by that Job as the Job controller makes it: the mock gave the Job a UID of its own, and
    // the sidecar may learn the Job from either.
    var launcher = ApiStandIn.launcher(JOB);
    launcher.getMetadata().getOwnerReferences().get(0).setUid(jobUid());
    api.create(launcher);
    runSidecar(2, "pi-worker", "Running", 2);
    Eventually.until("scaled up", () -> Integer.valueOf(2).equals(api.scales.get("pi-worker")));
    assertThat(dir.resolve("ready")).as("no worker Ready yet").doesNotExist();
    api.create(ApiStandIn.worker(JOB, 0, true, "10.0.0.0"));
    api.create(ApiStandIn.worker(JOB, 1, true, "10.0.0.1"));
    Eventually.until("gate open", () -> Files.exists(dir.resolve("ready")));
    Eventually.until(
        "WorkersResumed event",
        () ->
            events().stream()
                .anyMatch(
                    e ->
                        "WorkersResumed".equals(e.getReason())
                            && e.getMessage().equals("StatefulSet pi-worker scaled from 0 to 2")
                            && jobUid().equals(e.getInvolvedObject().getUid())));
    assertThat(api.scalePatches).hasSize(1);
  }

  /** Workers already running (a retried launcher, or scaled elastically) are left as they are. */
  @Test
  void aLauncherThatFindsTheWorkersRunningLeavesTheirScale() throws Exception {
    api.scales.put("pi-worker", 5);
    gateOpenWithOneReadyWorker(ApiStandIn.launcherJob(JOB, 6, 0, false, null), "Running", 2);
    termination.requestStop();
    assertThat(running.get(20, TimeUnit.SECONDS)).isZero();
    assertThat(api.scalePatches).isEmpty();
    assertThat(api.scales).containsEntry("pi-worker", 5);
  }

  /** The scale-up retries through an unavailable API until it is done. */
  @Test
  void theScaleUpRetriesWhileTheApiIsDown() {
    api.scales.put("pi-worker", 0);
    api.down.set(true);
    api.create(ApiStandIn.launcherJob(JOB, 6, 0, false, null));
    api.create(ApiStandIn.launcher(JOB));
    runSidecar(1, "pi-worker", "Running", 1);
    api.down.set(false);
    Eventually.until("scaled up", () -> Integer.valueOf(1).equals(api.scales.get("pi-worker")));
  }

  /**
   * An OnFailure launcher, its gate open, is being deleted under a Job with {@code backoffLimit}
   * and {@code failed} pods so far; the sidecar gets SIGTERM and has exited when this returns.
   */
  private void onFailureLauncherDeleted(int backoffLimit, int failed) throws Exception {
    api.create(ApiStandIn.launcherJob(JOB, backoffLimit, failed, false, null));
    api.create(ApiStandIn.launcher(JOB, "OnFailure"));
    api.create(ApiStandIn.worker(JOB, 0, true, "10.0.0.0"));
    runSidecar(1, "pi-worker", "Running", 0);
    Eventually.until("gate open", () -> Files.exists(dir.resolve("ready")));
    api.launcherRunning(LAUNCHER_POD, "mpi-launcher");
    api.deleting(LAUNCHER_POD);
    termination.requestStop();
    assertThat(running.get(20, TimeUnit.SECONDS)).isZero();
  }

  /**
   * An OnFailure launcher (v2beta1's default) evicted, preempted, drained or deleted on its last
   * retry: the pod ends Failed and the Job controller fails the Job, but only once this sidecar has
   * exited, so the sidecar must count it itself. It kept the workers ("kubelet restarts it").
   */
  @Test
  void anOnFailureLauncherDeletedOnItsLastRetryReleasesTheWorkers() throws Exception {
    onFailureLauncherDeleted(1, 1);
    assertThat(api.scales).containsEntry("pi-worker", 0);
    assertThat(events())
        .anyMatch(
            e ->
                "WorkersScaledDown".equals(e.getReason())
                    && e.getMessage()
                        .equals(
                            "launcher pod deleted or evicted, failure 2 of backoffLimit 1: no"
                                + " retry left; cleanPodPolicy Running: StatefulSet pi-worker"
                                + " scaled to 0"));
  }

  /** With retries left, the Job makes a new launcher pod: the workers stay for it. */
  @Test
  void anOnFailureLauncherDeletedWithRetriesLeftKeepsTheWorkers() throws Exception {
    onFailureLauncherDeleted(6, 0);
    assertThat(api.scalePatches).isEmpty();
    assertThat(events())
        .anyMatch(
            e ->
                "WorkersKept".equals(e.getReason())
                    && e.getMessage()
                        .startsWith(
                            "launcher pod deleted or evicted, failure 1 of backoffLimit 6: the"
                                + " Job retries"));
  }

  /**
   * The clean-up goes on through an API outage longer than the four attempts (about 2 s) it used to
   * make: here five failed patches (one request per attempt), answered again after about 8 s.
   */
  @Test
  void theCleanUpOutlastsAnApiOutageOfMoreThanFourAttempts() {
    api.create(ApiStandIn.launcher(JOB));
    api.create(ApiStandIn.worker(JOB, 0, true, "10.0.0.0"));
    api.scaleFailures.set(5);
    runSidecar(1, "pi-worker", "Running", 0);
    Eventually.until("gate open", () -> Files.exists(dir.resolve("ready")));
    api.launcherEnded(LAUNCHER_POD, "mpi-launcher", 0);
    // The attempts pause 0.25 + 0.5 + 1 + 2 + 4 s: room for a loaded machine beyond that.
    Eventually.until(
        "scaled to 0",
        java.time.Duration.ofMinutes(1),
        () -> Integer.valueOf(0).equals(api.scales.get("pi-worker")));
    assertThat(api.scaleFailures).hasValue(0);
    Eventually.until(
        "WorkersScaledDown event",
        () -> events().stream().anyMatch(e -> "WorkersScaledDown".equals(e.getReason())));
  }

  /**
   * kubelet restarts a native sidecar that exited; the gate it opened stays open (the ready file is
   * in the pod's emptyDir) and is not reported again.
   */
  @Test
  void aRestartedSidecarDoesNotReportTheGateAgain() throws Exception {
    Files.writeString(dir.resolve("ready"), "ready\n");
    api.create(ApiStandIn.launcher(JOB));
    api.create(ApiStandIn.worker(JOB, 0, true, "10.0.0.0"));
    runSidecar(1, "pi-worker", "None", 0);
    Eventually.equals("worker 0 seen", script(0), this::discoverHosts);
    termination.requestStop();
    assertThat(running.get(20, TimeUnit.SECONDS)).isZero();
    assertThat(events()).noneMatch(e -> "WorkersReady".equals(e.getReason()));
  }

  /**
   * Workers at or past the largest size the job may have (jobc.dev/max-replicas, or the workers):
   * the Role grants no exec into them, so discover_hosts.sh must not offer them to Horovod.
   */
  @Test
  void workersPastTheLargestSizeAreLeftOutOfDiscoverHosts() {
    api.create(ApiStandIn.launcher(JOB));
    for (int i = 0; i < 4; i++) {
      api.create(ApiStandIn.worker(JOB, i, true, "10.0.0." + i));
    }
    runSidecar(1, "pi-worker", "None", 0, 2);
    Eventually.equals("workers 0 and 1 only", script(0, 1), this::discoverHosts);
    api.setReady("pi-worker-3", false);
    api.setReady("pi-worker-1", false);
    Eventually.equals("worker 0 only", script(0), this::discoverHosts);
  }

  /** The watch lists the job's pods only, in pages, never the whole namespace. */
  @Test
  void theWatchListsTheJobsPodsInPages() {
    api.create(ApiStandIn.launcher(JOB));
    api.create(ApiStandIn.worker(JOB, 0, true, "10.0.0.0"));
    runSidecar(1, "pi-worker", "None", 0);
    Eventually.equals("worker 0 seen", script(0), this::discoverHosts);
    assertThat(api.podLists())
        .isNotEmpty()
        .allSatisfy(
            p ->
                assertThat(p)
                    .contains("labelSelector=")
                    .contains("training.kubeflow.org/job-name=pi")
                    .contains("limit=" + PodWatch.LIST_PAGE));
  }
}
