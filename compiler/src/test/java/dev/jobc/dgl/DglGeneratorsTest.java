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
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
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
    assertThat(set.getSpec().getReplicas()).isEqualTo(2);
    assertThat(set.getSpec().getTemplate().getSpec().getRestartPolicy()).isEqualTo("Always");
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
    JsonNode root =
        new YamlLoader(YamlLimits.defaults())
            .load(new Source("job.yaml", JOB))
            .documents()
            .get(0)
            .root();
    DglJobModel model = KIND.defaults(KIND.bind(root), options);
    assertThat(KIND.validate(model)).noneMatch(f -> f.isError());
    return KIND.plan(model);
  }
}
