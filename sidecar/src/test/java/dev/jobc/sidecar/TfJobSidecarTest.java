package dev.jobc.sidecar;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A TFJob run end to end against the stand-in API: the job's replicas are Jobs (or Pods) with the
 * pods their controller would create; the sidecar beside the deciding replica decides the outcome
 * as training-operator v1.9.0's {@code UpdateJobStatus}, records its Events and stops the rest.
 */
class TfJobSidecarTest {
  static final String JOB = "dist";
  static final String CHIEF = "dist-chief-0";
  static final String CHIEF_POD = "dist-chief-0-abcde";

  ApiStandIn api;
  KubernetesClient client;
  Termination termination;
  CompletableFuture<Integer> running;
  TfJobSidecar sidecar;

  @BeforeEach
  void start() {
    api = new ApiStandIn();
    client = api.sidecarClient();
    termination = new Termination();
  }

  @AfterEach
  void stop() throws Exception {
    termination.requestStop();
    if (running != null) {
      assertThat(running.get(20, TimeUnit.SECONDS)).isZero();
    }
    client.close();
    api.close();
  }

  /** A replica's Job and the pod its controller created, in {@code phase}. */
  private void replica(String type, int index, String phase, boolean job) {
    String name = JOB + "-" + type + "-" + index;
    if (job) {
      api.admin
          .batch()
          .v1()
          .jobs()
          .inNamespace(ApiStandIn.NS)
          .resource(new JobBuilder().withNewMetadata().withName(name).endMetadata().build())
          .create();
    }
    api.create(pod(type, index, job ? name + "-abcde" : name, job ? name : null, phase));
  }

  private static Pod pod(String type, int index, String podName, String jobName, String phase) {
    Map<String, String> labels = new LinkedHashMap<>();
    labels.put("training.kubeflow.org/operator-name", "tfjob-controller");
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

  private void runSidecar(
      String self,
      String pod,
      Map<String, String> policies,
      boolean allWorkers,
      String cleanPodPolicy,
      boolean podCarrier,
      Map<String, String> others) {
    var settings =
        new TfJobSidecar.Settings(
            ApiStandIn.NS,
            pod,
            JOB,
            self,
            "tensorflow",
            policies,
            6,
            allWorkers,
            cleanPodPolicy,
            podCarrier,
            false,
            others);
    sidecar = new TfJobSidecar(client, settings, termination);
    running =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                return sidecar.run();
              } catch (Exception e) {
                throw new IllegalStateException(e);
              }
            });
  }

  private List<String> jobs() {
    return api.admin.batch().v1().jobs().inNamespace(ApiStandIn.NS).list().getItems().stream()
        .map(j -> j.getMetadata().getName())
        .sorted()
        .toList();
  }

  private List<String> pods() {
    return api.admin.pods().inNamespace(ApiStandIn.NS).list().getItems().stream()
        .map(p -> p.getMetadata().getName())
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

  /** The exit of {@code pod}'s tensorflow container, and the pod's phase after it. */
  private void ended(String pod, int code, String phase) {
    api.launcherEnded(pod, "tensorflow", code);
    if (phase != null) {
      api.setPhase(pod, phase);
    }
  }

  @Test
  void theChiefSucceedsTheParameterServersAreStoppedTheEventsRecorded() {
    replica("chief", 0, "Running", true);
    replica("ps", 0, "Running", true);
    replica("ps", 1, "Running", true);
    replica("worker", 0, "Running", true);
    runSidecar(
        CHIEF,
        CHIEF_POD,
        Map.of("chief", "Never", "ps", "Never", "worker", "Never"),
        false,
        "None",
        false,
        Map.of("dist-ps-0", "ps", "dist-ps-1", "ps", "dist-worker-0", "worker"));
    ended("dist-worker-0-abcde", 0, "Succeeded");
    assertThat(sidecar.finished()).as("a worker's success decides nothing").isFalse();

    ended(CHIEF_POD, 0, null);

    Event succeeded = event(TfJobSidecar.SUCCEEDED);
    assertThat(succeeded.getMessage()).isEqualTo("TFJob team/dist successfully completed.");
    assertThat(succeeded.getInvolvedObject().getKind()).isEqualTo("Job");
    assertThat(succeeded.getInvolvedObject().getName()).isEqualTo(CHIEF);
    assertThat(succeeded.getInvolvedObject().getUid()).isEqualTo(CHIEF + "-uid");
    Eventually.equals(
        "the parameter servers' Jobs deleted, the finished worker's kept",
        List.of(CHIEF, "dist-worker-0"),
        this::jobs);
    assertThat(event(TfJobSidecar.STOPPED).getMessage())
        .isEqualTo(
            "cleanPodPolicy None: stopped dist-ps-0, dist-ps-1; kept the finished dist-worker-0");
  }

  @Test
  void aFailedParameterServerFailsTheJobAndStopsTheRest() {
    replica("chief", 0, "Running", true);
    replica("ps", 0, "Running", true);
    replica("worker", 0, "Running", true);
    runSidecar(
        CHIEF,
        CHIEF_POD,
        Map.of("chief", "Never", "ps", "Never", "worker", "Never"),
        false,
        "Running",
        false,
        Map.of("dist-ps-0", "ps", "dist-worker-0", "worker"));

    ended("dist-ps-0-abcde", 1, "Failed");

    assertThat(event(TfJobSidecar.FAILED).getMessage())
        .isEqualTo("TFJob team/dist has failed because 1 PS replica(s) failed.");
    Eventually.equals("the running worker stopped", List.of(CHIEF, "dist-ps-0"), this::jobs);
  }

  @Test
  void exitCodeRetriesSignalsAndFailsOnTheProgramsOwnExitCode() {
    replica("chief", 0, "Running", true);
    replica("worker", 0, "Running", true);
    runSidecar(
        CHIEF,
        CHIEF_POD,
        Map.of("chief", "Never", "worker", "ExitCode"),
        false,
        "None",
        false,
        Map.of("dist-worker-0", "worker"));

    ended("dist-worker-0-abcde", 137, "Failed");
    api.create(pod("worker", 0, "dist-worker-0-fghij", "dist-worker-0", "Running"));
    Eventually.until(
        "the replacement seen",
        () ->
            client.pods().inNamespace(ApiStandIn.NS).withName("dist-worker-0-fghij").get() != null);
    assertThat(sidecar.finished()).as("137 (SIGKILL) is retried").isFalse();

    ended("dist-worker-0-fghij", 2, "Failed");
    assertThat(event(TfJobSidecar.FAILED).getMessage())
        .isEqualTo("TFJob team/dist has failed because 1 Worker replica(s) failed.");
  }

  @Test
  void withAllWorkersTheLastWorkerCompletesAndAllDeletesFinishedPods() {
    replica("worker", 0, "Running", false);
    replica("worker", 1, "Running", false);
    replica("ps", 0, "Running", false);
    runSidecar(
        "dist-worker-1",
        "dist-worker-1",
        Map.of("ps", "Never", "worker", "Never"),
        true,
        "All",
        true,
        Map.of("dist-ps-0", "ps", "dist-worker-0", "worker"));

    ended("dist-worker-1", 0, null);
    assertThat(sidecar.finished()).as("worker 0 still runs").isFalse();
    ended("dist-worker-0", 0, "Succeeded");

    Event succeeded = event(TfJobSidecar.SUCCEEDED);
    assertThat(succeeded.getInvolvedObject().getKind()).isEqualTo("Pod");
    assertThat(succeeded.getInvolvedObject().getName()).isEqualTo("dist-worker-1");
    Eventually.equals(
        "cleanPodPolicy All: every other replica's Pod deleted",
        List.of("dist-worker-1"),
        this::pods);
  }
}
