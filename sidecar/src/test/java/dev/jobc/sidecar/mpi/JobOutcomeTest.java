package dev.jobc.sidecar.mpi;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jobc.sidecar.ApiStandIn;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import org.junit.jupiter.api.Test;

/**
 * The launcher's end as the Job controller will count it ({@code syncJob}: a pod that ends Failed
 * adds to {@code status.failed}, the Job fails once that exceeds {@code backoffLimit}; under {@code
 * OnFailure} also once its running pod's restarts reach it).
 */
class JobOutcomeTest {
  static final String MAIN = "mpi-launcher";

  private static Job job(int backoffLimit, int failed) {
    return ApiStandIn.launcherJob("pi", backoffLimit, failed, false, null);
  }

  /** A launcher pod with {@code policy}, its main container running, restarted {@code restarts}. */
  private static Pod pod(String policy, int restarts, boolean deleting) {
    PodBuilder b =
        new PodBuilder(ApiStandIn.launcher("pi"))
            .editSpec()
            .withRestartPolicy(policy)
            .endSpec()
            .editStatus()
            .withPhase("Running")
            .addToContainerStatuses(
                new ContainerStatusBuilder()
                    .withName(MAIN)
                    .withRestartCount(restarts)
                    .withNewState()
                    .withNewRunning()
                    .endRunning()
                    .endState()
                    .build())
            .endStatus();
    if (deleting) {
      b.editMetadata().withDeletionTimestamp("2026-11-26T08:00:00Z").endMetadata();
    }
    return b.build();
  }

  @Test
  void anOnFailureLauncherDeletedOrEvictedOnItsLastRetryIsFinal() {
    JobOutcome o = JobOutcome.of(job(2, 2), false, pod("OnFailure", 0, true), false, MAIN);
    assertThat(o.kind()).isEqualTo(JobOutcome.Kind.FAILED);
    assertThat(o.description())
        .isEqualTo("launcher pod deleted or evicted, failure 3 of backoffLimit 2: no retry left");
  }

  @Test
  void anOnFailureLauncherDeletedWithRetriesLeftKeepsTheWorkers() {
    JobOutcome o = JobOutcome.of(job(2, 1), false, pod("OnFailure", 0, true), false, MAIN);
    assertThat(o.kind()).isEqualTo(JobOutcome.Kind.UNDECIDED);
    assertThat(o.description())
        .isEqualTo("launcher pod deleted or evicted, failure 2 of backoffLimit 2: the Job retries");
  }

  @Test
  void backoffLimitZeroMakesAnyEndOfAnOnFailureLauncherFinal() {
    assertThat(JobOutcome.of(job(0, 0), false, pod("OnFailure", 0, true), false, MAIN).kind())
        .isEqualTo(JobOutcome.Kind.FAILED);
  }

  /** pastBackoffLimitOnFailure: the restarts of the running pod, init and sidecars' included. */
  @Test
  void restartsThatReachBackoffLimitAreFinalWhenThePodIsDeleted() {
    Pod p = pod("OnFailure", 4, true);
    p.getStatus()
        .getInitContainerStatuses()
        .add(new ContainerStatusBuilder().withName("jobc-sidecar").withRestartCount(2).build());
    JobOutcome o = JobOutcome.of(job(6, 0), false, p, false, MAIN);
    assertThat(o.kind()).isEqualTo(JobOutcome.Kind.FAILED);
    assertThat(o.description())
        .isEqualTo(
            "launcher pod deleted or evicted, 6 restart(s) of backoffLimit 6: no retry left");
  }

  /** A sidecar stopped while its pod runs on (a restart of the container alone) decides nothing. */
  @Test
  void aRunningLauncherThatIsNotBeingDeletedIsUndecided() {
    for (String policy : new String[] {"OnFailure", "Never"}) {
      JobOutcome o = JobOutcome.of(job(0, 0), false, pod(policy, 0, false), false, MAIN);
      assertThat(o.kind()).as(policy).isEqualTo(JobOutcome.Kind.UNDECIDED);
      assertThat(o.description()).isEqualTo("launcher not ended");
    }
  }

  /** Force-deleted: the read finds no pod; its restart policy comes from the Job's template. */
  @Test
  void aLauncherPodThatIsGoneCountsAsAFailure() {
    Job j = job(1, 1);
    j.getSpec().setTemplate(new io.fabric8.kubernetes.api.model.PodTemplateSpec());
    j.getSpec().getTemplate().setSpec(new io.fabric8.kubernetes.api.model.PodSpec());
    j.getSpec().getTemplate().getSpec().setRestartPolicy("OnFailure");
    JobOutcome o = JobOutcome.of(j, false, null, true, MAIN);
    assertThat(o.kind()).isEqualTo(JobOutcome.Kind.FAILED);
    assertThat(o.description())
        .isEqualTo("launcher pod gone, failure 2 of backoffLimit 1: no retry left");
  }

  @Test
  void aJobThatIsGoneEndsTheRun() {
    JobOutcome o = JobOutcome.of(null, true, pod("OnFailure", 0, true), false, MAIN);
    assertThat(o.kind()).isEqualTo(JobOutcome.Kind.FAILED);
    assertThat(o.description()).isEqualTo("launcher Job deleted");
  }

  @Test
  void aJobThatCouldNotBeReadDecidesNothingForAFailedLauncher() {
    JobOutcome o = JobOutcome.of(null, false, pod("OnFailure", 0, true), false, MAIN);
    assertThat(o.kind()).isEqualTo(JobOutcome.Kind.UNDECIDED);
  }
}
