package dev.jobc.pytorch;

import dev.jobc.options.CompileOptions;
import dev.jobc.replica.ReplicaDefaults;
import dev.jobc.replica.ReplicaJob;

/**
 * training-operator v1.9.0 {@code SetDefaults_PyTorchJob}: the family's defaults (restart policy
 * OnFailure, port {@code pytorchjob-port} 23456 on the {@code pytorch} container), then {@code
 * setElasticPolicy} (min and max replicas default to each other, or both to the Worker replicas)
 * and {@code setDefaultNprocPerNode} ({@code auto} unless the deprecated {@code
 * elasticPolicy.nProcPerNode} is set).
 */
public final class PyTorchJobDefaults {
  /** {@code DefaultNprocPerNode}. */
  public static final String NPROC_PER_NODE = "auto";

  private PyTorchJobDefaults() {}

  public static PyTorchJobModel apply(PyTorchJob job, CompileOptions options) {
    PyTorchJobSpec spec =
        job.spec() != null ? job.spec() : new PyTorchJobSpec(null, null, null, null);
    ReplicaJob common =
        ReplicaDefaults.apply(
            PyTorchJob.FRAMEWORK,
            job.metadata(),
            spec.runPolicy(),
            spec.pytorchReplicaSpecs(),
            options);
    ElasticPolicy elastic = spec.elasticPolicy();
    if (elastic != null) {
      Integer min = elastic.minReplicas();
      Integer max = elastic.maxReplicas();
      if (min == null && max == null) {
        // Upstream dereferences the Worker spec here; without one the webhook has refused the job.
        ReplicaJob.Replica worker = common.replica(PyTorchJob.WORKER);
        if (worker != null) {
          min = worker.count();
          max = worker.count();
        }
      } else if (min == null) {
        min = max;
      } else if (max == null) {
        max = min;
      }
      elastic = elastic.withMinMax(min, max);
    }
    String nproc = spec.nprocPerNode();
    if (nproc == null && (elastic == null || elastic.nProcPerNode() == null)) {
      nproc = NPROC_PER_NODE;
    }
    return new PyTorchJobModel(common, elastic, nproc);
  }
}
