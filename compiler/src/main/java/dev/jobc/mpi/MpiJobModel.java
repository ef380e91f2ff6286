package dev.jobc.mpi;

import dev.jobc.conventions.MpiEra;
import dev.jobc.diag.Finding;
import dev.jobc.model.ReplicaSpec;
import dev.jobc.model.SchedulingPolicy;
import dev.jobc.options.CompileOptions;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import java.util.List;
import java.util.Map;

/**
 * An MPIJob of any accepted version after defaulting and conversion: one shape for the validator
 * and the planner. Values are as the user wrote them or as upstream defaults them; they are not yet
 * known to be valid (the validator checks this record, and reports paths in the user's version's
 * spelling through {@link #paths}).
 *
 * @param namespace {@code metadata.namespace}, else the namespace option, else {@code null}
 * @param replicaSpecs {@code spec.mpiReplicaSpecs} with per-replica defaults applied (v1alpha1's
 *     single template already split into both roles); {@code null} when absent
 * @param implementation {@code OpenMPI}, {@code Intel} or {@code MPICH} (v1alpha2's {@code
 *     mpiDistribution} names mapped), or what the user wrote if it is none of them
 * @param options the compile options with the job's {@code jobc.dev/*} annotations applied
 * @param maxReplicas {@code jobc.dev/max-replicas}: how far workers may be scaled, or {@code null}
 * @param workerTotal v1alpha1's {@code gpus:} or {@code processingUnits:} total that the worker
 *     count was computed from ({@link MpiPaths#workerCount} names it), else {@code null}
 * @param findings problems found while converting (v1alpha1 slot packing, annotations)
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
    String mainContainer,
    CompileOptions options,
    Integer maxReplicas,
    MpiPaths paths,
    Integer workerTotal,
    List<Finding> findings) {

  public MpiJobModel {
    findings = List.copyOf(findings);
  }

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

  /** The most workers the job may run: {@code jobc.dev/max-replicas}, else the initial count. */
  public int maxWorkers() {
    return maxReplicas == null ? workerReplicas() : Math.max(maxReplicas, workerReplicas());
  }
}
