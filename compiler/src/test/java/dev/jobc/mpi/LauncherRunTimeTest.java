package dev.jobc.mpi;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jobc.k8s.SidecarContainer;
import dev.jobc.options.CompileOptions;
import dev.jobc.options.OptionTable;
import dev.jobc.options.RenderDefaults;
import dev.jobc.options.WorkerKind;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Probe;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * How the launcher's run-time parts behave under Kubernetes' rules: the gate, the init order, the
 * sidecar's size, the scaler.
 */
class LauncherRunTimeTest {
  private static final String JOB =
      """
      apiVersion: kubeflow.org/v2beta1
      kind: MPIJob
      metadata: {name: pi, namespace: team}
      spec:
        runPolicy: {backoffLimit: 0, cleanPodPolicy: Running}
        mpiReplicaSpecs:
          Launcher:
            replicas: 1
            template:
              spec:
                initContainers: [{name: fetch, image: busybox, command: ["true"]}]
                nodeSelector: {pool: cpu}
                tolerations: [{key: dedicated, operator: Exists}]
                containers: [{name: launcher, image: pi, command: [mpirun]}]
          Worker:
            replicas: %d
            template:
              spec:
                containers: [{name: worker, image: pi}]
      """;

  private static Job launcher(int workers) {
    return new LauncherJobGenerator()
        .generate(MpiGeneratorsTest.plan(JOB.formatted(workers), CompileOptions.defaults()));
  }

  private static Container sidecar(Job launcher) {
    return launcher.getSpec().getTemplate().getSpec().getInitContainers().get(0);
  }

  /**
   * kubelet restarts a sidecar whose startup probe gives up, and the Job controller counts every
   * container restart of an OnFailure launcher against backoffLimit ({@code
   * pastBackoffLimitOnFailure}: with backoffLimit 0, one restart fails the Job). So the wait for
   * the workers must outlast any job: it gave up after an hour, failing jobs whose workers took
   * longer to come up.
   */
  @Test
  void theGateWaitsForTheWorkersWithoutSpendingARetry() {
    Job job = launcher(2);
    assertThat(job.getSpec().getBackoffLimit()).isZero();
    assertThat(job.getSpec().getTemplate().getSpec().getRestartPolicy()).isEqualTo("OnFailure");
    Probe probe = sidecar(job).getStartupProbe();
    Duration untilKubeletGivesUp =
        Duration.ofSeconds((long) probe.getPeriodSeconds() * probe.getFailureThreshold());
    assertThat(untilKubeletGivesUp).isGreaterThan(Duration.ofDays(100 * 365));
    assertThat(sidecar(job).getLivenessProbe()).isNull();
  }

  /**
   * The sidecar runs from the pod's start, before every other init container (kubectl-delivery and
   * the user's), so that any end of the pod reaches it, also one while a later init container is
   * stuck pulling its image or running.
   */
  @Test
  void theSidecarIsTheFirstInitContainer() {
    PodSpec pod = launcher(2).getSpec().getTemplate().getSpec();
    assertThat(pod.getInitContainers())
        .extracting(Container::getName)
        .containsExactly("jobc-sidecar", "fetch", "kubectl-delivery");
    assertThat(pod.getInitContainers().get(0).getRestartPolicy()).isEqualTo("Always");
  }

  /** Heap and memory follow the pods the sidecar watches: the launcher and every worker. */
  @Test
  void theSidecarIsSizedForTheJob() {
    assertThat(SidecarContainer.heapMiB(RenderDefaults.CURRENT, 3)).isEqualTo(16);
    assertThat(SidecarContainer.heapMiB(RenderDefaults.CURRENT, 1024)).isEqualTo(16);
    assertThat(SidecarContainer.heapMiB(RenderDefaults.CURRENT, 1025)).isEqualTo(17);
    assertThat(SidecarContainer.heapMiB(RenderDefaults.CURRENT, 5001)).isEqualTo(48);
    assertThat(SidecarContainer.memoryMiB(RenderDefaults.CURRENT, 5001)).isEqualTo(112);
    Container small = sidecar(launcher(2));
    assertThat(env(small)).contains(" -Xmx16m ");
    assertThat(small.getResources().getLimits().get("memory")).isEqualTo(new Quantity("80Mi"));
    Container large = sidecar(launcher(5000));
    assertThat(env(large)).contains(" -Xmx48m ");
    assertThat(large.getResources().getLimits().get("memory")).isEqualTo(new Quantity("112Mi"));
    assertThat(large.getResources().getRequests()).isEqualTo(large.getResources().getLimits());
    assertThat(large.getArgs()).containsSubsequence("--max-workers", "5000");
  }

  private static String env(Container c) {
    return c.getEnv().stream()
            .filter(e -> e.getName().equals("JAVA_TOOL_OPTIONS"))
            .findFirst()
            .orElseThrow()
            .getValue()
        + " ";
  }

  /**
   * The scaler follows the launcher Job from a pod of its own, as the launcher's ServiceAccount,
   * wherever the launcher may be scheduled.
   */
  @Test
  void theScalerRunsAsTheLauncherWhereTheLauncherMayRun() {
    MpiJobPlan plan = MpiGeneratorsTest.plan(JOB.formatted(2), CompileOptions.defaults());
    assertThat(WorkerScalerJobGenerator.needed(plan)).isTrue();
    Job scaler = new WorkerScalerJobGenerator().generate(plan);
    assertThat(scaler.getMetadata().getName()).isEqualTo("pi-scaler");
    PodSpec pod = scaler.getSpec().getTemplate().getSpec();
    assertThat(pod.getServiceAccountName()).isEqualTo("pi-launcher");
    assertThat(pod.getAutomountServiceAccountToken()).isFalse();
    assertThat(pod.getNodeSelector()).containsEntry("pool", "cpu");
    assertThat(pod.getTolerations()).hasSize(1);
    assertThat(pod.getContainers().get(0).getArgs())
        .containsExactly(
            "scale-workers",
            "--launcher-job",
            "pi-launcher",
            "--worker-set",
            "pi-worker",
            "--worker-replicas",
            "2",
            "--clean-pod-policy",
            "Running");
    assertThat(scaler.getSpec().getBackoffLimit()).isEqualTo(Integer.MAX_VALUE);
  }

  /** No workers, or bare worker pods that cleanPodPolicy None keeps: nothing to scale. */
  @Test
  void noScalerWhereThereIsNothingToDo() {
    String launcherOnly = JOB.substring(0, JOB.indexOf("    Worker:"));
    assertThat(
            WorkerScalerJobGenerator.needed(
                MpiGeneratorsTest.plan(launcherOnly, CompileOptions.defaults())))
        .isFalse();
    assertThat(
            WorkerScalerJobGenerator.needed(
                MpiGeneratorsTest.plan(
                    JOB.formatted(2).replace("Running", "None"),
                    CompileOptions.defaults().with(OptionTable.WORKERS, WorkerKind.PODS))))
        .isFalse();
  }
}
