package dev.jobc.dgl;

import dev.jobc.options.RenderDefaults;
import dev.jobc.options.WorkerKind;
import java.util.List;

/**
 * Everything decided about one valid DGLJob before objects are built.
 *
 * @param hostfile one line per worker in index order, with stable DNS names
 * @param partitioner the partfile line, or {@code null} in modes without a partitioner
 * @param launcher the leadfile line
 * @param shmSizeLimit half the worker container's memory limit, or {@code null} for none
 * @param portBlock whether workers get dgl-operator's 20 container ports (only when the user's
 *     worker container declares none)
 * @param sidecarImage the image of the jobc sidecars ({@link RenderDefaults#sidecarImage})
 * @param renderDefaults what sizes the sidecars
 */
public record DglJobPlan(
    DglJobModel job,
    PartitionMode mode,
    String name,
    String namespace,
    int slots,
    List<String> workerPods,
    List<DglPeer> hostfile,
    DglPeer partitioner,
    DglPeer launcher,
    String shmSizeLimit,
    boolean portBlock,
    WorkerKind workerKind,
    String kubectlImage,
    String sidecarImage,
    RenderDefaults renderDefaults) {

  public DglJobPlan {
    workerPods = List.copyOf(workerPods);
    hostfile = List.copyOf(hostfile);
  }

  public int workers() {
    return workerPods.size();
  }

  /**
   * Whether the workers start only once the partitioner has succeeded, as dgl-operator creates them
   * only in phase Partitioned ({@code controllers/dgljob_controller.go} {@code Reconcile}): the
   * StatefulSet is rendered with 0 replicas, bare pods with a scheduling gate, and the launcher's
   * {@code watcher-loop-partitioner} starts them.
   */
  public boolean workersAfterPartitioning() {
    return partitioner != null;
  }
}
