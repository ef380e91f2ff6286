package dev.jobc.paddle;

import static dev.jobc.diag.Finding.warning;

import dev.jobc.diag.FieldPath;
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
 * Kubeflow PaddleJob ({@code kubeflow.org/v1}) through the pipeline: the family's defaults ({@code
 * SetDefaults_PaddleJob}: restart policy OnFailure, port {@code master} 36543 on the {@code paddle}
 * container), rules and objects, with the environment of {@code
 * pkg/controller.v1/paddlepaddle/envvar.go setPodEnv}. With a Master (parameter-server mode) the
 * Masters have the master role and decide the job, which succeeds once all have; without one
 * (collective mode) every Worker decides and no pod has the role ({@code IsMasterRole}, {@code
 * UpdateJobStatus}). Immutable and thread-safe.
 */
public final class PaddleJobKind extends ReplicaJobKind<PaddleJob, PaddleJobKind.Model> {

  public PaddleJobKind() {
    super(PaddleJob.FRAMEWORK, PaddleJob.class);
  }

  @Override
  protected ReplicaJob job(Model model) {
    return model.job();
  }

  /** A defaulted PaddleJob: the family's part and whether an elastic policy was given. */
  public record Model(ReplicaJob job, boolean elastic) {}

  /** The downward-API variable rank 0 reads its own address from. */
  static final String POD_IP_DUMMY = "POD_IP_DUMMY";

  @Override
  public Model defaults(PaddleJob job, CompileOptions options) {
    PaddleJob.Spec spec = job.spec() != null ? job.spec() : new PaddleJob.Spec(null, null, null);
    // setPaddleElasticPolicy defaults min and max replicas, which nothing reads afterwards.
    return new Model(
        ReplicaDefaults.apply(
            PaddleJob.FRAMEWORK,
            job.metadata(),
            spec.runPolicy(),
            spec.paddleReplicaSpecs(),
            options),
        spec.elasticPolicy() != null);
  }

  @Override
  public List<Finding> validate(Model model) {
    ReplicaJob job = model.job();
    List<Finding> out = ReplicaValidator.validate(job, Set.of());
    if (model.elastic()) {
      out.add(
          warning(
              FieldPath.of("spec", "elasticPolicy"),
              "ignored: training-operator v1.9.0 only defaults a PaddleJob's elasticPolicy and"
                  + " reads nothing of it: no pod, environment or autoscaler depends on it"));
    }
    if (job.replicas() != null) {
      boolean ps = job.replica(PaddleJob.MASTER) != null;
      String decider = ps ? PaddleJob.MASTER : PaddleJob.WORKER;
      ReplicaValidator.needsPods(
          job,
          decider,
          (ps ? "the Masters" : "without a Master the Workers")
              + " decide it (training-operator's UpdateJobStatus), and with none it would succeed"
              + " at once",
          out);
      ReplicaValidator.decidingToken(job, decider, out);
      ReplicaJob.Replica deciding = job.replica(decider);
      ReplicaValidator.validateJobCarrier(job, deciding == null ? 1 : deciding.count(), out);
    }
    return out;
  }

  @Override
  public ReplicaPlan plan(Model model) {
    ReplicaJob job = model.job();
    boolean ps = job.replica(PaddleJob.MASTER) != null;
    List<ReplicaPod> replicas = new ArrayList<>();
    for (ReplicaJob.Replica r : job.each()) {
      boolean master = r.type().equals(PaddleJob.MASTER);
      for (int i = 0; i < r.count(); i++) {
        replicas.add(
            new ReplicaPod(
                r.type(),
                i,
                ReplicaPlanner.name(job, r.type(), i),
                env(job, r.type(), i),
                List.of(),
                master,
                ps == master));
      }
    }
    return ReplicaPlanner.plan(job, replicas, false);
  }

  /**
   * {@code setPodEnv}: {@code PYTHONUNBUFFERED}, {@code PADDLE_JOB_ID} (the job's name), {@code
   * PADDLE_NNODES} (all replicas), then {@code PADDLE_MASTER}: on the rendezvous pod (Master 0,
   * else Worker 0) its own IP from the downward API ({@code POD_IP_DUMMY}) and the port, elsewhere
   * that pod's name and port; with a Master, {@code PADDLE_SERVER_NUM=1} on Masters and {@code
   * PADDLE_TRAINER_NUM=1} on Workers.
   */
  static List<PodEnv> env(ReplicaJob job, String type, int index) {
    boolean ps = job.replica(PaddleJob.MASTER) != null;
    String endpoint = ps ? PaddleJob.MASTER : PaddleJob.WORKER;
    String addr = ReplicaPlanner.name(job, endpoint, 0);
    int port = ReplicaPlanner.port(job, endpoint);
    List<PodEnv> env = new ArrayList<>();
    env.add(PodEnv.of("PYTHONUNBUFFERED", "1"));
    env.add(PodEnv.of("PADDLE_JOB_ID", job.name()));
    env.add(PodEnv.of("PADDLE_NNODES", job.totalReplicas()));
    // Collective mode: rank 0 of any type (there are only Workers); PS mode: Master 0.
    if (index == 0 && (!ps || type.equals(PaddleJob.MASTER))) {
      env.add(PodEnv.field(POD_IP_DUMMY, "status.podIP"));
      env.add(PodEnv.of("PADDLE_MASTER", "$(" + POD_IP_DUMMY + "):" + port));
    } else {
      env.add(PodEnv.of("PADDLE_MASTER", addr + ":" + port));
    }
    if (ps) {
      env.add(
          PodEnv.of(
              type.equals(PaddleJob.MASTER) ? "PADDLE_SERVER_NUM" : "PADDLE_TRAINER_NUM", "1"));
    }
    return env;
  }
}
