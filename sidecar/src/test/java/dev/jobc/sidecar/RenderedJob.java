package dev.jobc.sidecar;

import dev.jobc.ManifestCompiler;
import dev.jobc.model.CompileResult;
import dev.jobc.model.OutputObject;
import dev.jobc.model.Source;
import dev.jobc.options.CompileOptions;
import dev.jobc.options.OptionTable;
import dev.jobc.options.WorkerKind;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.ArrayList;
import java.util.List;

/** What the compiler renders for a job: the objects Git holds for it, as the API reads them. */
public record RenderedJob(List<HasMetadata> objects) {
  public static final KubernetesSerialization YAML = new KubernetesSerialization();

  public RenderedJob {
    objects = List.copyOf(objects);
  }

  /** Renders {@code yaml} with {@code options}; fails on any diagnostic. */
  public static RenderedJob of(String yaml, CompileOptions options) {
    CompileResult result =
        new ManifestCompiler().compile(List.of(new Source("job.yaml", yaml)), options);
    if (!result.diagnostics().isEmpty()) {
      throw new AssertionError("the test's job does not render: " + result.diagnostics());
    }
    List<HasMetadata> out = new ArrayList<>();
    for (OutputObject o : result.objects()) {
      out.add(YAML.unmarshal(o.yaml()));
    }
    return new RenderedJob(out);
  }

  public static RenderedJob of(String yaml) {
    return of(yaml, CompileOptions.defaults());
  }

  /**
   * A DGLJob {@code name} in namespace {@code team}, DGL-API partitioning, {@code workers} workers
   * in a StatefulSet or as bare Pods.
   */
  public static RenderedJob dgl(String name, int workers, WorkerKind kind) {
    String job =
        """
        apiVersion: qihoo.net/v1alpha1
        kind: DGLJob
        metadata: {name: NAME, namespace: team}
        spec:
          partitionMode: DGL-API
          dglReplicaSpecs:
            Launcher:
              replicas: 1
              template:
                spec:
                  containers:
                  - {name: graphsage, image: dgl, command: [dglrun], args: [--num-partitions, "WORKERS"]}
            Worker:
              replicas: WORKERS
              template:
                spec:
                  containers: [{name: graphsage, image: dgl}]
        """
            .replace("NAME", name)
            .replace("WORKERS", Integer.toString(workers));
    return of(job, CompileOptions.defaults().with(OptionTable.WORKERS, kind));
  }

  /** The rendered object of {@code type} named {@code name}. */
  public <T extends HasMetadata> T named(Class<T> type, String name) {
    return objects.stream()
        .filter(type::isInstance)
        .map(type::cast)
        .filter(o -> o.getMetadata().getName().equals(name))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no " + type.getSimpleName() + " " + name));
  }

  public Role role(String name) {
    return named(Role.class, name);
  }

  public <T extends HasMetadata> List<T> all(Class<T> type) {
    return objects.stream().filter(type::isInstance).map(type::cast).toList();
  }
}
