package dev.jobc.jax;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jobc.bind.ObjectTrees;
import dev.jobc.diag.Finding;
import dev.jobc.kind.JobKind;
import dev.jobc.options.CompileOptions;
import dev.jobc.replica.Framework;
import dev.jobc.replica.PodEnv;
import dev.jobc.replica.ReplicaDefaults;
import dev.jobc.replica.ReplicaJob;
import dev.jobc.replica.ReplicaKueue;
import dev.jobc.replica.ReplicaObjects;
import dev.jobc.replica.ReplicaPlan;
import dev.jobc.replica.ReplicaPlanner;
import dev.jobc.replica.ReplicaPod;
import dev.jobc.replica.ReplicaValidator;
import io.fabric8.kubernetes.api.model.HasMetadata;
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
public final class JaxJobKind implements JobKind<JaxJob, ReplicaJob, ReplicaPlan> {
  private final ReplicaObjects objects = new ReplicaObjects();

  @Override
  public String kind() {
    return JaxJob.KIND;
  }

  @Override
  public String group() {
    return Framework.GROUP;
  }

  @Override
  public List<String> apiVersions() {
    return List.of(Framework.API_VERSION);
  }

  @Override
  public JaxJob bind(JsonNode root) {
    return ObjectTrees.bind(root, JaxJob.class);
  }

  @Override
  public ReplicaJob defaults(JaxJob job, CompileOptions options) {
    JaxJob.Spec spec = job.spec() != null ? job.spec() : new JaxJob.Spec(null, null);
    return ReplicaDefaults.apply(
        JaxJob.FRAMEWORK, job.metadata(), spec.runPolicy(), spec.jaxReplicaSpecs(), options);
  }

  @Override
  public Finding renderedElsewhere(ReplicaJob job) {
    return ReplicaKueue.renderedElsewhere(job);
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

  @Override
  public List<HasMetadata> generate(ReplicaPlan plan) {
    return objects.generate(plan);
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
