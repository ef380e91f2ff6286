package dev.jobc.sidecar;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jobc.ManifestCompiler;
import dev.jobc.conventions.Naming;
import dev.jobc.model.CompileResult;
import dev.jobc.model.OutputObject;
import dev.jobc.model.Source;
import dev.jobc.options.CompileOptions;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import java.util.ArrayList;
import java.util.List;

/** Sidecar containers as the compiler renders them, for runs under their own limits. */
public final class RenderedSidecar {
  private RenderedSidecar() {}

  /** Every object jobc renders for {@code input}, which must compile without diagnostics. */
  public static List<HasMetadata> render(String input) {
    return render(input, CompileOptions.defaults());
  }

  /** As {@link #render(String)} with {@code options}. */
  public static List<HasMetadata> render(String input, CompileOptions options) {
    CompileResult result =
        new ManifestCompiler().compile(List.of(new Source("job.yaml", input)), options);
    assertThat(result.diagnostics()).isEmpty();
    List<HasMetadata> out = new ArrayList<>();
    for (OutputObject o : result.objects()) {
      out.add(SidecarImageIT.YAML.unmarshal(o.yaml()));
    }
    return out;
  }

  /** An MPIJob ({@code pi} in {@code team}) with {@code workers} workers. */
  public static String mpiJob(int workers) {
    return """
        apiVersion: kubeflow.org/v2beta1
        kind: MPIJob
        metadata: {name: pi, namespace: team}
        spec:
          runPolicy: {cleanPodPolicy: Running}
          mpiReplicaSpecs:
            Launcher:
              replicas: 1
              template:
                spec:
                  containers:
                  - name: mpi-launcher
                    image: mpioperator/mpi-pi:openmpi
                    command: [mpirun]
                    resources: {limits: {cpu: "1", memory: 8Gi}}
            Worker:
              replicas: %d
              template:
                spec:
                  containers: [{name: worker, image: mpioperator/mpi-pi:openmpi}]
        """
        .formatted(workers);
  }

  /** An elastic MPIJob {@code elastic} in the stand-in's namespace, two workers to start. */
  public static String elasticMpiJob(String apiVersion, int slots, int maxReplicas) {
    return """
        apiVersion: kubeflow.org/%s
        kind: MPIJob
        metadata:
          name: elastic
          namespace: team
          annotations: {jobc.dev/max-replicas: "%d"}
        spec:
          slotsPerWorker: %d
          mpiReplicaSpecs:
            Launcher:
              replicas: 1
              template:
                spec:
                  containers: [{name: launcher, image: horovod, command: [horovodrun]}]
            Worker:
              replicas: 2
              template:
                spec:
                  containers: [{name: worker, image: horovod}]
        """
        .formatted(apiVersion, maxReplicas, slots);
  }

  /**
   * A DGLJob {@code name} in {@code team} (DGL-API, {@code workers} workers) with {@code
   * cleanPodPolicy}.
   */
  public static String dglJob(String name, int workers, String cleanPodPolicy) {
    return """
        apiVersion: qihoo.net/v1alpha1
        kind: DGLJob
        metadata: {name: %s, namespace: team}
        spec:
          partitionMode: DGL-API
          cleanPodPolicy: %s
          dglReplicaSpecs:
            Launcher:
              replicas: 1
              template:
                spec:
                  containers:
                  - {name: graphsage, image: dgl, command: [dglrun], args: [--num-partitions, "%d"]}
            Worker:
              replicas: %d
              template:
                spec:
                  containers: [{name: graphsage, image: dgl}]
        """
        .formatted(name, cleanPodPolicy, workers, workers);
  }

  /** The object of {@code type} named {@code name} among {@code objects}. */
  public static <T extends HasMetadata> T named(
      List<HasMetadata> objects, Class<T> type, String name) {
    return objects.stream()
        .filter(type::isInstance)
        .map(type::cast)
        .filter(o -> o.getMetadata().getName().equals(name))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no " + type.getSimpleName() + " " + name));
  }

  /** The {@code run} sidecar of the launcher Job rendered for {@link #mpiJob}. */
  public static Container mpiRun(int workers) {
    Job launcher =
        render(mpiJob(workers)).stream()
            .filter(Job.class::isInstance)
            .map(Job.class::cast)
            .filter(j -> j.getMetadata().getName().equals(Naming.launcher("pi")))
            .findFirst()
            .orElseThrow();
    return launcher.getSpec().getTemplate().getSpec().getInitContainers().stream()
        .filter(c -> c.getName().equals(Naming.SIDECAR))
        .findFirst()
        .orElseThrow();
  }

  /** The pod template of the JobSet's replicated Job {@code name}. */
  public static PodTemplateSpec replicatedJobTemplate(
      GenericKubernetesResource jobSet, String name) {
    JsonNode spec = new ObjectMapper().valueToTree(jobSet.getAdditionalProperties().get("spec"));
    for (JsonNode rjob : spec.path("replicatedJobs")) {
      if (name.equals(rjob.path("name").asText())) {
        return SidecarImageIT.YAML.convertValue(
            rjob.at("/template/spec/template"), PodTemplateSpec.class);
      }
    }
    throw new AssertionError("no replicated Job " + name + " in " + jobSet.getMetadata().getName());
  }

  public static String javaToolOptions(Container c) {
    return c.getEnv().stream()
        .filter(e -> e.getName().equals("JAVA_TOOL_OPTIONS"))
        .map(EnvVar::getValue)
        .findFirst()
        .orElseThrow(() -> new AssertionError(c.getName() + " has no JAVA_TOOL_OPTIONS"));
  }

  /** {@code limits.cpu} in thousandths of a CPU. */
  public static long milliCpu(Container c) {
    Quantity q = c.getResources().getLimits().get("cpu");
    return Quantity.getAmountInBytes(q)
        .multiply(java.math.BigDecimal.valueOf(1000))
        .longValueExact();
  }

  /** {@code limits.memory} in bytes. */
  public static long memoryBytes(Container c) {
    return Quantity.getAmountInBytes(c.getResources().getLimits().get("memory")).longValueExact();
  }
}
