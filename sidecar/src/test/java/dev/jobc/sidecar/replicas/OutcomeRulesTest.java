package dev.jobc.sidecar.replicas;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jobc.sidecar.replicas.OutcomeRules.Action;
import dev.jobc.sidecar.replicas.OutcomeRules.Verdict;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.PodFailurePolicy;
import io.fabric8.kubernetes.api.model.batch.v1.PodFailurePolicyBuilder;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The decisions without an API: training-operator v1.9.0's {@code UpdateJobStatus} and {@code
 * ReconcileJobs} over replica states, and the states the Job controller's rules give.
 */
class OutcomeRulesTest {
  static final Map<String, String> TYPES =
      Map.of(
          "j-chief-0", "Chief",
          "j-evaluator-0", "Evaluator",
          "j-ps-0", "PS",
          "j-worker-0", "Worker",
          "j-worker-1", "Worker");

  static OutcomeRules rules(
      Set<String> deciders, Set<String> ignored, String cleanPodPolicy, Integer jobWideLimit) {
    return new OutcomeRules(
        "TFJob",
        "ns",
        "j",
        TYPES,
        Map.of("Chief", "Never", "Evaluator", "Never", "PS", "OnFailure", "Worker", "ExitCode"),
        deciders,
        ignored,
        Set.of("Evaluator"),
        cleanPodPolicy,
        jobWideLimit);
  }

  static final OutcomeRules CHIEF = rules(Set.of("j-chief-0"), Set.of(), "None", null);

  static Map<String, ReplicaState> states(Object... replicaAndState) {
    Map<String, ReplicaState> out = new LinkedHashMap<>();
    for (String r : TYPES.keySet()) {
      out.put(r, ReplicaState.ACTIVE);
    }
    for (int i = 0; i < replicaAndState.length; i += 2) {
      out.put((String) replicaAndState[i], (ReplicaState) replicaAndState[i + 1]);
    }
    return out;
  }

  @Test
  void theDecidersSuccessIsTheJobs() {
    assertThat(CHIEF.decide(states("j-worker-0", ReplicaState.SUCCEEDED)))
        .isEqualTo(Verdict.UNDECIDED);
    assertThat(CHIEF.decide(states("j-chief-0", ReplicaState.SUCCEEDED)))
        .isEqualTo(
            new Verdict(
                Verdict.Kind.SUCCEEDED, "TFJobSucceeded", "TFJob ns/j successfully completed."));
    OutcomeRules allWorkers = rules(Set.of("j-worker-0", "j-worker-1"), Set.of(), "None", null);
    assertThat(allWorkers.decide(states("j-worker-1", ReplicaState.SUCCEEDED)).kind())
        .isEqualTo(Verdict.Kind.UNDECIDED);
    assertThat(
            allWorkers
                .decide(
                    states(
                        "j-worker-0", ReplicaState.SUCCEEDED, "j-worker-1", ReplicaState.SUCCEEDED))
                .kind())
        .isEqualTo(Verdict.Kind.SUCCEEDED);
  }

  @Test
  void failuresWinAndNameTheFirstTypeAndItsCount() {
    assertThat(
            CHIEF
                .decide(
                    states(
                        "j-chief-0",
                        ReplicaState.SUCCEEDED,
                        "j-worker-0",
                        ReplicaState.failed("PodFailurePolicy"),
                        "j-worker-1",
                        ReplicaState.failed("PodFailurePolicy"),
                        "j-evaluator-0",
                        ReplicaState.failed("BackoffLimitExceeded")))
                .message())
        .isEqualTo("TFJob ns/j has failed because 1 Evaluator replica(s) failed.");
    assertThat(
            CHIEF
                .decide(
                    states(
                        "j-worker-0",
                        ReplicaState.failed("PodFailurePolicy"),
                        "j-worker-1",
                        ReplicaState.failed("Failed")))
                .message())
        .isEqualTo("TFJob ns/j has failed because 2 Worker replica(s) failed.");
  }

  /** ReconcileJobs: a used-up backoff limit first, then the deadline, then failed replicas. */
  @Test
  void backoffThenDeadlineThenReplicas() {
    String backoff = "Job j has failed because it has reached the specified backoff limit";
    String deadline = "Job j has failed because it was active longer than specified deadline";
    assertThat(
            CHIEF
                .decide(
                    states(
                        "j-ps-0",
                        ReplicaState.failed("BackoffLimitExceeded"),
                        "j-chief-0",
                        ReplicaState.failed("DeadlineExceeded")))
                .message())
        .isEqualTo(backoff);
    assertThat(
            CHIEF
                .decide(
                    states(
                        "j-evaluator-0",
                        ReplicaState.failed("BackoffLimitExceeded"),
                        "j-chief-0",
                        ReplicaState.failed("DeadlineExceeded")))
                .message())
        .as("Never: a failed pod, not a used-up restart budget")
        .isEqualTo(deadline);
    // ExitCode: its retries used up count as the backoff limit.
    assertThat(
            CHIEF
                .decide(states("j-worker-0", ReplicaState.failed("BackoffLimitExceeded")))
                .message())
        .isEqualTo(backoff);
  }

  @Test
  void dynamicWorkersDoNotFailTheJobButTheirBackoffDoes() {
    OutcomeRules dynamic = rules(Set.of("j-chief-0"), Set.of("Worker"), "None", null);
    assertThat(dynamic.decide(states("j-worker-0", ReplicaState.failed("PodFailurePolicy"))))
        .isEqualTo(Verdict.UNDECIDED);
    assertThat(
            dynamic
                .decide(states("j-worker-0", ReplicaState.failed("BackoffLimitExceeded")))
                .kind())
        .isEqualTo(Verdict.Kind.FAILED);
  }

  /** PastBackoffLimit with bare pods: restarts of running pods of restarting types, job-wide. */
  @Test
  void bareRestartsCountJobWide() {
    OutcomeRules pods = rules(Set.of("j-chief-0"), Set.of(), "None", 3);
    assertThat(
            pods.decide(
                states(
                    "j-ps-0",
                    ReplicaState.active(2),
                    "j-evaluator-0",
                    ReplicaState.active(5),
                    "j-worker-0",
                    ReplicaState.ACTIVE)))
        .as("the Evaluator's Never pods do not count")
        .isEqualTo(Verdict.UNDECIDED);
    assertThat(
            pods.decide(
                    states("j-ps-0", ReplicaState.active(2), "j-worker-1", ReplicaState.active(1)))
                .message())
        .isEqualTo("Job j has failed because it has reached the specified backoff limit");
    assertThat(
            rules(Set.of("j-chief-0"), Set.of(), "None", 0)
                .decide(states("j-ps-0", ReplicaState.active(1)))
                .kind())
        .isEqualTo(Verdict.Kind.FAILED);
  }

  @Test
  void aSuspendedDeciderDecidesNothing() {
    assertThat(
            CHIEF.decide(
                states(
                    "j-chief-0", ReplicaState.SUSPENDED, "j-ps-0", ReplicaState.failed("Failed"))))
        .isEqualTo(Verdict.SUSPENDED);
    assertThat(CHIEF.decide(states("j-ps-0", ReplicaState.SUSPENDED))).isEqualTo(Verdict.UNDECIDED);
  }

  @Test
  void whatEndsByPolicy() {
    Verdict failed = CHIEF.decide(states("j-ps-0", ReplicaState.failed("Failed")));
    Map<String, ReplicaState> states =
        states("j-ps-0", ReplicaState.failed("Failed"), "j-worker-1", ReplicaState.SUCCEEDED);
    assertThat(CHIEF.stops(failed, states, true))
        .containsExactly(
            Map.entry("j-chief-0", Action.FAIL), Map.entry("j-worker-0", Action.SUSPEND));
    assertThat(CHIEF.leftRunning(states, CHIEF.stops(failed, states, true)))
        .containsExactly("j-evaluator-0");
    OutcomeRules running = rules(Set.of("j-chief-0"), Set.of(), "Running", null);
    assertThat(running.stops(failed, states, false))
        .containsExactly(
            Map.entry("j-chief-0", Action.END),
            Map.entry("j-evaluator-0", Action.END),
            Map.entry("j-worker-0", Action.END));
    Verdict succeeded = CHIEF.decide(states("j-chief-0", ReplicaState.SUCCEEDED));
    assertThat(CHIEF.stops(succeeded, states("j-chief-0", ReplicaState.SUCCEEDED), true).keySet())
        .containsExactly("j-ps-0", "j-worker-0", "j-worker-1");
  }

  // What a Job or Pod says.

  static Job job(Integer backoffLimit, Integer failed, PodFailurePolicy policy) {
    return new JobBuilder()
        .withNewMetadata()
        .withName("j-chief-0")
        .endMetadata()
        .withNewSpec()
        .withBackoffLimit(backoffLimit)
        .withPodFailurePolicy(policy)
        .endSpec()
        .withNewStatus()
        .withFailed(failed)
        .endStatus()
        .build();
  }

  static Pod pod(String restartPolicy, String phase, Integer exitCode, int restarts) {
    ContainerStatusBuilder status =
        new ContainerStatusBuilder().withName("tensorflow").withRestartCount(restarts);
    if (exitCode == null) {
      status.withNewState().withNewRunning().endRunning().endState();
    } else {
      status.withNewState().withNewTerminated().withExitCode(exitCode).endTerminated().endState();
    }
    return new PodBuilder()
        .withNewMetadata()
        .withName("p")
        .endMetadata()
        .withNewSpec()
        .withRestartPolicy(restartPolicy)
        .endSpec()
        .withNewStatus()
        .withPhase(phase)
        .withContainerStatuses(status.build())
        .endStatus()
        .build();
  }

  static final PodFailurePolicy EXIT_CODES =
      new PodFailurePolicyBuilder()
          .addNewRule()
          .withAction("Ignore")
          .withNewOnExitCodes()
          .withContainerName("tensorflow")
          .withOperator("In")
          .withValues(42)
          .endOnExitCodes()
          .endRule()
          .addNewRule()
          .withAction("FailJob")
          .withNewOnExitCodes()
          .withContainerName("tensorflow")
          .withOperator("NotIn")
          .withValues(137, 143)
          .endOnExitCodes()
          .endRule()
          .build();

  /** pastBackoffLimitOnFailure: restarts reaching the limit; any restart with a limit of 0. */
  @Test
  void onFailureTheOwnRestartsReachTheLimit() {
    Job job = job(3, 0, null);
    assertThat(ReplicaStates.ofJob(job, pod("OnFailure", "Running", null, 2), "tensorflow"))
        .isEqualTo(ReplicaState.active(2));
    assertThat(ReplicaStates.ofJob(job, pod("OnFailure", "Running", 1, 3), "tensorflow"))
        .isEqualTo(ReplicaState.failed("BackoffLimitExceeded"));
    assertThat(
            ReplicaStates.ofJob(
                job(0, 0, null), pod("OnFailure", "Pending", null, 1), "tensorflow"))
        .isEqualTo(ReplicaState.failed("BackoffLimitExceeded"));
    assertThat(
            ReplicaStates.ofJob(
                job(null, 0, null), pod("OnFailure", "Running", null, 5), "tensorflow"))
        .as("Kubernetes' default limit, 6")
        .isEqualTo(ReplicaState.active(5));
    assertThat(ReplicaStates.ofJob(job, pod("OnFailure", "Running", 0, 2), "tensorflow"))
        .isEqualTo(ReplicaState.SUCCEEDED);
  }

  /** Never: the pod fails once the sidecar has exited; the Job's rules then decide. */
  @Test
  void neverThePodFailureIsCountedOrDecidedByThePolicy() {
    Job job = job(2, 1, EXIT_CODES);
    assertThat(ReplicaStates.ofJob(job, pod("Never", "Running", 137, 0), "tensorflow"))
        .as("failure 2 of 2: retried")
        .isEqualTo(ReplicaState.ACTIVE);
    assertThat(
            ReplicaStates.ofJob(
                job(2, 2, EXIT_CODES), pod("Never", "Running", 137, 0), "tensorflow"))
        .isEqualTo(ReplicaState.failed("BackoffLimitExceeded"));
    assertThat(ReplicaStates.ofJob(job, pod("Never", "Running", 1, 0), "tensorflow"))
        .isEqualTo(ReplicaState.failed("PodFailurePolicy"));
    assertThat(
            ReplicaStates.ofJob(
                job(0, 0, EXIT_CODES), pod("Never", "Running", 42, 0), "tensorflow"))
        .as("Ignore: not counted")
        .isEqualTo(ReplicaState.ACTIVE);
    assertThat(ReplicaStates.ofJob(job, pod("Never", "Running", null, 0), "tensorflow"))
        .isEqualTo(ReplicaState.ACTIVE);
    Pod killed =
        new PodBuilder(pod("Never", "Failed", 143, 0))
            .editMetadata()
            .withDeletionTimestamp("2026-01-01T00:00:00Z")
            .endMetadata()
            .build();
    assertThat(ReplicaStates.ofJob(job(0, 0, EXIT_CODES), killed, "tensorflow"))
        .as("a pod being deleted was killed: its Job says why")
        .isEqualTo(ReplicaState.ACTIVE);
  }

  @Test
  void theJobsConditionsComeFirst() {
    Job failed =
        new JobBuilder(job(6, 0, null))
            .editStatus()
            .addNewCondition()
            .withType("FailureTarget")
            .withStatus("True")
            .withReason("DeadlineExceeded")
            .endCondition()
            .endStatus()
            .build();
    assertThat(ReplicaStates.ofJob(failed, pod("Never", "Running", 0, 0), "tensorflow"))
        .isEqualTo(ReplicaState.failed("DeadlineExceeded"));
    Job stopped =
        new JobBuilder(failed)
            .editMetadata()
            .addToAnnotations(ReplicaStates.STOPPED_BY, "j-worker-0")
            .endMetadata()
            .build();
    assertThat(ReplicaStates.ofJob(stopped, null, "tensorflow")).isEqualTo(ReplicaState.STOPPED);
    Job suspended = new JobBuilder(job(6, 0, null)).editSpec().withSuspend(true).endSpec().build();
    assertThat(ReplicaStates.ofJob(suspended, pod("Never", "Running", 0, 0), "tensorflow"))
        .isEqualTo(ReplicaState.SUSPENDED);
    assertThat(ReplicaStates.ofJob(null, null, "tensorflow")).isEqualTo(ReplicaState.ABSENT);
  }

  @Test
  void aBarePodIsFinalOnceItsContainerEnded() {
    assertThat(ReplicaStates.ofPod(pod("Never", "Running", 137, 0), "tensorflow"))
        .isEqualTo(ReplicaState.failed("Failed"));
    assertThat(ReplicaStates.ofPod(pod("Always", "Running", 0, 1), "tensorflow"))
        .as("Always restarts even a success")
        .isEqualTo(ReplicaState.active(1));
    assertThat(ReplicaStates.ofPod(pod("OnFailure", "Running", 2, 3), "tensorflow"))
        .isEqualTo(ReplicaState.active(3));
    assertThat(ReplicaStates.ofPod(pod("OnFailure", "Pending", null, 3), "tensorflow"))
        .as("PastBackoffLimit counts Running pods only")
        .isEqualTo(ReplicaState.ACTIVE);
    Pod deadline =
        new PodBuilder(pod("Never", "Failed", 137, 0))
            .editStatus()
            .withReason("DeadlineExceeded")
            .endStatus()
            .build();
    assertThat(ReplicaStates.ofPod(deadline, "tensorflow"))
        .isEqualTo(ReplicaState.failed("DeadlineExceeded"));
    assertThat(ReplicaStates.ofPod(pod("Never", "Succeeded", 0, 0), "tensorflow"))
        .isEqualTo(ReplicaState.SUCCEEDED);
  }
}
