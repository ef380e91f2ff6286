package dev.jobc.sidecar.replicas;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jobc.ManifestCompiler;
import dev.jobc.model.CompileResult;
import dev.jobc.model.Source;
import dev.jobc.options.CompileOptions;
import dev.jobc.options.OptionTable;
import dev.jobc.options.WorkerKind;
import dev.jobc.sidecar.ApiStandIn;
import dev.jobc.sidecar.Eventually;
import dev.jobc.sidecar.OwnThread;
import dev.jobc.sidecar.RenderedJob;
import dev.jobc.sidecar.RoleCheck;
import dev.jobc.sidecar.base.Termination;
import dev.jobc.sidecar.client.ClusterApi;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.fabric8.kubernetes.api.model.rbac.Role;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * Jobs of training-operator's family run end to end against the stand-in API, which answers 403 to
 * anything the Role jobc renders for them does not grant: the replicas are Jobs (or Pods) with the
 * pods their controller would create; the sidecar beside a deciding replica decides the outcome as
 * the kind's {@code UpdateJobStatus}, records its Events and ends the replicas still running
 * without deleting any.
 */
class ReplicasSidecarTest {
  static final String JOB = "dist";

  ApiStandIn api;
  ClusterApi client;
  Termination termination;
  CompletableFuture<Integer> running;
  OutcomeSidecar sidecar;

  @BeforeEach
  void start() {
    api = new ApiStandIn();
    client = api.sidecarClient("replicas");
    termination = new Termination();
  }

  @AfterEach
  void stop() throws Exception {
    termination.requestStop();
    if (running != null) {
      assertThat(running.get(20, TimeUnit.SECONDS)).isZero();
    }
    assertThat(api.denied).as("requests the rendered Role refused").isEmpty();
    api.close();
  }

  /**
   * Waits until the sidecar has evaluated pod {@code name} in {@code phase}: an assertion that it
   * has not decided means nothing before.
   */
  private void seen(String name, String phase) {
    Eventually.until(
        name + " " + phase + " seen by the sidecar", () -> phase.equals(sidecar.seenPhase(name)));
  }

  /** The Role jobc renders for {@code job}, enforced by the stand-in from now on. */
  private void enforceRenderedRole(String job, boolean pods) {
    CompileOptions options =
        CompileOptions.defaults()
            .with(OptionTable.WORKERS, pods ? WorkerKind.PODS : WorkerKind.STATEFUL_SET);
    CompileResult result =
        new ManifestCompiler().compile(List.of(new Source("job.yaml", job)), options);
    // Warnings (an unset backoffLimit, say) do not change the Role.
    assertThat(result.diagnostics()).filteredOn(d -> d.isError()).isEmpty();
    Role role =
        result.objects().stream()
            .map(o -> (HasMetadata) RenderedJob.YAML.unmarshal(o.yaml()))
            .filter(Role.class::isInstance)
            .map(Role.class::cast)
            .findFirst()
            .orElseThrow();
    api.role = RoleCheck.of(role);
  }

  private static String pytorchJob(String specExtra, int workers) {
    return "apiVersion: kubeflow.org/v1\nkind: PyTorchJob\nmetadata: {name: "
        + JOB
        + ", namespace: "
        + ApiStandIn.NS
        + "}\nspec:\n"
        + specExtra
        + "  pytorchReplicaSpecs:\n"
        + (specExtra.contains("elastic")
            ? ""
            : "    Master:\n      restartPolicy: Never\n      template: {spec: {containers: [{name: pytorch, image: t}]}}\n")
        + "    Worker:\n      replicas: "
        + workers
        + "\n      restartPolicy: Never\n      template: {spec: {containers: [{name: pytorch, image: t}]}}\n";
  }

  /** A replica's Job (or bare Pod) and the pod in {@code phase}. */
  private void replica(String operator, String type, int index, String phase, boolean job) {
    String name = JOB + "-" + type + "-" + index;
    if (job) {
      api.create(new JobBuilder().withNewMetadata().withName(name).endMetadata().build());
    }
    api.create(pod(operator, type, index, job ? name + "-abcde" : name, job ? name : null, phase));
  }

  private static Pod pod(
      String operator, String type, int index, String podName, String jobName, String phase) {
    Map<String, String> labels = new LinkedHashMap<>();
    labels.put("training.kubeflow.org/operator-name", operator);
    labels.put("training.kubeflow.org/job-name", JOB);
    labels.put("training.kubeflow.org/replica-type", type);
    labels.put("training.kubeflow.org/replica-index", Integer.toString(index));
    PodBuilder b =
        new PodBuilder()
            .withNewMetadata()
            .withName(podName)
            .withNamespace(ApiStandIn.NS)
            .withLabels(labels)
            .endMetadata()
            .withNewStatus()
            .withPhase(phase)
            .endStatus();
    if (jobName != null) {
      b.editMetadata()
          .withOwnerReferences(
              new OwnerReferenceBuilder()
                  .withApiVersion("batch/v1")
                  .withKind("Job")
                  .withName(jobName)
                  .withUid(jobName + "-uid")
                  .withController(true)
                  .build())
          .endMetadata();
    }
    return b.build();
  }

  /**
   * Starts the sidecar of replica {@code self} (in pod {@code pod}) with the arguments jobc renders
   * for it: every replica's type, lower-case, from {@code self} and {@code others}.
   */
  private void runSidecar(
      String kind,
      String operator,
      String mainContainer,
      String self,
      String pod,
      Map<String, String> policies,
      String deciding,
      boolean any,
      boolean podCarrier,
      Map<String, String> others) {
    List<String> args =
        new ArrayList<>(
            List.of(
                "--kind",
                kind,
                "--operator",
                operator,
                "--job",
                JOB,
                "--self",
                self,
                "--main-container",
                mainContainer));
    new TreeMap<>(policies)
        .forEach((type, policy) -> add(args, "--restart-policy", type + "=" + policy));
    add(args, "--decides", deciding);
    add(args, "--success", any ? "any" : "all");
    add(args, "--clean-pod-policy", "Running");
    add(args, "--carrier", podCarrier ? "pod" : "job");
    Map<String, Integer> counts = new TreeMap<>();
    counts.merge(deciding, 1, Integer::sum);
    others.values().forEach(type -> counts.merge(type, 1, Integer::sum));
    counts.forEach((type, n) -> add(args, "--replicas", type + "=" + n));
    ReplicasCommand command =
        new ReplicasCommand(
            termination, () -> null, Map.of("POD_NAMESPACE", ApiStandIn.NS, "POD_NAME", pod));
    new CommandLine(command).parseArgs(args.toArray(String[]::new));
    OutcomeSidecar.Settings settings = command.settings();
    assertThat(settings.rules().types().keySet())
        .as("the replicas named as the test made them")
        .containsExactlyInAnyOrderElementsOf(
            java.util.stream.Stream.concat(
                    java.util.stream.Stream.of(self), others.keySet().stream())
                .toList());
    sidecar = new OutcomeSidecar(client, settings, termination).observed(Eventually::changed);
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

  private static void add(List<String> args, String option, String value) {
    args.add(option);
    args.add(value);
  }

  /** Whether the Job {@code name} was failed by the sidecar ({@code activeDeadlineSeconds: 1}). */
  private boolean failed(String name) {
    Job job = job(name);
    return job.getSpec() != null
        && Long.valueOf(1).equals(job.getSpec().getActiveDeadlineSeconds())
        && job.getMetadata().getAnnotations() != null
        && job.getMetadata().getAnnotations().containsKey(ReplicaStates.STOPPED_BY);
  }

  private Job job(String name) {
    return api.admin.batch().v1().jobs().inNamespace(ApiStandIn.NS).withName(name).get();
  }

  private boolean suspended(String name) {
    Job job = job(name);
    return job.getSpec() != null && Boolean.TRUE.equals(job.getSpec().getSuspend());
  }

  /** A pod's {@code activeDeadlineSeconds}, or {@code null}. */
  private Long deadline(String name) {
    Pod pod = api.admin.pods().inNamespace(ApiStandIn.NS).withName(name).get();
    return pod.getSpec() == null ? null : pod.getSpec().getActiveDeadlineSeconds();
  }

  private List<String> jobs() {
    return api.admin.batch().v1().jobs().inNamespace(ApiStandIn.NS).list().getItems().stream()
        .map(j -> j.getMetadata().getName())
        .sorted()
        .toList();
  }

  private List<Event> events() {
    return api.admin.v1().events().inNamespace(ApiStandIn.NS).list().getItems();
  }

  private Event event(String reason) {
    Eventually.until(
        reason + " event", () -> events().stream().anyMatch(e -> reason.equals(e.getReason())));
    return events().stream().filter(e -> reason.equals(e.getReason())).findFirst().orElseThrow();
  }

  @Test
  void theMasterSucceedsTheRunningWorkersAreSuspendedNothingIsDeleted() {
    enforceRenderedRole(pytorchJob("", 2), false);
    replica("pytorchjob-controller", "master", 0, "Running", true);
    replica("pytorchjob-controller", "worker", 0, "Running", true);
    replica("pytorchjob-controller", "worker", 1, "Running", true);
    runSidecar(
        "PyTorchJob",
        "pytorchjob-controller",
        "pytorch",
        "dist-master-0",
        "dist-master-0-abcde",
        Map.of("master", "Never", "worker", "Never"),
        "master",
        false,
        false,
        Map.of("dist-worker-0", "worker", "dist-worker-1", "worker"));
    api.launcherEnded("dist-worker-1-abcde", "pytorch", 0);
    api.setPhase("dist-worker-1-abcde", "Succeeded");
    seen("dist-worker-1-abcde", "Succeeded");
    assertThat(sidecar.verdict().decided()).as("a worker's success decides nothing").isFalse();

    api.launcherEnded("dist-master-0-abcde", "pytorch", 0);

    Event succeeded = event("PyTorchJobSucceeded");
    assertThat(succeeded.getMessage()).isEqualTo("PyTorchJob dist is successfully completed.");
    assertThat(succeeded.getInvolvedObject().getName()).isEqualTo("dist-master-0");
    assertThat(succeeded.getInvolvedObject().getUid()).isEqualTo("dist-master-0-uid");
    Eventually.until("worker 0's Job suspended", () -> suspended("dist-worker-0"));
    assertThat(event(OutcomeSidecar.STOPPED).getMessage())
        .isEqualTo("cleanPodPolicy Running: suspended dist-worker-0");
    assertThat(suspended("dist-worker-1")).as("the finished worker kept as it is").isFalse();
    assertThat(suspended("dist-master-0")).isFalse();
    assertThat(jobs()).containsExactly("dist-master-0", "dist-worker-0", "dist-worker-1");
  }

  @Test
  void aFailedWorkerFailsTheJobAndEndsEveryReplicaStillRunningThisOneToo() {
    enforceRenderedRole(pytorchJob("", 2), false);
    replica("pytorchjob-controller", "master", 0, "Running", true);
    replica("pytorchjob-controller", "worker", 0, "Running", true);
    replica("pytorchjob-controller", "worker", 1, "Running", true);
    runSidecar(
        "PyTorchJob",
        "pytorchjob-controller",
        "pytorch",
        "dist-master-0",
        "dist-master-0-abcde",
        Map.of("master", "Never", "worker", "Never"),
        "master",
        false,
        false,
        Map.of("dist-worker-0", "worker", "dist-worker-1", "worker"));

    api.launcherEnded("dist-worker-0-abcde", "pytorch", 1);
    api.setPhase("dist-worker-0-abcde", "Failed");

    assertThat(event("PyTorchJobFailed").getMessage())
        .isEqualTo("PyTorchJob dist is failed because 1 Worker replica(s) failed.");
    Eventually.until(
        "the running worker suspended, the master's Job failed (so that it says what the job did)",
        () -> suspended("dist-worker-1") && failed("dist-master-0"));
    assertThat(event(OutcomeSidecar.STOPPED).getMessage())
        .isEqualTo("cleanPodPolicy Running: suspended dist-worker-1; failed dist-master-0");
    assertThat(suspended("dist-worker-0")).as("the failed worker kept as it is").isFalse();
    assertThat(jobs()).hasSize(3);
  }

  @Test
  void anElasticWorkerThatSucceedsCompletesTheJob() {
    enforceRenderedRole(
        pytorchJob("  elasticPolicy: {minReplicas: 1, maxReplicas: 2}\n", 2), false);
    replica("pytorchjob-controller", "worker", 0, "Running", true);
    replica("pytorchjob-controller", "worker", 1, "Running", true);
    runSidecar(
        "PyTorchJob",
        "pytorchjob-controller",
        "pytorch",
        "dist-worker-1",
        "dist-worker-1-abcde",
        Map.of("worker", "Never"),
        "worker",
        true,
        false,
        Map.of("dist-worker-0", "worker"));

    api.launcherEnded("dist-worker-1-abcde", "pytorch", 0);

    assertThat(event("PyTorchJobSucceeded").getMessage())
        .isEqualTo("PyTorchJob " + ApiStandIn.NS + "/dist successfully completed.");
    Eventually.until("worker 0 suspended", () -> suspended("dist-worker-0"));
  }

  private static final String JAX_JOB =
      "apiVersion: kubeflow.org/v1\nkind: JAXJob\nmetadata: {name: dist, namespace: "
          + ApiStandIn.NS
          + "}\nspec:\n  jaxReplicaSpecs:\n    Worker:\n      replicas: 3\n"
          + "      template: {spec: {containers: [{name: jax, image: t}]}}\n";

  private void jaxSidecar(String self, Map<String, String> others) {
    enforceRenderedRole(JAX_JOB, true);
    replica("jaxjob-controller", "worker", 0, "Running", false);
    replica("jaxjob-controller", "worker", 1, "Running", false);
    replica("jaxjob-controller", "worker", 2, "Running", false);
    runSidecar(
        "JAXJob",
        "jaxjob-controller",
        "jax",
        self,
        self,
        Map.of("worker", "Never"),
        "worker",
        false,
        true,
        others);
  }

  /**
   * Worker 0 completes the job once every Worker has succeeded; a Worker whose program exited 0
   * while its pod still runs (its own sidecar ends after it) has finished: it is not ended, so that
   * its pod ends Succeeded rather than at a deadline.
   */
  @Test
  void jaxWorkersAsPodsWorkerZeroCompletesOnceAllSucceededAndNoFinishedPodIsEnded() {
    jaxSidecar("dist-worker-0", Map.of("dist-worker-1", "worker", "dist-worker-2", "worker"));

    api.launcherEnded("dist-worker-1", "jax", 0);
    api.launcherEnded("dist-worker-0", "jax", 0);
    api.setPhase("dist-worker-1", "Succeeded");
    seen("dist-worker-1", "Succeeded");
    assertThat(sidecar.verdict().decided()).as("worker 2 still runs").isFalse();
    api.launcherEnded("dist-worker-2", "jax", 0);

    Event succeeded = event("JAXJobSucceeded");
    assertThat(succeeded.getMessage())
        .isEqualTo("JAXJob " + ApiStandIn.NS + "/dist successfully completed.");
    assertThat(succeeded.getInvolvedObject().getKind()).isEqualTo("Pod");
    assertThat(event(OutcomeSidecar.STOPPED).getMessage())
        .isEqualTo("cleanPodPolicy Running: nothing left to stop");
    assertThat(deadline("dist-worker-2")).as("worker 2 exited 0: not ended").isNull();
    assertThat(deadline("dist-worker-1")).isNull();
  }

  /**
   * Every deciding replica but the first watches its own pods alone (N deciding sidecars each
   * watching all N pods put N² events on the API server): it sees no other replica, its own success
   * decides nothing, its own failure fails the job, and it then reads the job's pods once to end
   * those still running.
   */
  @Test
  void jaxWorkersBeyondTheFirstWatchTheirOwnPodsAndFailTheJobOnTheirOwnFailure() {
    jaxSidecar("dist-worker-1", Map.of("dist-worker-0", "worker", "dist-worker-2", "worker"));

    api.launcherEnded("dist-worker-0", "jax", 0);
    api.setPhase("dist-worker-0", "Succeeded");
    api.setPhase("dist-worker-1", "Pending");
    seen("dist-worker-1", "Pending");
    assertThat(sidecar.seenPhase("dist-worker-0")).as("worker 0 is not watched").isNull();
    assertThat(sidecar.seenPhase("dist-worker-2")).as("worker 2 is not watched").isNull();

    api.setPhase("dist-worker-1", "Running");
    api.launcherEnded("dist-worker-1", "jax", 1);
    assertThat(event("JAXJobFailed").getMessage())
        .isEqualTo("JAXJob dist is failed because 1 Worker replica(s) failed.");
    assertThat(event(OutcomeSidecar.STOPPED).getMessage())
        .as("worker 2 still runs, worker 1's own pod has ended, worker 0 has finished")
        .isEqualTo("cleanPodPolicy Running: ended dist-worker-2");
    Eventually.equals("worker 2 ended by its deadline", 1L, () -> deadline("dist-worker-2"));
    assertThat(deadline("dist-worker-0")).isNull();
  }

  @Test
  void exitCodeRetriesSignalsAndFailsOnTheProgramsOwnExitCode() {
    enforceRenderedRole(
        "apiVersion: kubeflow.org/v1\nkind: XGBoostJob\nmetadata: {name: dist, namespace: "
            + ApiStandIn.NS
            + "}\nspec:\n  xgbReplicaSpecs:\n"
            + "    Master:\n      template: {spec: {containers: [{name: xgboost, image: t}]}}\n"
            + "    Worker:\n      restartPolicy: ExitCode\n"
            + "      template: {spec: {containers: [{name: xgboost, image: t}]}}\n",
        false);
    replica("xgboostjob-controller", "master", 0, "Running", true);
    replica("xgboostjob-controller", "worker", 0, "Running", true);
    runSidecar(
        "XGBoostJob",
        "xgboostjob-controller",
        "xgboost",
        "dist-master-0",
        "dist-master-0-abcde",
        Map.of("master", "Never", "worker", "ExitCode"),
        "master",
        false,
        false,
        Map.of("dist-worker-0", "worker"));

    api.launcherEnded("dist-worker-0-abcde", "xgboost", 137);
    api.setPhase("dist-worker-0-abcde", "Failed");
    api.create(
        pod(
            "xgboostjob-controller",
            "worker",
            0,
            "dist-worker-0-fghij",
            "dist-worker-0",
            "Running"));
    // The sidecar has evaluated the first pod's 137 once it has seen the replacement.
    seen("dist-worker-0-fghij", "Running");
    assertThat(sidecar.verdict().decided()).as("137 (SIGKILL) is retried").isFalse();

    api.launcherEnded("dist-worker-0-fghij", "xgboost", 2);
    api.setPhase("dist-worker-0-fghij", "Failed");
    assertThat(event("XGBoostJobFailed").getMessage())
        .isEqualTo("XGBoostJob dist is failed because 1 Worker replica(s) failed.");
  }

  /**
   * Issue 36: an XGBoostJob's Worker under OnFailure whose pod the kubelet evicted (phase Failed).
   * Its Job would start another pod, and the other kinds' operator restarts it too; XGBoostJob's
   * {@code UpdateJobStatus} fails the job on a failed pod under every policy but ExitCode (v1.9.0
   * {@code pkg/controller.v1/xgboost/xgboostjob_controller.go}).
   */
  @Test
  void anXGBoostWorkerEvictedUnderOnFailureFailsTheJob() {
    enforceRenderedRole(
        "apiVersion: kubeflow.org/v1\nkind: XGBoostJob\nmetadata: {name: dist, namespace: "
            + ApiStandIn.NS
            + "}\nspec:\n  runPolicy: {backoffLimit: 3}\n  xgbReplicaSpecs:\n"
            + "    Master:\n      template: {spec: {containers: [{name: xgboost, image: t}]}}\n"
            + "    Worker:\n      restartPolicy: OnFailure\n"
            + "      template: {spec: {containers: [{name: xgboost, image: t}]}}\n",
        false);
    replica("xgboostjob-controller", "master", 0, "Running", true);
    replica("xgboostjob-controller", "worker", 0, "Running", true);
    runSidecar(
        "XGBoostJob",
        "xgboostjob-controller",
        "xgboost",
        "dist-master-0",
        "dist-master-0-abcde",
        Map.of("master", "Never", "worker", "OnFailure"),
        "master",
        false,
        false,
        Map.of("dist-worker-0", "worker"));

    api.editPod(
        "dist-worker-0-abcde",
        p ->
            new PodBuilder(p)
                .editStatus()
                .withPhase("Failed")
                .withReason("Evicted")
                .endStatus()
                .build());

    assertThat(event("XGBoostJobFailed").getMessage())
        .isEqualTo("XGBoostJob dist is failed because 1 Worker replica(s) failed.");
    assertThat(event(OutcomeSidecar.STOPPED).getMessage())
        .as("the Worker's Job, which would start another pod, is suspended")
        .isEqualTo("cleanPodPolicy Running: suspended dist-worker-0; failed dist-master-0");
    Eventually.until(
        "the master's Job failed, the worker's suspended",
        () -> failed("dist-master-0") && suspended("dist-worker-0"));
  }
}
