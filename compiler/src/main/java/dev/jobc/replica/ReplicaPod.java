package dev.jobc.replica;

import dev.jobc.bind.ObjectTrees.Snapshot;
import io.fabric8.kubernetes.api.model.Container;
import java.util.List;

/**
 * One replica of a job: the pod training-operator would create, with its Service.
 *
 * @param type the replica type as the spec spells it ({@code Master})
 * @param name {@code <job>-<type>-<index>}: the Service's, the carrying Job's or Pod's name
 * @param env what the kind's {@code SetClusterSpec} appends to every container, in its order
 * @param initContainers what it appends to the pod's init containers (PyTorch's {@code
 *     init-pytorch})
 * @param masterRole whether the pod gets {@code training.kubeflow.org/job-role: master} ({@code
 *     IsMasterRole})
 * @param decides whether this replica's outcome decides the job's, so it carries the sidecar
 */
public record ReplicaPod(
    String type,
    int index,
    String name,
    List<PodEnv> env,
    List<Snapshot<Container>> initContainers,
    boolean masterRole,
    boolean decides) {

  public ReplicaPod {
    env = List.copyOf(env);
    initContainers = List.copyOf(initContainers);
  }

  public String lower() {
    return Framework.lower(type);
  }
}
