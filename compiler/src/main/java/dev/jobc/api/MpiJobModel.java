package dev.jobc.api;

import io.fabric8.kubernetes.api.model.ObjectMeta;
import java.util.Map;

/**
 * An MPIJob of any accepted version after defaulting: one shape for the validator and the planner.
 * Values are as the user wrote them or as upstream defaults them; they are not yet known to be
 * valid (the validator checks this record, and reports paths in the user's version's spelling).
 *
 * @param namespace {@code metadata.namespace}, else the namespace option, else {@code null}
 * @param replicaSpecs {@code spec.mpiReplicaSpecs} with per-replica defaults applied; {@code null}
 *     when absent
 * @param implementation {@code mpiImplementation} (v2beta1), {@code OpenMPI} for v1
 */
public record MpiJobModel(
    MpiEra era,
    ObjectMeta metadata,
    String namespace,
    Integer slotsPerWorker,
    boolean runLauncherAsWorker,
    String cleanPodPolicy,
    Integer ttlSecondsAfterFinished,
    Long activeDeadlineSeconds,
    Integer backoffLimit,
    boolean suspend,
    String managedBy,
    SchedulingPolicy schedulingPolicy,
    Map<String, ReplicaSpec> replicaSpecs,
    String sshAuthMountPath,
    String launcherCreationPolicy,
    String implementation,
    String mainContainer) {

  /** {@code metadata.name}, or {@code null}. */
  public String name() {
    return metadata == null ? null : metadata.getName();
  }

  public ReplicaSpec launcher() {
    return replicaSpecs == null ? null : replicaSpecs.get(MpiJob.LAUNCHER);
  }

  public ReplicaSpec worker() {
    return replicaSpecs == null ? null : replicaSpecs.get(MpiJob.WORKER);
  }

  /** Initial worker count: {@code Worker.replicas}, 0 without a Worker spec. */
  public int workerReplicas() {
    ReplicaSpec w = worker();
    return w == null || w.replicas() == null ? 0 : w.replicas();
  }
}
