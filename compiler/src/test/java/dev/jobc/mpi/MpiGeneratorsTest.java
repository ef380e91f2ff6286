package dev.jobc.mpi;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jobc.k8s.GangScheduling;
import dev.jobc.load.YamlLimits;
import dev.jobc.load.YamlLoader;
import dev.jobc.model.Source;
import dev.jobc.options.CompileOptions;
import dev.jobc.options.OptionTable;
import dev.jobc.render.Templates;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The MPIJob generators, one decision at a time, from plans made by the real planner. */
class MpiGeneratorsTest {
  private static final MpiJobKind KIND = new MpiJobKind(new Templates());

  private static final String PI =
      """
      apiVersion: kubeflow.org/v2beta1
      kind: MPIJob
      metadata:
        name: pi
        namespace: ml
      spec:
        slotsPerWorker: 2
        runPolicy:
          backoffLimit: 3
        mpiReplicaSpecs:
          Launcher:
            replicas: 1
            template:
              spec:
                containers:
                - name: launcher
                  image: example.com/pi:1
                  command: [mpirun]
                  env:
                  - name: USER_FIRST
                    value: "1"
          Worker:
            replicas: 2
            template:
              spec:
                containers:
                - name: worker
                  image: example.com/pi:1
      """;

  @Test
  void launcherAppendsTheMpiEnvironmentAfterTheUsersAndRunsTheSidecarFirst() {
    Job job = new LauncherJobGenerator().generate(plan(PI, CompileOptions.defaults()));
    var pod = job.getSpec().getTemplate().getSpec();
    Container main = pod.getContainers().get(0);
    List<String> env = main.getEnv().stream().map(EnvVar::getName).toList();
    assertThat(env.get(0)).isEqualTo("USER_FIRST");
    assertThat(env).contains("K_MPI_JOB_ROLE", "OMPI_MCA_orte_default_hostfile");
    assertThat(pod.getInitContainers().stream().map(Container::getName).toList())
        .containsExactly("jobc-sidecar", "kubectl-delivery");
    assertThat(pod.getServiceAccountName()).isEqualTo("pi-launcher");
    assertThat(pod.getHostname()).isEqualTo("pi-launcher");
    assertThat(pod.getSubdomain()).isEqualTo("pi");
    assertThat(job.getSpec().getBackoffLimit()).isEqualTo(3);
    assertThat(job.getSpec().getPodReplacementPolicy()).isEqualTo("Failed");
    Volume config =
        pod.getVolumes().stream().filter(v -> v.getConfigMap() != null).findFirst().orElseThrow();
    assertThat(config.getConfigMap().getName()).isEqualTo("pi-config");
    assertThat(config.getConfigMap().getItems())
        .extracting(i -> i.getKey() + ":" + Integer.toOctalString(i.getMode()))
        .containsExactly("kubexec.sh:555", "hostfile:444", "discover_hosts.sh:555");
  }

  @Test
  void workersSleepOnlyWhenTheTemplateHasNoCommandAndSshRunsSshd() {
    PodTemplateSpec kubexec = WorkerTemplates.build(plan(PI, CompileOptions.defaults()), "Always");
    assertThat(kubexec.getSpec().getContainers().get(0).getCommand()).containsExactly("sleep");
    assertThat(kubexec.getSpec().getContainers().get(0).getArgs()).containsExactly("365d");

    PodTemplateSpec ssh =
        WorkerTemplates.build(
            plan(PI, CompileOptions.defaults().with(OptionTable.SSH_SECRET, "keys")), "Always");
    assertThat(ssh.getSpec().getContainers().get(0).getCommand()).containsExactly("/usr/sbin/sshd");
    assertThat(ssh.getSpec().getVolumes())
        .anySatisfy(v -> assertThat(v.getSecret().getSecretName()).isEqualTo("keys"));

    int at = PI.indexOf("- name: worker");
    String fields = " ".repeat(at - PI.lastIndexOf('\n', at) - 1 + 2);
    String ownCommand =
        PI.replace("- name: worker\n", "- name: worker\n" + fields + "command: [serve]\n");
    PodTemplateSpec own =
        WorkerTemplates.build(plan(ownCommand, CompileOptions.defaults()), "Always");
    assertThat(own.getSpec().getContainers().get(0).getCommand()).containsExactly("serve");
    assertThat(own.getSpec().getContainers().get(0).getArgs()).isNullOrEmpty();
  }

  /**
   * Under kubexec a worker that starts sshd, in command or args, directly or through a shell,
   * sleeps instead, and loses its probes on a port; a file merely named like sshd does not count,
   * and the ssh transport keeps sshd.
   */
  @Test
  void workersThatStartSshdSleepUnderKubexecWithoutTheirPortProbes() {
    int at = PI.indexOf("- name: worker");
    String fields = " ".repeat(at - PI.lastIndexOf('\n', at) - 1 + 2);
    for (String start :
        List.of(
            "args: [/usr/sbin/sshd, -De, -f, /home/mpiuser/.sshd_config]",
            "command: [/entrypoint.sh]\n" + fields + "args: [sshd, -De]",
            "command: [sh, -c, 'ulimit -n 1024; exec /usr/sbin/sshd -De']")) {
      String yaml =
          PI.replace(
              "- name: worker\n",
              "- name: worker\n"
                  + fields
                  + start
                  + "\n"
                  + fields
                  + "readinessProbe: {tcpSocket: {port: 2222}}\n"
                  + fields
                  + "livenessProbe: {exec: {command: [true]}}\n");
      Container kubexec =
          WorkerTemplates.build(plan(yaml, CompileOptions.defaults()), "Always")
              .getSpec()
              .getContainers()
              .get(0);
      assertThat(kubexec.getCommand()).as(start).containsExactly("sleep");
      assertThat(kubexec.getArgs()).as(start).containsExactly("365d");
      assertThat(kubexec.getReadinessProbe()).as("a probe on sshd's port").isNull();
      assertThat(kubexec.getLivenessProbe().getExec().getCommand())
          .as("an exec probe can still pass")
          .containsExactly("true");
      assertThat(kubexec.getLivenessProbe().getTcpSocket()).isNull();

      Container ssh =
          WorkerTemplates.build(
                  plan(yaml, CompileOptions.defaults().with(OptionTable.SSH_SECRET, "keys")),
                  "Always")
              .getSpec()
              .getContainers()
              .get(0);
      assertThat(ssh.getReadinessProbe().getTcpSocket().getPort().getIntVal())
          .as("ssh keeps sshd and its probe")
          .isEqualTo(2222);
      assertThat(ssh.getLivenessProbe().getExec().getCommand()).containsExactly("true");
    }
    String config =
        PI.replace(
            "- name: worker\n",
            "- name: worker\n" + fields + "args: [serve, --config, /etc/sshd_config.d/x]\n");
    assertThat(
            WorkerTemplates.build(plan(config, CompileOptions.defaults()), "Always")
                .getSpec()
                .getContainers()
                .get(0)
                .getArgs())
        .containsExactly("serve", "--config", "/etc/sshd_config.d/x");
  }

  @Test
  void theWorkerSearchPathUsesTheClusterDomainOption() {
    PodTemplateSpec plain = WorkerTemplates.build(plan(PI, CompileOptions.defaults()), "Always");
    assertThat(plain.getSpec().getDnsConfig().getSearches())
        .containsExactly("pi.ml.svc.cluster.local");
    PodTemplateSpec custom =
        WorkerTemplates.build(
            plan(PI, CompileOptions.defaults().with(OptionTable.CLUSTER_DOMAIN, "corp.example")),
            "Always");
    assertThat(custom.getSpec().getDnsConfig().getSearches())
        .containsExactly("pi.ml.svc.corp.example");
  }

  @Test
  void gangSchedulingMarksEveryPodTheGeneratorsBuild() {
    MpiJobPlan plan =
        plan(PI, CompileOptions.defaults().with(OptionTable.GANG_SCHEDULER, "volcano"));
    assertThat(plan.gang().schedulerName()).isEqualTo("volcano");
    var launcher = new LauncherJobGenerator().generate(plan).getSpec().getTemplate();
    var worker = new WorkerStatefulSetGenerator().generate(plan).getSpec().getTemplate();
    for (PodTemplateSpec t : List.of(launcher, worker)) {
      assertThat(t.getSpec().getSchedulerName()).isEqualTo("volcano");
      assertThat(t.getMetadata().getAnnotations())
          .containsEntry(GangScheduling.VOLCANO_GROUP_ANNOTATION, "pi");
    }
    JsonNode group =
        dev.jobc.bind.ObjectTrees.tree(
            GangScheduling.podGroup(plan.gang(), plan.name(), plan.namespace(), plan.options()));
    assertThat(group.path("spec").path("minMember").asInt()).isEqualTo(3);
    assertThat(
            WorkerTemplates.build(plan(PI, CompileOptions.defaults()), "Always")
                .getSpec()
                .getSchedulerName())
        .isNull();
  }

  @Test
  void barePodsCountFromOneWhenTheLauncherAlsoRunsRanks() {
    String both =
        PI.replace("  slotsPerWorker: 2\n", "  slotsPerWorker: 2\n  runLauncherAsWorker: true\n");
    List<Pod> pods =
        new WorkerPodsGenerator()
            .generate(
                plan(
                    both,
                    CompileOptions.defaults()
                        .with(OptionTable.WORKERS, dev.jobc.options.WorkerKind.PODS)));
    assertThat(pods)
        .extracting(
            p ->
                p.getMetadata().getName()
                    + "="
                    + p.getMetadata().getLabels().get("training.kubeflow.org/replica-index"))
        .containsExactly("pi-worker-0=1", "pi-worker-1=2");
    assertThat(pods).allSatisfy(p -> assertThat(p.getSpec().getSubdomain()).isEqualTo("pi"));
  }

  /**
   * The sidecar's live discover_hosts.sh starts with its {@code --launcher-host} line, the static
   * one with its first echo: both name the launcher alike, in the era's format, and only a launcher
   * that runs ranks (v2beta1 runLauncherAsWorker, a v1 launcher with a GPU) is listed. v1 bare
   * worker Pods still count from 0 and the v1 launcher gets no replica-index label.
   */
  @Test
  void aLauncherThatRunsRanksIsListedAlikeInTheStaticAndTheLiveScript() {
    String v1Gpu =
        PI.replace("kubeflow.org/v2beta1", "kubeflow.org/v1")
            .replace(
                "            command: [mpirun]\n",
                "            command: [mpirun]\n"
                    + "            resources:\n              limits: {nvidia.com/gpu: 1}\n");
    String asWorker =
        PI.replace("  slotsPerWorker: 2\n", "  slotsPerWorker: 2\n  runLauncherAsWorker: true\n");
    for (var c :
        List.of(
            List.of(v1Gpu, "pi-launcher:2", "pi-launcher slots=2"),
            List.of(asWorker, "pi-launcher.pi.ml.svc", "pi-launcher.pi.ml.svc slots=2"))) {
      MpiJobPlan plan = plan(c.get(0), CompileOptions.defaults());
      var data = new MpiConfigMapGenerator(new Templates()).generate(plan).getData();
      assertThat(data.get("discover_hosts.sh").split("\n")[1]).isEqualTo("echo " + c.get(1));
      assertThat(data.get("hostfile").split("\n")[0]).isEqualTo(c.get(2));
      List<String> args = SidecarContainers.mpiRun(plan, "launcher").getArgs();
      assertThat(args.get(args.indexOf("--launcher-host") + 1)).isEqualTo(c.get(1));
    }
    // The same GPU launcher under v1alpha2, or a v1 launcher without a GPU: not listed.
    for (String yaml :
        List.of(
            v1Gpu.replace("kubeflow.org/v1", "kubeflow.org/v1alpha2"),
            PI.replace("v2beta1", "v1"))) {
      MpiJobPlan plan = plan(yaml, CompileOptions.defaults());
      assertThat(
              new MpiConfigMapGenerator(new Templates()).generate(plan).getData().get("hostfile"))
          .doesNotContain("launcher");
      assertThat(SidecarContainers.mpiRun(plan, "launcher").getArgs())
          .doesNotContain("--launcher-host");
    }
    MpiJobPlan v1 =
        plan(
            v1Gpu,
            CompileOptions.defaults().with(OptionTable.WORKERS, dev.jobc.options.WorkerKind.PODS));
    assertThat(new WorkerPodsGenerator().generate(v1))
        .extracting(p -> p.getMetadata().getLabels().get("training.kubeflow.org/replica-index"))
        .containsExactly("0", "1");
    assertThat(
            new LauncherJobGenerator()
                .generate(v1)
                .getSpec()
                .getTemplate()
                .getMetadata()
                .getLabels())
        .doesNotContainKey("training.kubeflow.org/replica-index");
  }

  static MpiJobPlan plan(String yaml, CompileOptions options) {
    JsonNode root =
        new YamlLoader(YamlLimits.defaults())
            .load(new Source("job.yaml", yaml))
            .documents()
            .get(0)
            .root();
    MpiJobModel model = KIND.defaults(KIND.bind(root), options);
    assertThat(KIND.validate(model)).noneMatch(f -> f.isError());
    return KIND.plan(model);
  }
}
