package dev.jobc.dgl;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jobc.load.YamlLimits;
import dev.jobc.load.YamlLoader;
import dev.jobc.model.Source;
import dev.jobc.options.CompileOptions;
import dev.jobc.options.OptionTable;
import dev.jobc.options.WorkerKind;
import dev.jobc.render.Templates;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.rbac.Role;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The DGLJob generators, one decision at a time, from plans made by the real planner. */
class DglGeneratorsTest {
  private static final DglJobKind KIND = new DglJobKind(new Templates());

  private static final String JOB =
      """
      apiVersion: qihoo.net/v1alpha1
      kind: DGLJob
      metadata:
        name: graph
        namespace: ml
      spec:
        partitionMode: DGL-API
        dglReplicaSpecs:
          Launcher:
            template:
              spec:
                containers:
                - name: dgl
                  image: example.com/dgl:1
                  command: [dglrun]
          Worker:
            replicas: 2
            template:
              spec:
                containers:
                - name: dgl
                  image: example.com/dgl:1
                  resources:
                    limits:
                      memory: 4Gi
      """;

  @Test
  void workersGetSharedMemoryOfHalfTheirMemoryLimitAndTheOperatorsPorts() {
    StatefulSet set =
        (StatefulSet) new DglWorkerGenerator().generate(plan(CompileOptions.defaults())).get(0);
    var pod = set.getSpec().getTemplate().getSpec();
    Volume shm =
        pod.getVolumes().stream()
            .filter(v -> v.getEmptyDir() != null && "Memory".equals(v.getEmptyDir().getMedium()))
            .filter(v -> v.getEmptyDir().getSizeLimit() != null)
            .findFirst()
            .orElseThrow();
    assertThat(shm.getEmptyDir().getSizeLimit().toString()).isEqualTo("2Gi");
    assertThat(pod.getContainers().get(0).getPorts()).hasSize(20);
    assertThat(set.getSpec().getTemplate().getSpec().getRestartPolicy()).isEqualTo("Always");
  }

  /**
   * dgl-operator creates the workers once partitioning has succeeded: the StatefulSet starts at 0
   * and the launcher's watcher-loop-partitioner scales it, with a Role limited to its scale.
   */
  @Test
  void withAPartitionerTheWorkersStartAtZeroAndTheLauncherScalesThem() {
    DglJobPlan plan = plan(CompileOptions.defaults());
    StatefulSet set = (StatefulSet) new DglWorkerGenerator().generate(plan).get(0);
    assertThat(set.getSpec().getReplicas()).isZero();
    assertThat(set.getMetadata().getAnnotations())
        .containsEntry("kustomize.toolkit.fluxcd.io/ssa", "IfNotPresent");
    Pod launcher = new DglLauncherGenerator().generate(plan);
    assertThat(init(launcher, "watcher-loop-partitioner").getArgs())
        .containsSubsequence("--for", "succeeded", "--pod", "graph-partitioner")
        .containsSubsequence("--then-scale", "graph-worker=2");
    assertThat(init(launcher, "watcher-loop-worker").getArgs())
        .containsSubsequence("--for", "running");
    Role role = role(plan, "graph-launcher");
    assertThat(role.getRules())
        .anySatisfy(
            r -> {
              assertThat(r.getApiGroups()).containsExactly("apps");
              assertThat(r.getResources()).containsExactly("statefulsets/scale");
              assertThat(r.getResourceNames()).containsExactly("graph-worker");
              assertThat(r.getVerbs()).containsExactly("patch");
            });
  }

  @Test
  void withAPartitionerBarePodWorkersAreGatedUntilTheLauncherLiftsTheGate() {
    DglJobPlan plan = plan(CompileOptions.defaults().with(OptionTable.WORKERS, WorkerKind.PODS));
    assertThat(new DglWorkerGenerator().generate(plan))
        .allSatisfy(
            p ->
                assertThat(((Pod) p).getSpec().getSchedulingGates())
                    .extracting(g -> g.getName())
                    .containsExactly("jobc.dev/partitioned"));
    assertThat(
            init(new DglLauncherGenerator().generate(plan), "watcher-loop-partitioner").getArgs())
        .containsSubsequence("--then-ungate", "graph-worker-0", "--then-ungate", "graph-worker-1")
        .doesNotContain("--then-scale");
    assertThat(role(plan, "graph-launcher").getRules())
        .anySatisfy(
            r -> {
              assertThat(r.getResources()).containsExactly("pods");
              assertThat(r.getResourceNames()).containsExactly("graph-worker-0", "graph-worker-1");
              assertThat(r.getVerbs()).containsExactly("patch");
            });
  }

  /** DistParMETIS partitions on the workers themselves: they start with the job. */
  @Test
  void withoutAPartitionerTheWorkersStartAtOnce() {
    DglJobPlan plan =
        plan(
            // cleanPodPolicy None: no release at the end either, so nothing scales the workers.
            JOB.replace("DGL-API", "DistParMETIS\n  cleanPodPolicy: None")
                .replace(
                    "  namespace: ml\n",
                    "  namespace: ml\n  annotations: {jobc.dev/dist-parmetis-image: \"true\"}\n"),
            CompileOptions.defaults());
    StatefulSet set = (StatefulSet) new DglWorkerGenerator().generate(plan).get(0);
    assertThat(set.getSpec().getReplicas()).isEqualTo(2);
    assertThat(set.getMetadata().getAnnotations())
        .doesNotContainKey("kustomize.toolkit.fluxcd.io/ssa");
    assertThat(role(plan, "graph-launcher").getRules())
        .noneMatch(r -> r.getVerbs().contains("patch"));
  }

  /**
   * dglrun's phase 2 copies into the launcher's watcher-loop-partitioner (dgl-operator issue #22):
   * the partitioner starts only once that container runs.
   */
  @Test
  void thePartitionerWaitsForTheLaunchersReceivingContainer() {
    Pod partitioner = new DglPartitionerGenerator().generate(plan(CompileOptions.defaults()));
    assertThat(partitioner.getSpec().getInitContainers())
        .extracting(c -> c.getName())
        .containsExactly("kubectl-download", "jobc-wait-launcher");
    assertThat(init(partitioner, "jobc-wait-launcher").getArgs())
        .containsExactly(
            "wait",
            "--for",
            "running",
            "--pod",
            "graph-launcher",
            "--container",
            "watcher-loop-partitioner",
            "--timeout",
            "24h");
  }

  /** Quota-enforcing namespaces reject containers without resources; Guaranteed stays so. */
  @Test
  void resolveHostsHasResourcesWithRequestsEqualToLimits() {
    StatefulSet set =
        (StatefulSet) new DglWorkerGenerator().generate(plan(CompileOptions.defaults())).get(0);
    Container resolve =
        set.getSpec().getTemplate().getSpec().getInitContainers().stream()
            .filter(c -> c.getName().equals("jobc-resolve-hosts"))
            .findFirst()
            .orElseThrow();
    assertThat(resolve.getResources().getLimits())
        .containsOnlyKeys("cpu", "memory", "ephemeral-storage");
    assertThat(resolve.getResources().getRequests()).isEqualTo(resolve.getResources().getLimits());
    assertThat(resolve.getCommand().get(2)).contains("-gt 43200 ]").contains("sleep 2");
  }

  private static Container init(Pod pod, String name) {
    return pod.getSpec().getInitContainers().stream()
        .filter(c -> c.getName().equals(name))
        .findFirst()
        .orElseThrow();
  }

  private static Role role(DglJobPlan plan, String name) {
    return new DglRbacGenerator()
        .generate(plan).stream()
            .filter(o -> o instanceof Role && o.getMetadata().getName().equals(name))
            .map(Role.class::cast)
            .findFirst()
            .orElseThrow();
  }

  @Test
  void barePodWorkersAreNamedAndAddressedOneByOne() {
    List<HasMetadata> pods =
        new DglWorkerGenerator()
            .generate(plan(CompileOptions.defaults().with(OptionTable.WORKERS, WorkerKind.PODS)));
    assertThat(pods)
        .extracting(p -> p.getMetadata().getName())
        .containsExactly("graph-worker-0", "graph-worker-1");
    assertThat(pods)
        .allSatisfy(
            p -> {
              Pod pod = (Pod) p;
              assertThat(pod.getSpec().getHostname()).isEqualTo(pod.getMetadata().getName());
              assertThat(pod.getSpec().getSubdomain()).isEqualTo("graph");
              assertThat(pod.getSpec().getRestartPolicy()).isEqualTo("Never");
            });
  }

  @Test
  void theConfigMapListsWorkersByStableDnsNames() {
    var data =
        new DglConfigMapGenerator(new Templates())
            .generate(plan(CompileOptions.defaults()))
            .getData();
    assertThat(data.get("hostfile"))
        .contains("graph-worker-0.graph.ml.svc")
        .contains("graph-worker-1.graph.ml.svc");
    assertThat(data.get("leadfile")).contains("graph-launcher.graph.ml.svc");
    assertThat(data.get("partfile")).contains("graph-partitioner.graph.ml.svc");
  }

  static DglJobPlan plan(CompileOptions options) {
    return plan(JOB, options);
  }

  static DglJobPlan plan(String job, CompileOptions options) {
    JsonNode root =
        new YamlLoader(YamlLimits.defaults())
            .load(new Source("job.yaml", job))
            .documents()
            .get(0)
            .root();
    DglJobModel model = KIND.defaults(KIND.bind(root), options);
    assertThat(KIND.validate(model)).noneMatch(f -> f.isError());
    return KIND.plan(model);
  }
}
