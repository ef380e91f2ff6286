package dev.jobc.sidecar.replicas;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jobc.conventions.ReplicaLabels;
import dev.jobc.sidecar.replicas.ReplicaOutcome.Decision;
import dev.jobc.sidecar.replicas.ReplicaOutcome.Rules;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The family's outcome without an API, as training-operator v1.9.0 decides it: {@code
 * UpdateJobStatus} of each kind (the deciding type's replicas succeed: all of them, or the first
 * under PyTorchJob's elastic policy), {@code IsRetryableExitCode} (pkg/util/train/train_util.go:
 * 128 and above are retried under {@code ExitCode}) and the Job controller's limits
 * (kubernetes/kubernetes pkg/controller/job/job_controller.go: under {@code OnFailure} restarts
 * reaching {@code backoffLimit}, {@code pastBackoffLimitOnFailure}; pods never restarted, more
 * failed pods than {@code backoffLimit}).
 */
class ReplicaOutcomeTest {
  private static final Map<String, String> OTHERS =
      ordered("j-master-0", "master", "j-worker-1", "worker", "j-ps-0", "ps");

  /** Worker 0 of job {@code j}, deciding with the other worker; ps tolerated unless stated. */
  private static ReplicaOutcome outcome(
      String workerPolicy,
      int backoffLimit,
      boolean any,
      boolean podCarrier,
      Set<String> tolerated) {
    return new ReplicaOutcome(
        new Rules(
            "j",
            "j-worker-0",
            "main",
            Map.of("master", "Never", "worker", workerPolicy, "ps", "OnFailure"),
            backoffLimit,
            "worker",
            any,
            podCarrier,
            OTHERS,
            tolerated));
  }

  private static ReplicaOutcome outcome(String workerPolicy, int backoffLimit) {
    return outcome(workerPolicy, backoffLimit, false, false, Set.of());
  }

  private static Map<String, String> ordered(String... kv) {
    Map<String, String> out = new LinkedHashMap<>();
    for (int i = 0; i < kv.length; i += 2) {
      out.put(kv[i], kv[i + 1]);
    }
    return out;
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
    assertThat(outcome("Never", 0).decide(pods, ME_DONE)).isNull();
    assertThat(outcome("Never", 0, true, false, Set.of()).decide(pods, ME_DONE))
        .isEqualTo(new Decision(true, null, 0));

    Pod otherDone = pod("j-worker-1-a", "worker", 1, "Running", 0, 0);
    assertThat(outcome("Never", 0).decide(byName(ME_DONE, otherDone), ME_DONE))
        .isEqualTo(new Decision(true, null, 0));
    Pod otherSucceeded = pod("j-worker-1-a", "worker", 1, "Succeeded", null, 0);
    assertThat(outcome("Never", 0).decide(byName(ME_DONE, otherSucceeded), ME_DONE))
        .isEqualTo(new Decision(true, null, 0));
  }

  @Test
  void nothingIsDecidedWhileThisReplicaRunsOrIsUnseen() {
    Pod otherDone = pod("j-worker-1-a", "worker", 1, "Succeeded", 0, 0);
    assertThat(outcome("Never", 0).decide(byName(ME_RUNNING, otherDone), ME_RUNNING)).isNull();
    assertThat(outcome("Never", 0).decide(byName(otherDone), null)).isNull();
    Pod meKilled = pod("j-worker-0-a", "worker", 0, "Running", 137, 0);
    assertThat(outcome("ExitCode", 3).decide(byName(meKilled, otherDone), meKilled)).isNull();
  }

  @Test
  void underNeverAnyFailedAttemptFailsTheJob() {
    Pod meFailed = pod("j-worker-0-a", "worker", 0, "Running", 137, 0);
    assertThat(outcome("Never", 5).decide(byName(meFailed), meFailed))
        .isEqualTo(new Decision(false, "worker", 1));
    Pod masterFailed = pod("j-master-0-a", "master", 0, "Failed", 2, 0);
    assertThat(outcome("Never", 5).decide(byName(ME_RUNNING, masterFailed), ME_RUNNING))
        .isEqualTo(new Decision(false, "master", 1));
    // A replica with no failed attempt has not failed, whatever its policy.
    Pod masterRunning = pod("j-master-0-a", "master", 0, "Running", null, 0);
    assertThat(outcome("Never", 5).decide(byName(ME_RUNNING, masterRunning), ME_RUNNING)).isNull();
  }

  @Test
  void underExitCodeOnlyExitCodesBelow128AreFinal() {
    for (int code : new int[] {1, 127}) {
      Pod me = pod("j-worker-0-a", "worker", 0, "Running", code, 0);
      assertThat(outcome("ExitCode", 3).decide(byName(me), me))
          .as("own exit code %d", code)
          .isEqualTo(new Decision(false, "worker", 1));
      Pod other = pod("j-worker-1-a", "worker", 1, "Failed", code, 0);
      assertThat(outcome("ExitCode", 3).decide(byName(ME_RUNNING, other), ME_RUNNING))
          .as("other's exit code %d", code)
          .isEqualTo(new Decision(false, "worker", 1));
    }
    for (int code : new int[] {128, 137, 255}) {
      Pod me = pod("j-worker-0-a", "worker", 0, "Running", code, 0);
      assertThat(outcome("ExitCode", 3).decide(byName(me), me)).as("own %d", code).isNull();
      Pod other = pod("j-worker-1-a", "worker", 1, "Failed", code, 0);
      assertThat(outcome("ExitCode", 3).decide(byName(ME_RUNNING, other), ME_RUNNING))
          .as("other's %d", code)
          .isNull();
    }
  }

  @Test
  void aFailedPodWithNoExitCodeIsRetriedUnderExitCode() {
    // Evicted, say: common/pod.go ReconcilePods starts from exit code 0xbeef, which is retryable.
    Pod evicted = pod("j-worker-1-a", "worker", 1, "Failed", null, 0);
    assertThat(outcome("ExitCode", 3).decide(byName(ME_RUNNING, evicted), ME_RUNNING)).isNull();
    assertThat(outcome("Never", 3).decide(byName(ME_RUNNING, evicted), ME_RUNNING))
        .isEqualTo(new Decision(false, "worker", 1));
  }

  @Test
  void aBarePodUnderExitCodeFailsForGoodOnAnyFailure() {
    Pod me = pod("j-worker-0-a", "worker", 0, "Running", 137, 0);
    assertThat(outcome("ExitCode", 3, false, true, Set.of()).decide(byName(me), me))
        .isEqualTo(new Decision(false, "worker", 1));
  }

  @Test
  void retriedFailuresPastTheBackoffLimitFailTheJob() {
    // OnFailure: the kubelet restarts the container; restarts reaching the limit fail the job
    // (pastBackoffLimitOnFailure: result >= backoffLimit), as the Job controller then deletes
    // the pod and the sidecar would never see a later restart.
    Pod psRestarted = pod("j-ps-0-a", "ps", 0, "Running", null, 1);
    ReplicaOutcome limit2 = outcome("ExitCode", 2, false, false, Set.of());
    assertThat(limit2.decide(byName(ME_RUNNING, psRestarted), ME_RUNNING)).isNull();
    Pod psRestarted2 = pod("j-ps-0-a", "ps", 0, "Running", null, 2);
    assertThat(limit2.decide(byName(ME_RUNNING, psRestarted2), ME_RUNNING))
        .isEqualTo(new Decision(false, "ps", 1));
    // A limit of 0: the first restart fails the job.
    Pod psRestartedOnce = pod("j-ps-0-a", "ps", 0, "Running", null, 1);
    assertThat(
            outcome("ExitCode", 0, false, false, Set.of())
                .decide(byName(ME_RUNNING, psRestartedOnce), ME_RUNNING))
        .isEqualTo(new Decision(false, "ps", 1));
    // This replica under OnFailure: its own failed attempt counts with its restarts, so its
    // second failure reaches a limit of 2 (restartCount 2 once the kubelet restarts it).
    Pod meFirstFailure = pod("j-worker-0-a", "worker", 0, "Running", 1, 0);
    assertThat(outcome("OnFailure", 2).decide(byName(meFirstFailure), meFirstFailure)).isNull();
    Pod meSecondOnFailure = pod("j-worker-0-a", "worker", 0, "Running", 1, 1);
    assertThat(outcome("OnFailure", 2).decide(byName(meSecondOnFailure), meSecondOnFailure))
        .isEqualTo(new Decision(false, "worker", 1));

    // ExitCode: retryable failures of this replica, its own attempt and restarts counted.
    Pod meSecondFailure = pod("j-worker-0-a", "worker", 0, "Running", 137, 1);
    assertThat(outcome("ExitCode", 2).decide(byName(meSecondFailure), meSecondFailure)).isNull();
    Pod meThirdFailure = pod("j-worker-0-a", "worker", 0, "Running", 137, 2);
    assertThat(outcome("ExitCode", 2).decide(byName(meThirdFailure), meThirdFailure))
        .isEqualTo(new Decision(false, "worker", 1));
    // Earlier pods of this replica (replaced by the Job controller) count too, this pod once.
    Pod earlier = pod("j-worker-0-b", "worker", 0, "Failed", 137, 0);
    Pod meAsFailed = pod("j-worker-0-a", "worker", 0, "Failed", 137, 0);
    assertThat(outcome("ExitCode", 2).decide(byName(earlier, meAsFailed), meAsFailed)).isNull();
    Pod earlier2 = pod("j-worker-0-c", "worker", 0, "Failed", 137, 0);
    assertThat(outcome("ExitCode", 2).decide(byName(earlier, earlier2, meAsFailed), meAsFailed))
        .isEqualTo(new Decision(false, "worker", 1));
  }

  @Test
  void toleratedTypesNeverFailTheJobAndOneTypeIsCounted() {
    Pod psFailed = pod("j-ps-0-a", "ps", 0, "Failed", 1, 5);
    ReplicaOutcome toleratingPs = outcome("Never", 0, false, false, Set.of("ps"));
    assertThat(toleratingPs.decide(byName(ME_RUNNING, psFailed), ME_RUNNING)).isNull();

    Pod meFailed = pod("j-worker-0-a", "worker", 0, "Running", 1, 0);
    Pod otherFailed = pod("j-worker-1-a", "worker", 1, "Failed", 1, 0);
    Pod masterFailed = pod("j-master-0-a", "master", 0, "Failed", 1, 0);
    assertThat(outcome("Never", 0).decide(byName(meFailed, otherFailed, masterFailed), meFailed))
        .isEqualTo(new Decision(false, "worker", 2));
    assertThat(
            outcome("Never", 0).decide(byName(ME_RUNNING, masterFailed, otherFailed), ME_RUNNING))
        .isEqualTo(new Decision(false, "master", 1));
  }

  @Test
  void podsAreGroupedByTheOperatorsLabelsOnly() {
    Pod unlabelled =
        new PodBuilder(pod("j-worker-1-a", "worker", 1, "Failed", 1, 0))
            .editMetadata()
            .withLabels(Map.of())
            .endMetadata()
            .build();
    assertThat(outcome("Never", 0).decide(byName(ME_RUNNING, unlabelled), ME_RUNNING)).isNull();
    assertThat(outcome("Never", 0).byReplica(byName(ME_RUNNING, unlabelled)))
        .containsOnlyKeys("j-worker-0");
  }

  @Test
  void theOwnTypeIsWhatLiesBetweenTheJobAndTheIndex() {
    Rules rules =
        new Rules(
            "my-job",
            "my-job-ps-worker-12",
            "main",
            Map.of(),
            0,
            "x",
            false,
            false,
            Map.of(),
            Set.of());
    assertThat(rules.selfType()).isEqualTo("ps-worker");
  }

  private static Rules rulesOf(String self, String deciding) {
    return new Rules(
        "my-job", self, "main", Map.of(), 0, deciding, false, false, Map.of(), Set.of());
  }

  @Test
  void theOwnIndexIsWhatFollowsTheType() {
    assertThat(rulesOf("my-job-worker-12", "worker").selfIndex()).isEqualTo(12);
    assertThat(rulesOf("my-job-worker-0", "worker").selfIndex()).isZero();
    assertThat(rulesOf("my-job-worker-x", "worker").selfIndex()).isEqualTo(-1);
  }

  /** Replica 0 of the deciding type alone watches the whole job; the others their own pods. */
  @Test
  void onlyReplicaZeroOfTheDecidingTypeWatchesAll() {
    assertThat(rulesOf("my-job-worker-0", "worker").watchesAll()).isTrue();
    assertThat(rulesOf("my-job-worker-1", "worker").watchesAll()).isFalse();
    assertThat(rulesOf("my-job-master-0", "worker").watchesAll()).isFalse();
    assertThat(rulesOf("my-job-master-0", "master").watchesAll()).isTrue();
  }
}
