package dev.jobc.dgl;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * How a DGLJob partitions its graph, and so which pods it has. DGL-API, ParMETIS and Skip are
 * dgl-operator's constants; DistParMETIS comes from the kubeflow/community proposal (2021-07-23),
 * the only place it is defined.
 */
public enum PartitionMode {
  /** One partitioner pod runs DGL's partition API, then the launcher trains on the workers. */
  DGL_API("DGL-API", true, true),
  /** The proposal's single-pod multi-process ParMETIS partitioner; same pods as DGL-API. */
  PAR_METIS("ParMETIS", true, true),
  /** No partitioner: {@code dglrun} on the launcher partitions on the workers themselves. */
  DIST_PAR_METIS("DistParMETIS", false, true),
  /** No partitioning and no workers: the launcher trains alone. */
  SKIP("Skip", false, false);

  private final String specName;
  private final boolean partitioner;
  private final boolean workers;

  PartitionMode(String specName, boolean partitioner, boolean workers) {
    this.specName = specName;
    this.partitioner = partitioner;
    this.workers = workers;
  }

  /** The value as written in {@code spec.partitionMode}. */
  public String specName() {
    return specName;
  }

  /** Whether the mode runs a partitioner pod {@code <job>-partitioner}. */
  public boolean hasPartitioner() {
    return partitioner;
  }

  /** Whether the mode runs workers (and so needs a Worker spec). */
  public boolean hasWorkers() {
    return workers;
  }

  public static Optional<PartitionMode> of(String specName) {
    return Arrays.stream(values()).filter(m -> m.specName.equals(specName)).findFirst();
  }

  public static List<String> specNames() {
    return Arrays.stream(values()).map(PartitionMode::specName).toList();
  }
}
