package dev.jobc.sidecar.mpi;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jobc.sidecar.ApiStandIn;
import dev.jobc.sidecar.Eventually;
import dev.jobc.sidecar.OwnThread;
import dev.jobc.sidecar.RenderedSidecar;
import dev.jobc.sidecar.RoleCheck;
import dev.jobc.sidecar.base.Termination;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
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
 * {@code scale-workers} as jobc renders it for an MPIJob (the container's arguments, the launcher
 * Role, which the stand-in enforces), with no launcher pod at all: what must happen when the
 * launcher is Pending, between retries, or gone.
 */
class WorkerScalerTest {
  static final String JOB = "pi";

  ApiStandIn api;
  final Termination termination = new Termination();
  CompletableFuture<Integer> running;

  @BeforeEach
  void start() {
    api = new ApiStandIn();
  }

  @AfterEach
  void stop() throws Exception {
    termination.requestStop();
    if (running != null) {
      running.get(30, TimeUnit.SECONDS);
    }
    api.close();
    assertThat(api.denied).as("requests the rendered Role does not grant").isEmpty();
  }

  /** Runs the rendered {@code scale-workers}; returns once it follows the Job. */
  private void runScaler(String cleanPodPolicy, String... extra) {
    List<HasMetadata> objects =
        RenderedSidecar.render(RenderedSidecar.mpiJob(2).replace("Running", cleanPodPolicy));
    api.role =
        RoleCheck.of(
            objects.stream()
                .filter(Role.class::isInstance)
                .map(Role.class::cast)
                .filter(r -> r.getMetadata().getName().equals("pi-launcher"))
                .findFirst()
                .orElseThrow());
    Job scaler =
        objects.stream()
            .filter(Job.class::isInstance)
            .map(Job.class::cast)
            .filter(j -> j.getMetadata().getName().equals("pi-scaler"))
            .findFirst()
            .orElseThrow();
    Container c = scaler.getSpec().getTemplate().getSpec().getContainers().get(0);
    List<String> args = new java.util.ArrayList<>(c.getArgs().subList(1, c.getArgs().size()));
    args.addAll(List.of(extra));
    ScaleWorkersCommand command =
        new ScaleWorkersCommand(
            termination,
            api::sidecarClient,
            Map.of("POD_NAMESPACE", ApiStandIn.NS, "POD_NAME", "pi-scaler-x2f9k"));
    CommandLine cli = new CommandLine(command);
    int watches = api.openWatches();
    running = OwnThread.supply(() -> cli.execute(args.toArray(String[]::new)));
    Eventually.until("following", () -> api.openWatches() > watches || running.isDone());
    assertThat(running).as("following the Job").isNotDone();
  }

  private List<Event> events() {
    return api.admin.v1().events().inNamespace(ApiStandIn.NS).list().getItems();
  }

  /**
   * Kueue (or the user, through Git) suspends the Job while its launcher pod is Pending, between
   * two retries, or still pulling images: no launcher sidecar runs to release the workers.
   */
  @Test
  void aSuspensionWithNoLauncherPodReleasesTheWorkersAndTheResumptionBringsThemBack()
      throws Exception {
    api.scales.put("pi-worker", 2);
    api.create(ApiStandIn.launcherJob(JOB, 6, 0, false, null));
    runScaler("None");
    api.update(ApiStandIn.launcherJob(JOB, 6, 0, true, null));
    Eventually.until("released", () -> Integer.valueOf(0).equals(api.scales.get("pi-worker")));
    Eventually.until(
        "WorkersScaledDown event",
        () ->
            events().stream()
                .anyMatch(
                    e ->
                        e.getMessage()
                            .equals(
                                "launcher Job suspended; all workers released: StatefulSet"
                                    + " pi-worker scaled to 0")));
    api.update(ApiStandIn.launcherJob(JOB, 6, 0, false, null));
    Eventually.until("resumed", () -> Integer.valueOf(2).equals(api.scales.get("pi-worker")));
    Eventually.until(
        "WorkersResumed event",
        () -> events().stream().anyMatch(e -> "WorkersResumed".equals(e.getReason())));
    assertThat(running).isNotDone();
  }

  /** DeadlineExceeded while the launcher was never scheduled: cleanPodPolicy, then the end. */
  @Test
  void aJobThatFailsWithItsLauncherPendingReleasesTheWorkersAndEnds() throws Exception {
    api.scales.put("pi-worker", 2);
    api.create(ApiStandIn.launcherJob(JOB, 6, 0, false, null));
    runScaler("Running");
    api.update(ApiStandIn.launcherJob(JOB, 6, 0, false, "Failed=DeadlineExceeded"));
    assertThat(running.get(30, TimeUnit.SECONDS)).isZero();
    assertThat(api.scales).containsEntry("pi-worker", 0);
    assertThat(events())
        .extracting(Event::getMessage)
        .containsExactly(
            "launcher Job failed (DeadlineExceeded); cleanPodPolicy Running: StatefulSet"
                + " pi-worker scaled to 0");
  }

  /** The launcher's sidecar was faster: nothing to change, and no second Event. */
  @Test
  void workersAlreadyReleasedAreLeftAloneAndNotReportedAgain() throws Exception {
    api.scales.put("pi-worker", 2);
    api.create(ApiStandIn.launcherJob(JOB, 6, 0, false, null));
    runScaler("Running");
    // It has seen the running Job (and left the workers' scale as it was)...
    Eventually.until("the Job seen", () -> api.scaleReads.get() > 0);
    // ...when the launcher's sidecar releases them and the Job completes.
    api.scales.put("pi-worker", 0);
    api.update(ApiStandIn.launcherJob(JOB, 6, 0, false, "Complete"));
    assertThat(running.get(30, TimeUnit.SECONDS)).isZero();
    assertThat(api.scalePatches).isEmpty();
    assertThat(events()).isEmpty();
  }

  /** The Job deleted mid-run (kubectl delete, a prune): the run is over. */
  @Test
  void aDeletedJobReleasesTheWorkers() throws Exception {
    api.scales.put("pi-worker", 2);
    api.create(ApiStandIn.launcherJob(JOB, 6, 0, false, null));
    runScaler("All");
    api.admin.batch().v1().jobs().inNamespace(ApiStandIn.NS).withName("pi-launcher").delete();
    assertThat(running.get(30, TimeUnit.SECONDS)).isZero();
    assertThat(api.scales).containsEntry("pi-worker", 0);
  }

  /** cleanPodPolicy None keeps the workers at the end, as upstream; the scaler still ends. */
  @Test
  void cleanPodPolicyNoneKeepsTheWorkersAtTheEnd() throws Exception {
    api.scales.put("pi-worker", 2);
    api.create(ApiStandIn.launcherJob(JOB, 6, 0, false, null));
    runScaler("None");
    api.update(ApiStandIn.launcherJob(JOB, 6, 0, false, "Complete"));
    assertThat(running.get(30, TimeUnit.SECONDS)).isZero();
    assertThat(api.scales).containsEntry("pi-worker", 2);
  }

  /** The launcher Job resumed, as the Job controller leaves it: condition Suspended, False. */
  private static Job resumedJob() {
    return new io.fabric8.kubernetes.api.model.batch.v1.JobBuilder(
            ApiStandIn.launcherJob(JOB, 6, 0, false, null))
        .editOrNewStatus()
        .addNewCondition()
        .withType("Suspended")
        .withStatus("False")
        .withReason("JobResumed")
        .endCondition()
        .endStatus()
        .build();
  }

  /**
   * Level-triggered: a resumed Job whose workers are at 0 gets them back however they got there
   * (here a release that lands after the resumption, as the previous launcher's retry through an
   * outage did), with no change of the Job to react to: the scaler looks again at its resync.
   */
  @Test
  void aResumedJobWhoseWorkersAreAtZeroGetsThemBack() throws Exception {
    api.scales.put("pi-worker", 2);
    api.create(resumedJob());
    runScaler("Running", "--resync-seconds", "1");
    Eventually.until("the Job seen", () -> api.scaleReads.get() > 0);
    api.scales.put("pi-worker", 0);
    Eventually.until(
        "scaled up again", () -> Integer.valueOf(2).equals(api.scales.get("pi-worker")));
    Eventually.until(
        "WorkersResumed event",
        () -> events().stream().anyMatch(e -> "WorkersResumed".equals(e.getReason())));
    assertThat(running).isNotDone();
  }

  /**
   * A release retried through an API outage reads the Job again before each attempt: resumed
   * meanwhile, the workers are kept (it used to scale them to 0 after the resumption).
   */
  @Test
  void aReleaseRetriedPastTheResumptionKeepsTheWorkers() throws Exception {
    api.scales.put("pi-worker", 2);
    api.create(ApiStandIn.launcherJob(JOB, 6, 0, false, null));
    runScaler("None");
    Eventually.until("the Job seen", () -> api.scaleReads.get() > 0);
    api.scaleFailures.set(1_000);
    api.update(ApiStandIn.launcherJob(JOB, 6, 0, true, null));
    Eventually.until("a release attempted", () -> api.scaleFailures.get() < 1_000);
    api.update(resumedJob());
    api.scaleFailures.set(0);
    Eventually.until(
        "WorkersKept event",
        () ->
            events().stream()
                .anyMatch(
                    e ->
                        e.getMessage()
                            .equals(
                                "launcher Job suspended; all workers kept: Job pi-launcher was"
                                    + " resumed")));
    assertThat(api.scaleBodies).noneMatch(b -> b.contains("\"replicas\":0"));
    assertThat(api.scales).containsEntry("pi-worker", 2);
  }
}
