package dev.jobc.jax;

import dev.jobc.diag.Finding;
import dev.jobc.options.CompileOptions;
import dev.jobc.replica.PodEnv;
import dev.jobc.replica.ReplicaDefaults;
import dev.jobc.replica.ReplicaJob;
import dev.jobc.replica.ReplicaJobKind;
import dev.jobc.replica.ReplicaPlan;
import dev.jobc.replica.ReplicaPlanner;
import dev.jobc.replica.ReplicaPod;
import dev.jobc.replica.ReplicaValidator;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Kubeflow JAXJob ({@code kubeflow.org/v1}) through the pipeline: the family's defaults ({@code
 * SetDefaults_JAXJob}: restart policy Never, port {@code jaxjob-port} 6666 on the {@code jax}
 * container), rules and objects, with the environment of {@code pkg/controller.v1/jax/envvar.go
 * setPodEnv}. Worker 0 has the master role ({@code IsMasterRole}: index 0); every Worker decides
 * the job, which succeeds once all have ({@code UpdateJobStatus}). Upstream's webhook checks no
 * {@code runPolicy}; jobc applies the family's rules to it all the same. Immutable and thread-safe.
 */
public final class JaxJobKind extends ReplicaJobKind<JaxJob, ReplicaJob> {

  public JaxJobKind() {
    super(JaxJob.FRAMEWORK, JaxJob.class);
  }

  @Override
  protected ReplicaJob job(ReplicaJob model) {
    return model;
  }

  @Override
  public ReplicaJob defaults(JaxJob job, CompileOptions options) {
    JaxJob.Spec spec = job.spec() != null ? job.spec() : new JaxJob.Spec(null, null);
    return ReplicaDefaults.apply(
        JaxJob.FRAMEWORK, job.metadata(), spec.runPolicy(), spec.jaxReplicaSpecs(), options);
  }

  @Override
  public List<Finding> validate(ReplicaJob job) {
    List<Finding> out = ReplicaValidator.validate(job, Set.of());
    if (job.replicas() != null) {
      ReplicaValidator.needsPods(
          job,
          JaxJob.WORKER,
          "the workers decide it (training-operator's UpdateJobStatus), and with none it would"
              + " succeed at once",
          out);
      ReplicaValidator.decidingToken(job, JaxJob.WORKER, out);
      ReplicaJob.Replica worker = job.replica(JaxJob.WORKER);
      ReplicaValidator.validateJobCarrier(job, worker == null ? 1 : worker.count(), out);
    }
    return out;
  }

  @Override
  public ReplicaPlan plan(ReplicaJob job) {
    List<ReplicaPod> replicas = new ArrayList<>();
    for (ReplicaJob.Replica r : job.each()) {
      for (int i = 0; i < r.count(); i++) {
        replicas.add(
            new ReplicaPod(
                r.type(),
                i,
                ReplicaPlanner.name(job, r.type(), i),
                env(job, i),
                List.of(),
                i == 0,
                true));
      }
    }
    return ReplicaPlanner.plan(job, replicas, false);
  }

  /**
   * {@code setPodEnv}: {@code PYTHONUNBUFFERED}, {@code COORDINATOR_PORT} (the Worker's port),
   * {@code COORDINATOR_ADDRESS} ({@code <job>-worker-0}), {@code NUM_PROCESSES} (all replicas),
   * {@code PROCESS_ID} (the index).
   */
  static List<PodEnv> env(ReplicaJob job, int index) {
    return List.of(
        PodEnv.of("PYTHONUNBUFFERED", "1"),
        PodEnv.of("COORDINATOR_PORT", ReplicaPlanner.port(job, JaxJob.WORKER)),
        PodEnv.of("COORDINATOR_ADDRESS", ReplicaPlanner.name(job, JaxJob.WORKER, 0)),
        PodEnv.of("NUM_PROCESSES", job.totalReplicas()),
        PodEnv.of("PROCESS_ID", index));
  }
}
