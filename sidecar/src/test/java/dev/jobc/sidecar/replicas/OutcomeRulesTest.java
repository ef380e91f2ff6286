package dev.jobc.sidecar.replicas;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jobc.conventions.ReplicaLabels;
import dev.jobc.sidecar.base.Termination;
import dev.jobc.sidecar.replicas.OutcomeRules.Action;
import dev.jobc.sidecar.replicas.OutcomeRules.Carrier;
import dev.jobc.sidecar.replicas.OutcomeRules.Verdict;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.PodFailurePolicy;
import io.fabric8.kubernetes.api.model.batch.v1.PodFailurePolicyBuilder;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

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

  /** TFJob {@code j}'s rules, its replicas carried by {@code carrier}. */
  static OutcomeRules rules(
      Set<String> deciders,
      Set<String> ignored,
      String cleanPodPolicy,
      Integer backoffLimit,
      Carrier carrier) {
    List<String> order = new ArrayList<>(new TreeMap<>(TYPES).keySet());
    return new OutcomeRules(
        "TFJob",
        "j",
        TYPES,
        Map.of("Chief", "Never", "Evaluator", "Never", "PS", "OnFailure", "Worker", "ExitCode"),
        deciders,
        false,
        order,
        ignored,
        Set.of("Evaluator"),
        TfJobCommand.RESTARTING,
        cleanPodPolicy,
        backoffLimit,
        carrier,
        true,
        "tensorflow",
        "TFJob ns/j successfully completed.",
        "TFJob ns/j has failed because %d %s replica(s) failed.");
  }

  static OutcomeRules rules(
      Set<String> deciders, Set<String> ignored, String cleanPodPolicy, Integer jobWideLimit) {
    // The limit over the whole job's restarts applies with bare Pods alone.
    return rules(
        deciders,
        ignored,
        cleanPodPolicy,
        jobWideLimit,
        jobWideLimit == null ? Carrier.JOB : Carrier.POD);
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
    assertThat(
            rules(Set.of("j-chief-0"), Set.of(), "None", null, Carrier.POD)
                .decide(states("j-ps-0", ReplicaState.active(100))))
        .as("no runPolicy.backoffLimit: PastBackoffLimit is false")
        .isEqualTo(Verdict.UNDECIDED);
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
    assertThat(CHIEF.stops(failed, states))
        .containsExactly(
            Map.entry("j-chief-0", Action.FAIL), Map.entry("j-worker-0", Action.SUSPEND));
    assertThat(CHIEF.leftRunning(states, CHIEF.stops(failed, states)))
        .containsExactly("j-evaluator-0");
    OutcomeRules running = rules(Set.of("j-chief-0"), Set.of(), "Running", null, Carrier.POD);
    assertThat(running.stops(failed, states))
        .containsExactly(
            Map.entry("j-chief-0", Action.END),
            Map.entry("j-evaluator-0", Action.END),
            Map.entry("j-worker-0", Action.END));
    Verdict succeeded = CHIEF.decide(states("j-chief-0", ReplicaState.SUCCEEDED));
    assertThat(CHIEF.stops(succeeded, states("j-chief-0", ReplicaState.SUCCEEDED)).keySet())
        .containsExactly("j-ps-0", "j-worker-0", "j-worker-1");
  }

  @Test
  void onlySuccessAndFailureAreDecisions() {
    assertThat(Verdict.UNDECIDED.decided()).isFalse();
    assertThat(Verdict.SUSPENDED.decided()).isFalse();
    assertThat(new Verdict(Verdict.Kind.SUCCEEDED, "r", "m").decided()).isTrue();
    assertThat(new Verdict(Verdict.Kind.FAILED, "r", "m").decided()).isTrue();
  }

  /**
   * Kubernetes' {@code matchPodFailurePolicy} for {@code onExitCodes}: a rule without a container
   * name looks at every container, init containers too; one with a name at that container alone;
   * none that matches, or no policy, gives no action.
   */
  @Test
  void aPodFailurePolicyRuleMatchesTheExitCodesOfItsContainers() {
    Pod initFailed =
        new PodBuilder(pod("Never", "Running", null, 0))
            .editStatus()
            .addNewInitContainerStatus()
            .withName("init")
            .withNewState()
            .withNewTerminated()
            .withExitCode(3)
            .endTerminated()
            .endState()
            .endInitContainerStatus()
            .endStatus()
            .build();
    PodFailurePolicy anyContainer =
        new PodFailurePolicyBuilder()
            .addNewRule()
            .withAction("FailJob")
            .withNewOnExitCodes()
            .withOperator("In")
            .withValues(3)
            .endOnExitCodes()
            .endRule()
            .build();
    assertThat(ReplicaStates.failurePolicyAction(anyContainer, initFailed)).isEqualTo("FailJob");
    PodFailurePolicy otherContainer =
        new PodFailurePolicyBuilder(anyContainer)
            .editFirstRule()
            .editOnExitCodes()
            .withContainerName("other")
            .endOnExitCodes()
            .endRule()
            .build();
    assertThat(ReplicaStates.failurePolicyAction(otherContainer, initFailed)).isNull();
    assertThat(ReplicaStates.failurePolicyAction(null, initFailed)).isNull();
    assertThat(ReplicaStates.failurePolicyAction(EXIT_CODES, pod("Never", "Running", null, 0)))
        .isNull();
  }

  // What a Job or Pod says.

  /**
   * The state of a replica carried by {@code job}, which the sidecar reads; {@code own} is this
   * sidecar's pod, under the restart policy it has.
   */
  static ReplicaState ofJob(Job job, Pod own, String container) {
    String policy = own == null ? "Never" : own.getSpec().getRestartPolicy();
    return ReplicaStates.of(
        new ReplicaRules(Carrier.JOB, true, policy, container, 6, true),
        job,
        own == null ? List.of() : List.of(own),
        own);
  }

  /** The state of a replica that is the bare Pod {@code pod}, under its restart policy. */
  static ReplicaState ofPod(Pod pod, String container) {
    return ReplicaStates.ofPod(
        pod,
        new ReplicaRules(Carrier.POD, true, pod.getSpec().getRestartPolicy(), container, 6, true));
  }

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
    assertThat(ofJob(job, pod("OnFailure", "Running", null, 2), "tensorflow"))
        .isEqualTo(ReplicaState.active(2));
    assertThat(ofJob(job, pod("OnFailure", "Running", 1, 3), "tensorflow"))
        .isEqualTo(ReplicaState.failed("BackoffLimitExceeded"));
    assertThat(ofJob(job(0, 0, null), pod("OnFailure", "Pending", null, 1), "tensorflow"))
        .isEqualTo(ReplicaState.failed("BackoffLimitExceeded"));
    assertThat(ofJob(job(null, 0, null), pod("OnFailure", "Running", null, 5), "tensorflow"))
        .as("Kubernetes' default limit, 6")
        .isEqualTo(ReplicaState.active(5));
    assertThat(ofJob(job, pod("OnFailure", "Running", 0, 2), "tensorflow"))
        .isEqualTo(ReplicaState.SUCCEEDED);
    assertThat(ofJob(job, pod("OnFailure", "Running", null, 3), "tensorflow"))
        .as("3 restarts of 3")
        .isEqualTo(ReplicaState.failed("BackoffLimitExceeded"));
    assertThat(ofJob(job(2, 2, null), pod("OnFailure", "Running", null, 0), "tensorflow"))
        .as("2 failed pods (evicted, say) of 2")
        .isEqualTo(ReplicaState.ACTIVE);
    assertThat(ofJob(job(2, 3, null), pod("OnFailure", "Running", null, 0), "tensorflow"))
        .as("3 failed pods of 2")
        .isEqualTo(ReplicaState.failed("BackoffLimitExceeded"));
    assertThat(ofJob(job(3, 0, null), pod("OnFailure", "Unknown", null, 5), "tensorflow"))
        .as("the restarts of a pod neither running nor pending do not count")
        .isEqualTo(ReplicaState.ACTIVE);
    assertThat(ofJob(job(0, 0, null), pod("OnFailure", "Running", null, 0), "tensorflow"))
        .as("a limit of 0 and no restart yet")
        .isEqualTo(ReplicaState.ACTIVE);
  }

  /** Never: the pod fails once the sidecar has exited; the Job's rules then decide. */
  @Test
  void neverThePodFailureIsCountedOrDecidedByThePolicy() {
    Job job = job(2, 1, EXIT_CODES);
    assertThat(ofJob(job, pod("Never", "Running", 137, 0), "tensorflow"))
        .as("failure 2 of 2: retried")
        .isEqualTo(ReplicaState.ACTIVE);
    assertThat(ofJob(job(2, 2, EXIT_CODES), pod("Never", "Running", 137, 0), "tensorflow"))
        .isEqualTo(ReplicaState.failed("BackoffLimitExceeded"));
    assertThat(ofJob(job, pod("Never", "Running", 1, 0), "tensorflow"))
        .isEqualTo(ReplicaState.failed("PodFailurePolicy"));
    assertThat(ofJob(job(0, 0, EXIT_CODES), pod("Never", "Running", 42, 0), "tensorflow"))
        .as("Ignore: not counted")
        .isEqualTo(ReplicaState.ACTIVE);
    assertThat(ofJob(job, pod("Never", "Running", null, 0), "tensorflow"))
        .isEqualTo(ReplicaState.ACTIVE);
    Pod killed =
        new PodBuilder(pod("Never", "Failed", 143, 0))
            .editMetadata()
            .withDeletionTimestamp("2026-01-01T00:00:00Z")
            .endMetadata()
            .build();
    assertThat(ofJob(job(0, 0, EXIT_CODES), killed, "tensorflow"))
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
    assertThat(ofJob(failed, pod("Never", "Running", 0, 0), "tensorflow"))
        .isEqualTo(ReplicaState.failed("DeadlineExceeded"));
    Job stopped =
        new JobBuilder(failed)
            .editMetadata()
            .addToAnnotations(ReplicaStates.STOPPED_BY, "j-worker-0")
            .endMetadata()
            .build();
    assertThat(ofJob(stopped, null, "tensorflow")).isEqualTo(ReplicaState.STOPPED);
    Job suspended = new JobBuilder(job(6, 0, null)).editSpec().withSuspend(true).endSpec().build();
    assertThat(ofJob(suspended, pod("Never", "Running", 0, 0), "tensorflow"))
        .isEqualTo(ReplicaState.SUSPENDED);
    assertThat(ofJob(null, null, "tensorflow")).isEqualTo(ReplicaState.ABSENT);
    for (String complete : List.of("Complete", "SuccessCriteriaMet")) {
      Job done =
          new JobBuilder(job(6, 0, null))
              .editStatus()
              .addNewCondition()
              .withType(complete)
              .withStatus("True")
              .endCondition()
              .endStatus()
              .build();
      assertThat(ofJob(done, null, "tensorflow")).as(complete).isEqualTo(ReplicaState.SUCCEEDED);
    }
  }

  @Test
  void aBarePodIsFinalOnceItsContainerEnded() {
    assertThat(ofPod(pod("Never", "Running", 137, 0), "tensorflow"))
        .isEqualTo(ReplicaState.failed("Failed"));
    assertThat(ofPod(pod("Always", "Running", 0, 1), "tensorflow"))
        .as("Always restarts even a success")
        .isEqualTo(ReplicaState.active(1));
    assertThat(ofPod(pod("OnFailure", "Running", 2, 3), "tensorflow"))
        .isEqualTo(ReplicaState.active(3));
    assertThat(ofPod(pod("OnFailure", "Pending", null, 3), "tensorflow"))
        .as("PastBackoffLimit counts Running pods only")
        .isEqualTo(ReplicaState.ACTIVE);
    Pod deadline =
        new PodBuilder(pod("Never", "Failed", 137, 0))
            .editStatus()
            .withReason("DeadlineExceeded")
            .endStatus()
            .build();
    assertThat(ofPod(deadline, "tensorflow")).isEqualTo(ReplicaState.failed("DeadlineExceeded"));
    assertThat(ofPod(pod("Never", "Succeeded", 0, 0), "tensorflow"))
        .isEqualTo(ReplicaState.SUCCEEDED);
    Pod stopped =
        new PodBuilder(deadline)
            .editMetadata()
            .addToAnnotations(ReplicaStates.STOPPED_BY, "j-chief-0")
            .endMetadata()
            .build();
    assertThat(ofPod(stopped, "tensorflow"))
        .as("ended by a sidecar: a consequence, not a cause")
        .isEqualTo(ReplicaState.STOPPED);
    assertThat(ofPod(pod("Never", "Running", 0, 0), "tensorflow"))
        .as("its program exited 0; the pod still runs its native sidecar")
        .isEqualTo(ReplicaState.SUCCEEDED);
  }

  // The rest of the family, whose sidecar reads the replicas' pods alone: the outcome as
  // training-operator v1.9.0 decides it, UpdateJobStatus of each kind (the deciding type's
  // replicas succeed: all of them, or the first under PyTorchJob's elastic policy),
  // IsRetryableExitCode (pkg/util/train/train_util.go: 128 and above are retried under ExitCode)
  // and the Job controller's limits (kubernetes/kubernetes pkg/controller/job/job_controller.go:
  // under OnFailure restarts reaching backoffLimit, pastBackoffLimitOnFailure; pods never
  // restarted, more failed pods than backoffLimit).

  /**
   * Worker 0 of PyTorchJob {@code j} (no Master to decide): its rules as its sidecar reads them.
   */
  private static OutcomeRules family(
      String workerPolicy,
      int backoffLimit,
      boolean any,
      boolean podCarrier,
      Set<String> tolerated) {
    return family("PyTorchJob", workerPolicy, backoffLimit, any, podCarrier, tolerated);
  }

  private static OutcomeRules family(
      String kind,
      String workerPolicy,
      int backoffLimit,
      boolean any,
      boolean podCarrier,
      Set<String> tolerated) {
    List<String> args =
        new ArrayList<>(
            List.of(
                "--kind",
                kind,
                "--operator",
                "o",
                "--job",
                "j",
                "--self",
                "j-worker-0",
                "--main-container",
                "main",
                "--restart-policy",
                "master=Never",
                "--restart-policy",
                "worker=" + workerPolicy,
                "--restart-policy",
                "ps=OnFailure",
                "--backoff-limit",
                Integer.toString(backoffLimit),
                "--decides",
                "worker",
                "--success",
                any ? "any" : "all",
                "--carrier",
                podCarrier ? "pod" : "job",
                "--replicas",
                "master=1",
                "--replicas",
                "worker=2",
                "--replicas",
                "ps=1"));
    for (String type : tolerated) {
      args.addAll(List.of("--tolerate", type));
    }
    ReplicasCommand command =
        new ReplicasCommand(
            new Termination(), () -> null, Map.of("POD_NAMESPACE", "ns", "POD_NAME", "p"));
    new CommandLine(command).parseArgs(args.toArray(String[]::new));
    return command.settings().rules();
  }

  private static OutcomeRules family(String workerPolicy, int backoffLimit) {
    return family(workerPolicy, backoffLimit, false, false, Set.of());
  }

  /**
   * The verdict of {@code rules} over {@code pods}, {@code me} this sidecar's own ({@code null}:
   * unseen).
   */
  private static Verdict decide(OutcomeRules rules, Map<String, Pod> pods, Pod me) {
    return rules.decide(states(rules, pods, me));
  }

  private static Map<String, ReplicaState> states(
      OutcomeRules rules, Map<String, Pod> pods, Pod me) {
    return rules.states("j-worker-0", me, pods, Map.of());
  }

  private static final Verdict SUCCEEDED =
      new Verdict(
          Verdict.Kind.SUCCEEDED, "PyTorchJobSucceeded", "PyTorchJob ns/j successfully completed.");

  private static final String BACKOFF =
      "Job j has failed because it has reached the specified backoff limit";

  private static Verdict failedBecause(int replicas, String type) {
    return new Verdict(
        Verdict.Kind.FAILED,
        "PyTorchJobFailed",
        "PyTorchJob j is failed because " + replicas + " " + type + " replica(s) failed.");
  }

  private static Verdict backoff() {
    return new Verdict(Verdict.Kind.FAILED, "PyTorchJobFailed", BACKOFF);
  }

  /** A pod of replica {@code type-index}; {@code exit} null while its main container runs. */
  private static Pod pod(
      String name, String type, int index, String phase, Integer exit, int restarts) {
    ContainerStatusBuilder main = new ContainerStatusBuilder().withName("main");
    main.withRestartCount(restarts);
    if (exit == null) {
      main.withNewState().withNewRunning().endRunning().endState();
    } else {
      main.withNewState().withNewTerminated().withExitCode(exit).endTerminated().endState();
    }
    return new PodBuilder()
        .withNewMetadata()
        .withName(name)
        .addToLabels(ReplicaLabels.REPLICA_TYPE, type)
        .addToLabels(ReplicaLabels.REPLICA_INDEX, Integer.toString(index))
        .endMetadata()
        .withNewStatus()
        .withPhase(phase)
        .withContainerStatuses(
            new ContainerStatusBuilder().withName("sidecar").withRestartCount(0).build(),
            main.build())
        .endStatus()
        .build();
  }

  private static Map<String, Pod> byName(Pod... pods) {
    Map<String, Pod> out = new LinkedHashMap<>();
    for (Pod p : pods) {
      out.put(p.getMetadata().getName(), p);
    }
    return out;
  }

  private static final Pod ME_RUNNING = pod("j-worker-0-a", "worker", 0, "Running", null, 0);
  private static final Pod ME_DONE = pod("j-worker-0-a", "worker", 0, "Running", 0, 0);

  @Test
  void everyDecidingReplicaMustSucceedUnlessAnySuffices() {
    Pod other = pod("j-worker-1-a", "worker", 1, "Running", null, 0);
    Map<String, Pod> pods = byName(ME_DONE, other);
    assertThat(decide(family("Never", 0), pods, ME_DONE)).isEqualTo(Verdict.UNDECIDED);
    assertThat(decide(family("Never", 0, true, false, Set.of()), pods, ME_DONE))
        .isEqualTo(SUCCEEDED);

    Pod otherDone = pod("j-worker-1-a", "worker", 1, "Running", 0, 0);
    assertThat(decide(family("Never", 0), byName(ME_DONE, otherDone), ME_DONE))
        .isEqualTo(SUCCEEDED);
    Pod otherSucceeded = pod("j-worker-1-a", "worker", 1, "Succeeded", null, 0);
    assertThat(decide(family("Never", 0), byName(ME_DONE, otherSucceeded), ME_DONE))
        .isEqualTo(SUCCEEDED);
  }

  @Test
  void nothingIsDecidedWhileThisReplicaRunsOrIsUnseen() {
    Pod otherDone = pod("j-worker-1-a", "worker", 1, "Succeeded", 0, 0);
    assertThat(decide(family("Never", 0), byName(ME_RUNNING, otherDone), ME_RUNNING))
        .isEqualTo(Verdict.UNDECIDED);
    assertThat(decide(family("Never", 0), byName(otherDone), null)).isEqualTo(Verdict.UNDECIDED);
    Pod meKilled = pod("j-worker-0-a", "worker", 0, "Running", 137, 0);
    assertThat(decide(family("ExitCode", 3), byName(meKilled, otherDone), meKilled))
        .isEqualTo(Verdict.UNDECIDED);
  }

  @Test
  void underNeverAnyFailedAttemptFailsTheJob() {
    Pod meFailed = pod("j-worker-0-a", "worker", 0, "Running", 137, 0);
    assertThat(decide(family("Never", 5), byName(meFailed), meFailed))
        .isEqualTo(failedBecause(1, "Worker"));
    Pod masterFailed = pod("j-master-0-a", "master", 0, "Failed", 2, 0);
    assertThat(decide(family("Never", 5), byName(ME_RUNNING, masterFailed), ME_RUNNING))
        .isEqualTo(failedBecause(1, "Master"));
    // A replica with no failed attempt has not failed, whatever its policy.
    Pod masterRunning = pod("j-master-0-a", "master", 0, "Running", null, 0);
    assertThat(decide(family("Never", 5), byName(ME_RUNNING, masterRunning), ME_RUNNING))
        .isEqualTo(Verdict.UNDECIDED);
  }

  @Test
  void underExitCodeOnlyExitCodesBelow128AreFinal() {
    for (int code : new int[] {1, 127}) {
      Pod me = pod("j-worker-0-a", "worker", 0, "Running", code, 0);
      assertThat(decide(family("ExitCode", 3), byName(me), me))
          .as("own exit code %d", code)
          .isEqualTo(failedBecause(1, "Worker"));
      Pod other = pod("j-worker-1-a", "worker", 1, "Failed", code, 0);
      assertThat(decide(family("ExitCode", 3), byName(ME_RUNNING, other), ME_RUNNING))
          .as("other's exit code %d", code)
          .isEqualTo(failedBecause(1, "Worker"));
    }
    for (int code : new int[] {128, 137, 255}) {
      Pod me = pod("j-worker-0-a", "worker", 0, "Running", code, 0);
      assertThat(decide(family("ExitCode", 3), byName(me), me))
          .as("own %d", code)
          .isEqualTo(Verdict.UNDECIDED);
      Pod other = pod("j-worker-1-a", "worker", 1, "Failed", code, 0);
      assertThat(decide(family("ExitCode", 3), byName(ME_RUNNING, other), ME_RUNNING))
          .as("other's %d", code)
          .isEqualTo(Verdict.UNDECIDED);
    }
  }

  @Test
  void aFailedPodWithNoExitCodeIsRetriedUnderExitCode() {
    // Evicted, say: common/pod.go ReconcilePods starts from exit code 0xbeef, which is retryable.
    Pod evicted = pod("j-worker-1-a", "worker", 1, "Failed", null, 0);
    assertThat(decide(family("ExitCode", 3), byName(ME_RUNNING, evicted), ME_RUNNING))
        .isEqualTo(Verdict.UNDECIDED);
    assertThat(decide(family("Never", 3), byName(ME_RUNNING, evicted), ME_RUNNING))
        .isEqualTo(failedBecause(1, "Worker"));
  }

  @Test
  void aBarePodUnderExitCodeFailsForGoodOnAnyFailure() {
    Pod me =
        new PodBuilder(pod("j-worker-0", "worker", 0, "Running", 137, 0))
            .editMetadata()
            .withName("j-worker-0")
            .endMetadata()
            .build();
    assertThat(decide(family("ExitCode", 3, false, true, Set.of()), byName(me), me))
        .isEqualTo(failedBecause(1, "Worker"));
  }

  /**
   * Retried failures past a replica's {@code backoffLimit} fail its Job, and so the job, as
   * training-operator's {@code ReconcileJobs} says it when its {@code PastBackoffLimit} is reached.
   */
  @Test
  void retriedFailuresPastTheBackoffLimitFailTheJob() {
    // OnFailure: the kubelet restarts the container; restarts reaching the limit fail the job
    // (pastBackoffLimitOnFailure: result >= backoffLimit), as the Job controller then deletes
    // the pod and the sidecar would never see a later restart.
    Pod psRestarted = pod("j-ps-0-a", "ps", 0, "Running", null, 1);
    OutcomeRules limit2 = family("ExitCode", 2, false, false, Set.of());
    assertThat(decide(limit2, byName(ME_RUNNING, psRestarted), ME_RUNNING))
        .isEqualTo(Verdict.UNDECIDED);
    Pod psRestarted2 = pod("j-ps-0-a", "ps", 0, "Running", null, 2);
    assertThat(states(limit2, byName(ME_RUNNING, psRestarted2), ME_RUNNING).get("j-ps-0"))
        .isEqualTo(ReplicaState.failed(ReplicaStates.BACKOFF_LIMIT_EXCEEDED));
    assertThat(decide(limit2, byName(ME_RUNNING, psRestarted2), ME_RUNNING)).isEqualTo(backoff());
    // A limit of 0: the first restart fails the job.
    Pod psRestartedOnce = pod("j-ps-0-a", "ps", 0, "Running", null, 1);
    assertThat(
            decide(
                family("ExitCode", 0, false, false, Set.of()),
                byName(ME_RUNNING, psRestartedOnce),
                ME_RUNNING))
        .isEqualTo(backoff());
    // This replica under OnFailure: its own failed attempt counts with its restarts, so its
    // second failure reaches a limit of 2 (restartCount 2 once the kubelet restarts it).
    Pod meFirstFailure = pod("j-worker-0-a", "worker", 0, "Running", 1, 0);
    assertThat(decide(family("OnFailure", 2), byName(meFirstFailure), meFirstFailure))
        .isEqualTo(Verdict.UNDECIDED);
    Pod meSecondOnFailure = pod("j-worker-0-a", "worker", 0, "Running", 1, 1);
    assertThat(
            states(family("OnFailure", 2), byName(meSecondOnFailure), meSecondOnFailure)
                .get("j-worker-0"))
        .isEqualTo(ReplicaState.failed(ReplicaStates.BACKOFF_LIMIT_EXCEEDED));
    assertThat(decide(family("OnFailure", 2), byName(meSecondOnFailure), meSecondOnFailure))
        .isEqualTo(backoff());

    // ExitCode: retryable failures of this replica, its own attempt and restarts counted.
    Pod meSecondFailure = pod("j-worker-0-a", "worker", 0, "Running", 137, 1);
    assertThat(decide(family("ExitCode", 2), byName(meSecondFailure), meSecondFailure))
        .isEqualTo(Verdict.UNDECIDED);
    Pod meThirdFailure = pod("j-worker-0-a", "worker", 0, "Running", 137, 2);
    assertThat(decide(family("ExitCode", 2), byName(meThirdFailure), meThirdFailure))
        .isEqualTo(backoff());
    // Earlier pods of this replica (replaced by the Job controller) count too, this pod once.
    Pod earlier = pod("j-worker-0-b", "worker", 0, "Failed", 137, 0);
    Pod meAsFailed = pod("j-worker-0-a", "worker", 0, "Failed", 137, 0);
    assertThat(decide(family("ExitCode", 2), byName(earlier, meAsFailed), meAsFailed))
        .isEqualTo(Verdict.UNDECIDED);
    Pod earlier2 = pod("j-worker-0-c", "worker", 0, "Failed", 137, 0);
    assertThat(decide(family("ExitCode", 2), byName(earlier, earlier2, meAsFailed), meAsFailed))
        .isEqualTo(backoff());
  }

  /**
   * A tolerated type's failed replicas do not fail the job; its Job's used-up backoff limit does,
   * as TFJob's dynamic Workers' ({@code ReconcileJobs} checks the limit before any type). Among the
   * others, the first failed replica's type is named: this replica's own, else the first in the
   * order of {@code --replicas}, with the count of its type's failed replicas.
   */
  @Test
  void toleratedTypesNeverFailTheJobAndOneTypeIsCounted() {
    // A bare Pod that failed has failed for good: nothing starts it again.
    Pod psFailed =
        new PodBuilder(pod("j-ps-0-a", "ps", 0, "Failed", 1, 5))
            .editMetadata()
            .withName("j-ps-0")
            .endMetadata()
            .build();
    OutcomeRules toleratingPs = family("Never", 0, false, true, Set.of("ps"));
    assertThat(decide(toleratingPs, byName(ME_RUNNING, psFailed), ME_RUNNING))
        .isEqualTo(Verdict.UNDECIDED);
    assertThat(
            decide(
                family("Never", 0, false, true, Set.of()),
                byName(ME_RUNNING, psFailed),
                ME_RUNNING))
        .isEqualTo(failedBecause(1, "Ps"));
    assertThat(
            decide(
                family("Never", 0, false, false, Set.of("ps")),
                byName(ME_RUNNING, pod("j-ps-0-a", "ps", 0, "Failed", 1, 5)),
                ME_RUNNING))
        .as("a limit of 0 used up by the failed pod of its OnFailure Job")
        .isEqualTo(backoff());

    Pod meFailed = pod("j-worker-0-a", "worker", 0, "Running", 1, 0);
    Pod otherFailed = pod("j-worker-1-a", "worker", 1, "Failed", 1, 0);
    Pod masterFailed = pod("j-master-0-a", "master", 0, "Failed", 1, 0);
    assertThat(decide(family("Never", 0), byName(meFailed, otherFailed, masterFailed), meFailed))
        .isEqualTo(failedBecause(2, "Worker"));
    assertThat(
            decide(family("Never", 0), byName(ME_RUNNING, masterFailed, otherFailed), ME_RUNNING))
        .isEqualTo(failedBecause(1, "Master"));
  }

  @Test
  void podsAreGroupedByTheOperatorsLabelsOnly() {
    Pod unlabelled =
        new PodBuilder(pod("j-worker-1-a", "worker", 1, "Failed", 1, 0))
            .editMetadata()
            .withLabels(Map.of())
            .endMetadata()
            .build();
    assertThat(decide(family("Never", 0), byName(ME_RUNNING, unlabelled), ME_RUNNING))
        .isEqualTo(Verdict.UNDECIDED);
    assertThat(ReplicaStates.byReplica("j", byName(ME_RUNNING, unlabelled)))
        .containsOnlyKeys("j-worker-0");
  }

  // Issue 36: where Kubernetes' Job controller retries what training-operator does not.

  /**
   * A failed pod whose main container exited 0 (another of its containers failed) is final under
   * {@code ExitCode}: training-operator's {@code ReconcilePods} reads the main container's exit
   * code, and {@code IsRetryableExitCode(0)} is false (v1.9.0 {@code pkg/util/train/train_util.go},
   * {@code pkg/controller.v1/common/pod.go}). The Job would retry it: a {@code podFailurePolicy}
   * cannot name exit code 0.
   */
  @Test
  void underExitCodeAFailedPodWhoseProgramExited0FailsTheJob() {
    Pod other = pod("j-worker-1-a", "worker", 1, "Failed", 0, 0);
    OutcomeRules rules = family("ExitCode", 3);
    Map<String, ReplicaState> states = states(rules, byName(ME_RUNNING, other), ME_RUNNING);
    Verdict verdict = rules.decide(states);
    assertThat(verdict).isEqualTo(failedBecause(1, "Worker"));
    assertThat(rules.stops(verdict, states))
        .as("the failed Worker's Job runs another pod: failed too, as it decides")
        .containsExactly(
            Map.entry("j-master-0", Action.SUSPEND),
            Map.entry("j-ps-0", Action.SUSPEND),
            Map.entry("j-worker-0", Action.FAIL),
            Map.entry("j-worker-1", Action.FAIL));
    Pod deleted =
        new PodBuilder(other)
            .editMetadata()
            .withDeletionTimestamp("2026-01-01T00:00:00Z")
            .endMetadata()
            .build();
    assertThat(decide(family("ExitCode", 3), byName(ME_RUNNING, deleted), ME_RUNNING))
        .as("a pod being deleted was killed: its exit says nothing of the program")
        .isEqualTo(Verdict.UNDECIDED);

    // The same where the sidecar reads the replica's Job, which still runs (it retries).
    ReplicaRules exitCode = new ReplicaRules(Carrier.JOB, true, "ExitCode", "tensorflow", 6, true);
    Pod failed0 = pod("Never", "Failed", 0, 0);
    assertThat(ReplicaStates.of(exitCode, job(6, 1, EXIT_CODES), List.of(failed0), null))
        .as("failed, and its Job runs another pod: stopped once decided")
        .isEqualTo(ReplicaState.failed(ReplicaStates.UNRETRIED_POD));
    assertThat(ReplicaState.failed(ReplicaStates.UNRETRIED_POD).runsOn()).isTrue();
    assertThat(ReplicaState.failed(ReplicaStates.FAILED).runsOn()).isFalse();
    assertThat(
            ReplicaStates.of(
                exitCode, job(6, 1, EXIT_CODES), List.of(pod("Never", "Failed", 137, 0)), null))
        .as("137: retried")
        .isEqualTo(ReplicaState.ACTIVE);
    assertThat(
            ReplicaStates.of(
                exitCode, job(6, 1, EXIT_CODES), List.of(pod("Never", "Failed", 1, 0)), null))
        .as("1: failed, and its Job fails too (podFailurePolicy)")
        .isEqualTo(ReplicaState.failed(ReplicaStates.FAILED));
  }

  /**
   * XGBoostJob's {@code UpdateJobStatus} fails the job on a failed pod whatever its restart policy
   * but {@code ExitCode} (v1.9.0 {@code pkg/controller.v1/xgboost/xgboostjob_controller.go}); the
   * other kinds restart it under {@code OnFailure} and {@code Always} ({@code failed > 0 &&
   * RestartPolicy != Never}: {@code JobRestarting}). Under {@code OnFailure} a pod fails when it is
   * evicted, say: the Job would start another one.
   */
  @Test
  void anXGBoostJobFailsOnAFailedPodUnderOnFailure() {
    Pod evicted =
        new PodBuilder(pod("j-worker-1-a", "worker", 1, "Failed", null, 0))
            .editStatus()
            .withReason("Evicted")
            .endStatus()
            .build();
    for (String policy : List.of("OnFailure", "Always")) {
      assertThat(
              decide(
                  family("XGBoostJob", policy, 6, false, false, Set.of()),
                  byName(ME_RUNNING, evicted),
                  ME_RUNNING))
          .as("XGBoostJob, %s", policy)
          .isEqualTo(
              new Verdict(
                  Verdict.Kind.FAILED,
                  "XGBoostJobFailed",
                  "XGBoostJob j is failed because 1 Worker replica(s) failed."));
      assertThat(decide(family(policy, 6), byName(ME_RUNNING, evicted), ME_RUNNING))
          .as("PyTorchJob, %s: restarted", policy)
          .isEqualTo(Verdict.UNDECIDED);
    }
    assertThat(
            decide(
                family("XGBoostJob", "ExitCode", 6, false, false, Set.of()),
                byName(ME_RUNNING, pod("j-worker-1-a", "worker", 1, "Failed", 137, 0)),
                ME_RUNNING))
        .as("XGBoostJob, ExitCode 137: restarted")
        .isEqualTo(Verdict.UNDECIDED);
    assertThat(
            decide(
                family("XGBoostJob", "OnFailure", 6, false, false, Set.of()),
                byName(ME_RUNNING, pod("j-worker-1-a", "worker", 1, "Running", null, 3)),
                ME_RUNNING))
        .as("XGBoostJob, OnFailure: container restarts are no failed pod")
        .isEqualTo(Verdict.UNDECIDED);
  }

  /**
   * Under {@code OnFailure} the Job counts the restarts of running and pending pods alone, and a
   * failed pod whose program exited 0 has not succeeded: the other kinds' operator starts it again.
   */
  @Test
  void underOnFailureOnlyRunningPodsRestartsCountAndAFailedPodHasNotSucceeded() {
    Pod unknown = pod("j-ps-0-a", "ps", 0, "Unknown", null, 5);
    assertThat(decide(family("OnFailure", 2), byName(ME_RUNNING, unknown), ME_RUNNING))
        .isEqualTo(Verdict.UNDECIDED);
    Pod failedAfterSuccess = pod("j-worker-1-a", "worker", 1, "Failed", 0, 0);
    assertThat(decide(family("OnFailure", 2), byName(ME_DONE, failedAfterSuccess), ME_DONE))
        .isEqualTo(Verdict.UNDECIDED);
  }
}
