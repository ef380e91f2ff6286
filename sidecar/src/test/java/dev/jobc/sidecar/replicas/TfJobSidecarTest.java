package dev.jobc.sidecar.replicas;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jobc.options.CompileOptions;
import dev.jobc.options.OptionTable;
import dev.jobc.options.WorkerKind;
import dev.jobc.sidecar.ApiStandIn;
import dev.jobc.sidecar.Eventually;
import dev.jobc.sidecar.GitOpsStandIn;
import dev.jobc.sidecar.OwnThread;
import dev.jobc.sidecar.RenderedJob;
import dev.jobc.sidecar.base.Pods;
import dev.jobc.sidecar.base.Termination;
import dev.jobc.sidecar.client.ClusterApi;
import dev.jobc.sidecar.replicas.OutcomeRules.Verdict;
import dev.jobc.sidecar.replicas.ReplicaState.Phase;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;

/**
 * A TFJob that jobc rendered, run against the stand-in API under the Role jobc rendered for it: its
 * replicas' Jobs (or Pods) exist as a GitOps tool applied them, {@link JobControllerStandIn} plays
 * Kubernetes' Job controller, the test plays the kubelet, and the deciding replica's sidecar runs
 * with the arguments jobc rendered. Every assertion about what the sidecar has not done waits first
 * until it has seen the change ({@link OutcomeSidecar#seenVersion}).
 */
class TfJobSidecarTest {
  static final String JOB = "dist";
  static final String CHIEF = "dist-chief-0";
  static final String TF =
      "      template:\n        spec:\n          containers: [{name: tensorflow, image: tf}]\n";

  ApiStandIn api;
  JobControllerStandIn jobs;
  RenderedJob rendered;
  final List<CompletableFuture<Integer>> runs = new ArrayList<>();
  Termination termination;
  OutcomeSidecar sidecar;

  @BeforeEach
  void start() {
    api = new ApiStandIn();
    jobs = new JobControllerStandIn(api);
    termination = new Termination();
  }

  @AfterEach
  void stop() throws Exception {
    termination.requestStop();
    for (CompletableFuture<Integer> run : runs) {
      assertThat(run.get(20, TimeUnit.SECONDS)).isZero();
    }
    api.close();
  }

  // The scenario.

  /**
   * Renders TFJob {@code dist} with {@code spec} (under {@code spec:}), applies its replicas' Jobs
   * or Pods, lets the Job controller start them, and runs the sidecar of {@code decider}.
   */
  private void run(String spec, String decider, CompileOptions options) {
    render(spec, options);
    for (Job job : rendered.all(Job.class)) {
      api.create(job);
    }
    for (Pod pod : rendered.all(Pod.class)) {
      api.create(running(pod));
    }
    jobs.sync();
    runSidecar(decider);
  }

  private void render(String spec, CompileOptions options) {
    rendered =
        RenderedJob.of(
            "apiVersion: kubeflow.org/v1\nkind: TFJob\nmetadata: {name: dist, namespace: team}\n"
                + "spec:\n"
                + spec,
            options);
    api.under(rendered.role(JOB + "-sidecar")).rendered(rendered.objects());
  }

  private void run(String spec, String decider) {
    run(spec, decider, CompileOptions.defaults());
  }

  /** Starts the sidecar of replica {@code decider} as its container's arguments say. */
  private void runSidecar(String decider) {
    boolean pods = rendered.all(Job.class).isEmpty();
    PodSpec spec =
        pods
            ? rendered.named(Pod.class, decider).getSpec()
            : rendered.named(Job.class, decider).getSpec().getTemplate().getSpec();
    Container container =
        spec.getInitContainers().stream()
            .filter(c -> c.getName().equals("jobc-sidecar"))
            .findFirst()
            .orElseThrow();
    assertThat(container.getArgs().get(0)).isEqualTo("tfjob");
    String pod = pods ? decider : jobs.activePod(decider);
    TfJobCommand command =
        new TfJobCommand(
            termination, () -> null, Map.of("POD_NAMESPACE", ApiStandIn.NS, "POD_NAME", pod));
    new CommandLine(command)
        .parseArgs(
            container.getArgs().subList(1, container.getArgs().size()).toArray(String[]::new));
    ClusterApi client = api.sidecarClient("tfjob");
    OutcomeSidecar s =
        new OutcomeSidecar(client, command.settings(), termination).observed(Eventually::changed);
    sidecar = s;
    runs.add(
        OwnThread.supply(
            () -> {
              try {
                return s.run();
              } catch (Exception e) {
                throw new IllegalStateException(e);
              }
            }));
    Eventually.until("the sidecar has read the replicas", () -> !s.states().isEmpty());
  }

  // The kubelet's part.

  /** A rendered bare Pod as the kubelet runs it. */
  private static Pod running(Pod pod) {
    return ApiStandIn.everyContainer(pod, "Running", c -> ApiStandIn.running(c, 0));
  }

  /** The tensorflow container of {@code pod} has exited with {@code code}; the pod runs on. */
  private void exited(String pod, int code) {
    api.launcherEnded(pod, "tensorflow", code);
  }

  /** The tensorflow container exited with {@code code} and the pod has ended. */
  private void ended(String pod, int code) {
    api.editPod(
        pod,
        p ->
            new PodBuilder(p)
                .editStatus()
                .withPhase(code == 0 ? "Succeeded" : "Failed")
                .withContainerStatuses(ApiStandIn.terminated("tensorflow", code))
                .endStatus()
                .build());
  }

  /** The kubelet has restarted the tensorflow container {@code restarts} times; it runs. */
  private void restarted(String pod, int restarts) {
    api.editPod(
        pod,
        p ->
            new PodBuilder(p)
                .editStatus()
                .withContainerStatuses(ApiStandIn.running("tensorflow", restarts))
                .endStatus()
                .build());
  }

  // What the test reads.

  private Job job(String name) {
    return api.admin.batch().v1().jobs().inNamespace(ApiStandIn.NS).withName(name).get();
  }

  private Pod pod(String name) {
    return api.admin.pods().inNamespace(ApiStandIn.NS).withName(name).get();
  }

  private List<String> names(List<? extends HasMetadata> objects) {
    return objects.stream().map(o -> o.getMetadata().getName()).sorted().toList();
  }

  private List<String> jobNames() {
    return names(api.admin.batch().v1().jobs().inNamespace(ApiStandIn.NS).list().getItems());
  }

  private List<Event> events() {
    return api.admin.v1().events().inNamespace(ApiStandIn.NS).list().getItems();
  }

  private Event event(String reason) {
    Eventually.until(
        reason + " event", () -> events().stream().anyMatch(e -> reason.equals(e.getReason())));
    return events().stream().filter(e -> reason.equals(e.getReason())).findFirst().orElseThrow();
  }

  /** Waits until the sidecar has evaluated {@code name} (a Job or pod) as the API holds it now. */
  private void seen(String name) {
    HasMetadata now = job(name) != null ? job(name) : pod(name);
    String version = now.getMetadata().getResourceVersion();
    Eventually.until(
        name + " at " + version + " seen", () -> version.equals(sidecar.seenVersion(name)));
  }

  private Verdict.Kind verdict() {
    return sidecar.verdict().kind();
  }

  private static boolean suspended(Job job) {
    return Boolean.TRUE.equals(job.getSpec().getSuspend());
  }

  // Outcomes.

  /**
   * {@code UpdateJobStatus}: a finished Worker decides nothing while there is a Chief; the Chief's
   * exit 0 does. Then the parameter servers, which never end by themselves, are suspended (their
   * pods go, their Jobs stay), the finished Worker is kept, and under {@code cleanPodPolicy: None}
   * the Evaluator is left to its final evaluation. Nothing is deleted.
   */
  @Test
  void theChiefSucceedsAndTheParameterServersAreSuspendedNotDeleted() {
    run(
        "  tfReplicaSpecs:\n    Chief:\n"
            + TF
            + "    PS:\n      replicas: 2\n"
            + TF
            + "    Worker:\n"
            + TF
            + "    Evaluator:\n"
            + TF,
        CHIEF);
    String worker = jobs.activePod("dist-worker-0");
    ended(worker, 0);
    jobs.sync();
    seen("dist-worker-0");
    assertThat(sidecar.states().get("dist-worker-0").phase()).isEqualTo(Phase.SUCCEEDED);
    assertThat(verdict())
        .as("a Worker's success decides nothing")
        .isEqualTo(Verdict.Kind.UNDECIDED);

    exited(jobs.activePod(CHIEF), 0);

    Event succeeded = event("TFJobSucceeded");
    assertThat(succeeded.getMessage()).isEqualTo("TFJob team/dist successfully completed.");
    assertThat(succeeded.getInvolvedObject().getKind()).isEqualTo("Job");
    assertThat(succeeded.getInvolvedObject().getName()).isEqualTo(CHIEF);
    assertThat(succeeded.getInvolvedObject().getUid()).isEqualTo(job(CHIEF).getMetadata().getUid());
    assertThat(event(OutcomeSidecar.STOPPED).getMessage())
        .isEqualTo(
            "cleanPodPolicy None: suspended dist-ps-0, dist-ps-1; left running dist-evaluator-0");
    assertThat(suspended(job("dist-ps-0"))).isTrue();
    assertThat(job("dist-ps-1").getMetadata().getAnnotations())
        .containsEntry(ReplicaStates.STOPPED_BY, CHIEF);
    assertThat(suspended(job("dist-evaluator-0"))).isFalse();

    jobs.sync();
    assertThat(jobs.pods("dist-ps-0")).as("its pod deleted by the Job controller").isEmpty();
    api.editPod(
        jobs.activePod(CHIEF),
        p -> new PodBuilder(p).editStatus().withPhase("Succeeded").endStatus().build());
    jobs.sync();
    assertThat(JobControllerStandIn.conditionOf(job(CHIEF), "Complete"))
        .as("kubectl wait --for=condition=complete job/dist-chief-0")
        .isNotNull();
    assertThat(jobNames())
        .as("nothing deleted")
        .containsExactly(
            "dist-chief-0", "dist-evaluator-0", "dist-ps-0", "dist-ps-1", "dist-worker-0");
  }

  /**
   * A failed parameter server fails the job, whatever the clean-up policy; every running replica is
   * stopped, the Evaluator too unless the policy is None, and the Chief's Job is failed, so that it
   * says what the job did.
   */
  @ParameterizedTest
  @ValueSource(strings = {"None", "Running", "All"})
  void aFailedParameterServerFailsTheJobAndTheChiefsJob(String policy) {
    run(
        "  runPolicy: {cleanPodPolicy: "
            + policy
            + "}\n  tfReplicaSpecs:\n    Chief:\n"
            + TF
            + "    PS:\n"
            + TF
            + "    Worker:\n"
            + TF
            + "    Evaluator:\n"
            + TF,
        CHIEF);

    ended(jobs.activePod("dist-ps-0"), 1);
    jobs.sync();

    assertThat(event("TFJobFailed").getMessage())
        .isEqualTo("TFJob team/dist has failed because 1 PS replica(s) failed.");
    assertThat(event(OutcomeSidecar.STOPPED).getMessage())
        .isEqualTo(
            "cleanPodPolicy "
                + policy
                + ": suspended "
                + (policy.equals("None") ? "" : "dist-evaluator-0, ")
                + "dist-worker-0; failed dist-chief-0"
                + (policy.equals("None") ? "; left running dist-evaluator-0" : ""));
    jobs.sync();
    assertThat(JobControllerStandIn.conditionOf(job(CHIEF), "Failed"))
        .as("kubectl wait --for=condition=failed job/dist-chief-0")
        .isNotNull();
    assertThat(jobs.pods(CHIEF).values()).noneMatch(JobControllerStandIn::active);
    assertThat(suspended(job("dist-worker-0"))).isTrue();
  }

  /**
   * Exit codes of 128 and above (a signal) are retried under ExitCode: the Job replaces the pod.
   */
  @Test
  void anotherReplicasSignalIsRetriedItsOwnExitCodeFailsTheJob() {
    run(
        "  runPolicy: {backoffLimit: 3}\n  tfReplicaSpecs:\n    Chief:\n"
            + TF
            + "    Worker:\n      restartPolicy: ExitCode\n"
            + TF,
        CHIEF);
    ended(jobs.activePod("dist-worker-0"), 137);
    jobs.sync();
    seen("dist-worker-0");
    assertThat(jobs.created).as("the Job replaced the pod").contains("dist-worker-0-p2");
    assertThat(verdict()).as("137 (SIGKILL) is retried").isEqualTo(Verdict.Kind.UNDECIDED);

    ended("dist-worker-0-p2", 2);
    jobs.sync();

    assertThat(event("TFJobFailed").getMessage())
        .isEqualTo("TFJob team/dist has failed because 1 Worker replica(s) failed.");
  }

  /**
   * Issue 36: a Worker's pod fails under ExitCode while its tensorflow container exited 0 (another
   * of its containers failed). training-operator reads the main container's exit code, and {@code
   * IsRetryableExitCode(0)} is false: the job fails (v1.9.0 {@code
   * pkg/controller.v1/common/pod.go}, {@code pkg/util/train/train_util.go}). The Job, whose {@code
   * podFailurePolicy} cannot name exit code 0, starts another pod: the sidecar decides.
   */
  @Test
  void underExitCodeAFailedPodWhoseProgramExited0FailsTheJob() {
    run(
        "  runPolicy: {backoffLimit: 3}\n  tfReplicaSpecs:\n    Chief:\n"
            + TF
            + "    Worker:\n      restartPolicy: ExitCode\n      template:\n        spec:\n"
            + "          containers: [{name: tensorflow, image: tf}, {name: log, image: l}]\n",
        CHIEF);
    api.editPod(
        jobs.activePod("dist-worker-0"),
        p ->
            new PodBuilder(p)
                .editStatus()
                .withPhase("Failed")
                .withContainerStatuses(
                    ApiStandIn.terminated("tensorflow", 0), ApiStandIn.terminated("log", 1))
                .endStatus()
                .build());
    jobs.sync();
    assertThat(jobs.created).as("the Job starts another pod").contains("dist-worker-0-p2");

    assertThat(event("TFJobFailed").getMessage())
        .isEqualTo("TFJob team/dist has failed because 1 Worker replica(s) failed.");
    assertThat(event(OutcomeSidecar.STOPPED).getMessage())
        .as("the Worker's Job, which runs another pod, is suspended too")
        .isEqualTo("cleanPodPolicy None: suspended dist-worker-0; failed dist-chief-0");
    assertThat(suspended(job("dist-worker-0"))).isTrue();
  }

  /** A Chief with restart policy ExitCode and {@code backoffLimit: 3}, its sidecar running. */
  private void exitCodeChief() {
    run(
        "  runPolicy: {backoffLimit: 3}\n  tfReplicaSpecs:\n    Chief:\n      restartPolicy: ExitCode\n"
            + TF
            + "    Worker:\n"
            + TF,
        CHIEF);
  }

  @Test
  void itsOwnSignalIsRetried() {
    exitCodeChief();
    String chief = jobs.activePod(CHIEF);
    exited(chief, 143);
    seen(chief);
    assertThat(sidecar.states().get(CHIEF)).isEqualTo(ReplicaState.ACTIVE);
    assertThat(verdict())
        .as("143 (SIGTERM): the Job starts another pod")
        .isEqualTo(Verdict.Kind.UNDECIDED);
  }

  @Test
  void itsOwnExitCodeOfTheProgramFailsTheJobAtOnce() {
    exitCodeChief();
    exited(jobs.activePod(CHIEF), 3);
    assertThat(event("TFJobFailed").getMessage())
        .isEqualTo("TFJob team/dist has failed because 1 Chief replica(s) failed.");
    assertThat(event(OutcomeSidecar.STOPPED).getMessage())
        .as("its own Job fails by itself (podFailurePolicy)")
        .isEqualTo("cleanPodPolicy None: suspended dist-worker-0");
  }

  /**
   * OnFailure: the Job gives up once its pod's restarts reach {@code backoffLimit} ({@code
   * pastBackoffLimitOnFailure}); the job has then failed, as training-operator's {@code
   * PastBackoffLimit} says it.
   */
  @Test
  void aReplicaWhoseJobReachesItsBackoffLimitFailsTheJob() {
    run(
        "  runPolicy: {backoffLimit: 2}\n  tfReplicaSpecs:\n    Chief:\n"
            + TF
            + "    PS:\n      restartPolicy: OnFailure\n"
            + TF,
        CHIEF);
    String ps = jobs.activePod("dist-ps-0");
    restarted(ps, 1);
    jobs.sync();
    seen("dist-ps-0");
    assertThat(verdict()).isEqualTo(Verdict.Kind.UNDECIDED);

    restarted(ps, 2);
    jobs.sync();

    assertThat(event("TFJobFailed").getMessage())
        .isEqualTo("Job dist has failed because it has reached the specified backoff limit");
  }

  /** The deciding replica's own restarts count once: with a limit of 6, the 6th restart fails. */
  @Test
  void theDecidingReplicasOwnRestartsCountOnce() {
    run(
        "  runPolicy: {backoffLimit: 6}\n  tfReplicaSpecs:\n    Chief:\n      restartPolicy: OnFailure\n"
            + TF
            + "    PS:\n"
            + TF,
        CHIEF);
    String chief = jobs.activePod(CHIEF);
    restarted(chief, 5);
    seen(chief);
    assertThat(verdict()).as("5 restarts of 6").isEqualTo(Verdict.Kind.UNDECIDED);

    restarted(chief, 6);

    assertThat(event("TFJobFailed").getMessage())
        .isEqualTo("Job dist has failed because it has reached the specified backoff limit");
  }

  @Test
  void theDeadlineIsNamed() {
    run(
        "  runPolicy: {activeDeadlineSeconds: 600}\n  tfReplicaSpecs:\n    Chief:\n"
            + TF
            + "    PS:\n"
            + TF,
        CHIEF);
    jobs.activeSeconds = 600;
    jobs.sync();
    assertThat(event("TFJobFailed").getMessage())
        .isEqualTo("Job dist has failed because it was active longer than specified deadline");
  }

  /** The Event names every replica of the type that has failed when the sidecar decides. */
  @Test
  void theFailureNamesHowManyReplicasFailed() {
    run("  tfReplicaSpecs:\n    Chief:\n" + TF + "    Worker:\n      replicas: 3\n" + TF, CHIEF);
    termination.requestStop();
    runs.forEach(CompletableFuture::join);
    assertThat(events()).isEmpty();
    // Two Workers fail while no sidecar runs; the next one (the Chief's restarted) sees both.
    ended(jobs.activePod("dist-worker-0"), 1);
    ended(jobs.activePod("dist-worker-2"), 1);
    jobs.sync();
    termination = new Termination();
    runSidecar(CHIEF);
    assertThat(event("TFJobFailed").getMessage())
        .isEqualTo("TFJob team/dist has failed because 2 Worker replica(s) failed.");
  }

  /**
   * Suspending a running TFJob (every replica's Job) ends its pods: the sidecar, stopped with its
   * pod, records no failure and changes nothing. Resumed, the Jobs run again, and a new sidecar
   * decides.
   */
  @Test
  void aSuspendedJobDecidesNothingAndRunsAgainWhenResumed() {
    run("  tfReplicaSpecs:\n    Chief:\n" + TF + "    PS:\n" + TF, CHIEF);
    for (String name : List.of("dist-ps-0", CHIEF)) {
      suspend(name, true);
      jobs.sync();
      seen(name);
    }
    assertThat(verdict()).isEqualTo(Verdict.Kind.SUSPENDED);
    termination.requestStop(); // the Job controller deleted the sidecar's pod
    runs.forEach(CompletableFuture::join);
    assertThat(events()).isEmpty();
    assertThat(api.sidecarRequests).noneMatch(r -> r.contains(" patch "));

    for (String name : List.of(CHIEF, "dist-ps-0")) {
      suspend(name, false);
    }
    jobs.sync();
    termination = new Termination();
    runSidecar(CHIEF);
    exited(jobs.activePod(CHIEF), 0);
    assertThat(event("TFJobSucceeded").getMessage())
        .isEqualTo("TFJob team/dist successfully completed.");
  }

  private void suspend(String job, boolean suspend) {
    api.admin
        .batch()
        .v1()
        .jobs()
        .inNamespace(ApiStandIn.NS)
        .withName(job)
        .edit(j -> new JobBuilder(j).editSpec().withSuspend(suspend).endSpec().build());
  }

  /**
   * kubelet stops a native sidecar right after the main container has ended, possibly before its
   * report of that end reaches the API: at SIGTERM the sidecar waits (up to 5 s) for it.
   */
  @Test
  void aLateStatusAfterSigtermStillDecides() {
    run("  tfReplicaSpecs:\n    Chief:\n" + TF + "    PS:\n" + TF, CHIEF);
    termination.requestStop();
    Eventually.until("the sidecar waits for its end", sidecar::settling);

    exited(jobs.activePod(CHIEF), 0);

    assertThat(event("TFJobSucceeded").getMessage())
        .isEqualTo("TFJob team/dist successfully completed.");
    assertThat(event(OutcomeSidecar.STOPPED).getMessage())
        .isEqualTo("cleanPodPolicy None: suspended dist-ps-0");
    assertThat(suspended(job("dist-ps-0"))).isTrue();
  }

  /**
   * With {@code AllWorkers} every Worker decides, and the last to succeed completes the job; bare
   * Pods are ended (their {@code activeDeadlineSeconds} lowered), never deleted. Worker 0 watches
   * the whole job and decides as it goes.
   */
  @Test
  void withAllWorkersTheLastWorkerCompletesAndThePodsAreEndedNotDeleted() {
    run(
        allWorkers(2),
        "dist-worker-0",
        CompileOptions.defaults().with(OptionTable.WORKERS, WorkerKind.PODS));
    exited("dist-worker-0", 0);
    seen("dist-worker-0");
    assertThat(verdict()).as("worker 1 still runs").isEqualTo(Verdict.Kind.UNDECIDED);

    ended("dist-worker-1", 0);

    Event succeeded = event("TFJobSucceeded");
    assertThat(succeeded.getInvolvedObject().getKind()).isEqualTo("Pod");
    assertThat(succeeded.getInvolvedObject().getName()).isEqualTo("dist-worker-0");
    assertThat(event(OutcomeSidecar.STOPPED).getMessage())
        .isEqualTo("cleanPodPolicy All: ended dist-ps-0");
    assertThat(pod("dist-ps-0").getSpec().getActiveDeadlineSeconds()).isEqualTo(1L);
    assertThat(pod("dist-ps-0").getMetadata().getAnnotations())
        .containsEntry(ReplicaStates.STOPPED_BY, "dist-worker-0");
    assertThat(names(api.admin.pods().inNamespace(ApiStandIn.NS).list().getItems()))
        .as("nothing deleted")
        .containsExactly("dist-ps-0", "dist-worker-0", "dist-worker-1");
  }

  private static String allWorkers(int workers) {
    return "  successPolicy: AllWorkers\n  runPolicy: {cleanPodPolicy: All}\n  tfReplicaSpecs:\n"
        + "    Worker:\n      replicas: "
        + workers
        + "\n"
        + TF
        + "    PS:\n"
        + TF;
  }

  /**
   * With {@code AllWorkers} a Worker other than Worker 0 watches its own pod alone (N Workers each
   * watching all N pods put N² events on the API server), so it sees no other replica while it
   * runs; when it is the last to succeed, its end (SIGTERM) reads the whole job once and completes
   * it.
   */
  @Test
  void withAllWorkersALaterWorkerWatchesItsOwnPodAndCompletesTheJobAtItsEnd() {
    run(
        allWorkers(3),
        "dist-worker-2",
        CompileOptions.defaults().with(OptionTable.WORKERS, WorkerKind.PODS));
    assertThat(api.podLists())
        .as("it lists its own replica's pods alone")
        .allMatch(p -> p.contains("replica-index=2"));
    ended("dist-worker-0", 0);
    ended("dist-worker-1", 0);
    restarted("dist-worker-2", 0);
    seen("dist-worker-2");
    assertThat(sidecar.seenVersion("dist-worker-0")).as("worker 0 is not watched").isNull();
    assertThat(verdict()).isEqualTo(Verdict.Kind.UNDECIDED);

    exited("dist-worker-2", 0);
    seen("dist-worker-2");
    assertThat(verdict()).as("it has not seen the other Workers").isEqualTo(Verdict.Kind.UNDECIDED);
    termination.requestStop();

    assertThat(event("TFJobSucceeded").getInvolvedObject().getName()).isEqualTo("dist-worker-2");
    assertThat(event(OutcomeSidecar.STOPPED).getMessage())
        .isEqualTo("cleanPodPolicy All: ended dist-ps-0");
  }

  /**
   * A later Worker's own failure fails the job at once; it then reads the whole job once to end
   * what still runs, the finished Workers kept as they are.
   */
  @Test
  void withAllWorkersALaterWorkersFailureFailsTheJobAndEndsTheRest() {
    run(
        allWorkers(3),
        "dist-worker-1",
        CompileOptions.defaults().with(OptionTable.WORKERS, WorkerKind.PODS));
    ended("dist-worker-0", 0);

    ended("dist-worker-1", 1);

    assertThat(event("TFJobFailed").getMessage())
        .isEqualTo("TFJob team/dist has failed because 1 Worker replica(s) failed.");
    assertThat(event(OutcomeSidecar.STOPPED).getMessage())
        .isEqualTo("cleanPodPolicy All: ended dist-ps-0, dist-worker-2");
    assertThat(pod("dist-worker-0").getSpec().getActiveDeadlineSeconds()).isNull();
  }

  /** A bare Pod that failed is final (nothing replaces it); the deciding one is ended too. */
  @Test
  void withBarePodsAFailedReplicaEndsTheDecidingPod() {
    run(
        "  tfReplicaSpecs:\n    Chief:\n" + TF + "    PS:\n" + TF,
        CHIEF,
        CompileOptions.defaults().with(OptionTable.WORKERS, WorkerKind.PODS));
    ended("dist-ps-0", 137);
    assertThat(event("TFJobFailed").getMessage())
        .isEqualTo("TFJob team/dist has failed because 1 PS replica(s) failed.");
    assertThat(event(OutcomeSidecar.STOPPED).getMessage())
        .isEqualTo("cleanPodPolicy None: ended dist-chief-0");
    assertThat(pod(CHIEF).getSpec().getActiveDeadlineSeconds()).isEqualTo(1L);
  }

  // GitOps.

  /**
   * The stop, replayed with everything jobc rendered applied as Flux applies it; then Flux applies
   * it all again and Argo CD self-heals it: the stopped replicas stay stopped, the failed Job
   * failed, nothing is re-created, and the Job controller starts no pod.
   */
  @Test
  void aStopOfJobsIsNeitherUndoneNorRepeatedByAReapplyOrASelfHeal() {
    render(
        "  runPolicy: {activeDeadlineSeconds: 3600, cleanPodPolicy: Running}\n"
            + "  tfReplicaSpecs:\n    Chief:\n"
            + TF
            + "    PS:\n"
            + TF
            + "    Worker:\n      replicas: 2\n"
            + TF,
        CompileOptions.defaults());
    GitOpsStandIn gitops = new GitOpsStandIn(api);
    gitops.fluxApply(rendered.objects());
    jobs.sync();
    runSidecar(CHIEF);
    ended(jobs.activePod("dist-ps-0"), 1);
    jobs.sync();
    assertThat(event(OutcomeSidecar.STOPPED).getMessage())
        .isEqualTo(
            "cleanPodPolicy Running: suspended dist-worker-0, dist-worker-1; failed dist-chief-0");
    jobs.sync();
    Map<String, String> uids = uids();
    int pods = jobs.created.size();

    gitops.fluxApply(rendered.objects());
    gitops.argoSelfHeal(rendered.objects());
    jobs.sync();
    jobs.sync();

    assertThat(gitops.errors).isEmpty();
    assertThat(uids()).as("nothing re-created").isEqualTo(uids);
    assertThat(jobs.created).as("no pod started again").hasSize(pods);
    assertThat(suspended(job("dist-worker-1"))).isTrue();
    assertThat(JobControllerStandIn.conditionOf(job(CHIEF), "Failed")).isNotNull();
  }

  /** The same with bare Pods: an ended Pod's lowered deadline is neither raised nor refused. */
  @Test
  void aStopOfPodsIsNeitherUndoneNorRepeatedByAReapplyOrASelfHeal() {
    render(
        "  runPolicy: {activeDeadlineSeconds: 3600}\n  tfReplicaSpecs:\n    Chief:\n"
            + TF
            + "    PS:\n"
            + TF,
        CompileOptions.defaults().with(OptionTable.WORKERS, WorkerKind.PODS));
    GitOpsStandIn gitops = new GitOpsStandIn(api);
    gitops.fluxApply(rendered.objects());
    for (Pod pod : rendered.all(Pod.class)) {
      api.editPod(pod.getMetadata().getName(), p -> running(p));
    }
    runSidecar(CHIEF);
    exited(CHIEF, 0);
    assertThat(event(OutcomeSidecar.STOPPED).getMessage())
        .isEqualTo("cleanPodPolicy None: ended dist-ps-0");
    // The kubelet ends the pod at its deadline.
    api.editPod(
        "dist-ps-0",
        p ->
            new PodBuilder(p)
                .editStatus()
                .withPhase("Failed")
                .withReason("DeadlineExceeded")
                .endStatus()
                .build());
    Map<String, String> uids = uids();

    gitops.fluxApply(rendered.objects());
    gitops.argoSelfHeal(rendered.objects());

    assertThat(gitops.errors).isEmpty();
    assertThat(uids()).as("nothing re-created").isEqualTo(uids);
    assertThat(pod("dist-ps-0").getSpec().getActiveDeadlineSeconds()).isEqualTo(1L);
    assertThat(Pods.phase(pod("dist-ps-0"))).isEqualTo("Failed");
  }

  /** The UIDs of what jobc rendered, by kind and name. */
  private Map<String, String> uids() {
    Map<String, String> out = new java.util.TreeMap<>();
    for (HasMetadata o : rendered.objects()) {
      HasMetadata live = api.admin.resource(o).get();
      out.put(
          o.getKind() + " " + o.getMetadata().getName(),
          live == null ? "(gone)" : live.getMetadata().getUid());
    }
    return out;
  }
}
