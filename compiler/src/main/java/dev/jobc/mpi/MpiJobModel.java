package dev.jobc.mpi;

import dev.jobc.conventions.MpiEra;
import dev.jobc.diag.Finding;
import dev.jobc.model.ReplicaSpec;
import dev.jobc.model.SchedulingPolicy;
import dev.jobc.options.CompileOptions;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import java.util.ArrayList;
import java.util.Collection;
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

  /**
   * A model being assembled: an era's conversion copies what the user wrote into it, then one
   * defaulting pass fills the gaps ({@link MpiJobDefaults}). Setters are named after the record
   * components and return the draft; getters exist for what the defaulting pass reads.
   */
  public static final class Draft {
    private final MpiEra era;
    private ObjectMeta metadata;
    private String namespace;
    private Integer slotsPerWorker;
    private boolean runLauncherAsWorker;
    private String cleanPodPolicy;
    private Integer ttlSecondsAfterFinished;
    private Long activeDeadlineSeconds;
    private Integer backoffLimit;
    private boolean suspend;
    private String managedBy;
    private SchedulingPolicy schedulingPolicy;
    private Map<String, ReplicaSpec> replicaSpecs;
    private String sshAuthMountPath;
    private String launcherCreationPolicy;
    private String implementation;
    private String mainContainer;
    private CompileOptions options;
    private Integer maxReplicas;
    private MpiPaths paths;
    private Integer workerTotal;
    private final List<Finding> findings = new ArrayList<>();

    public Draft(MpiEra era) {
      this.era = era;
    }

    public MpiJobModel build() {
      return new MpiJobModel(
          era,
          metadata,
          namespace,
          slotsPerWorker,
          runLauncherAsWorker,
          cleanPodPolicy,
          ttlSecondsAfterFinished,
          activeDeadlineSeconds,
          backoffLimit,
          suspend,
          managedBy,
          schedulingPolicy,
          replicaSpecs,
          sshAuthMountPath,
          launcherCreationPolicy,
          implementation,
          mainContainer,
          options,
          maxReplicas,
          paths,
          workerTotal,
          findings);
    }

    public MpiEra era() {
      return era;
    }

    public Integer slotsPerWorker() {
      return slotsPerWorker;
    }

    public String cleanPodPolicy() {
      return cleanPodPolicy;
    }

    public Integer backoffLimit() {
      return backoffLimit;
    }

    public Map<String, ReplicaSpec> replicaSpecs() {
      return replicaSpecs;
    }

    public String sshAuthMountPath() {
      return sshAuthMountPath;
    }

    public String launcherCreationPolicy() {
      return launcherCreationPolicy;
    }

    public String implementation() {
      return implementation;
    }

    public CompileOptions options() {
      return options;
    }

    public MpiPaths paths() {
      return paths;
    }

    public Draft metadata(ObjectMeta value) {
      metadata = value;
      return this;
    }

    public Draft namespace(String value) {
      namespace = value;
      return this;
    }

    public Draft slotsPerWorker(Integer value) {
      slotsPerWorker = value;
      return this;
    }

    public Draft runLauncherAsWorker(boolean value) {
      runLauncherAsWorker = value;
      return this;
    }

    public Draft cleanPodPolicy(String value) {
      cleanPodPolicy = value;
      return this;
    }

    public Draft ttlSecondsAfterFinished(Integer value) {
      ttlSecondsAfterFinished = value;
      return this;
    }

    public Draft activeDeadlineSeconds(Long value) {
      activeDeadlineSeconds = value;
      return this;
    }

    public Draft backoffLimit(Integer value) {
      backoffLimit = value;
      return this;
    }

    public Draft suspend(boolean value) {
      suspend = value;
      return this;
    }

    public Draft managedBy(String value) {
      managedBy = value;
      return this;
    }

    public Draft schedulingPolicy(SchedulingPolicy value) {
      schedulingPolicy = value;
      return this;
    }

    public Draft replicaSpecs(Map<String, ReplicaSpec> value) {
      replicaSpecs = value;
      return this;
    }

    public Draft sshAuthMountPath(String value) {
      sshAuthMountPath = value;
      return this;
    }

    public Draft launcherCreationPolicy(String value) {
      launcherCreationPolicy = value;
      return this;
    }

    public Draft implementation(String value) {
      implementation = value;
      return this;
    }

    public Draft mainContainer(String value) {
      mainContainer = value;
      return this;
    }

    public Draft options(CompileOptions value) {
      options = value;
      return this;
    }

    public Draft maxReplicas(Integer value) {
      maxReplicas = value;
      return this;
    }

    public Draft paths(MpiPaths value) {
      paths = value;
      return this;
    }

    public Draft workerTotal(Integer value) {
      workerTotal = value;
      return this;
    }

    /** Adds problems found while converting, after those already recorded. */
    public Draft addFindings(Collection<Finding> more) {
      findings.addAll(more);
      return this;
    }

    public Draft addFinding(Finding finding) {
      findings.add(finding);
      return this;
    }
  }
}
