package dev.jobc.xgboost;

import static dev.jobc.diag.Finding.error;

import dev.jobc.diag.Code;
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
 * Kubeflow XGBoostJob ({@code kubeflow.org/v1}) through the pipeline: the family's defaults ({@code
 * SetDefaults_XGBoostJob}: restart policy Never, port {@code xgboostjob-port} 9999 on the {@code
 * xgboost} container) and objects, with the webhook's own rules ({@code
 * pkg/webhooks/xgboost/xgboostjob_webhook.go validateXGBReplicaSpecs}: a Master, of one replica)
 * and the environment of {@code pkg/controller.v1/xgboost/xgboost.go SetPodEnv}. The Master has the
 * master role and decides the job ({@code IsMasterRole}, {@code UpdateJobStatus}). Immutable and
 * thread-safe.
 */
public final class XGBoostJobKind extends ReplicaJobKind<XGBoostJob, ReplicaJob> {

  public XGBoostJobKind() {
    super(XGBoostJob.FRAMEWORK, XGBoostJob.class);
  }

  @Override
  protected ReplicaJob job(ReplicaJob model) {
    return model;
  }

  static final String WORKER_ADDRS = "WORKER_ADDRS";

  /** Linux's {@code MAX_ARG_STRLEN}: 32 pages, one environment string with its terminator. */
  static final long MAX_ARG_STRLEN = 131_072;

  /** Bytes of {@code WORKER_ADDRS} jobc renders for one job, over all its pods. */
  static final long WORKER_ADDRS_BUDGET = 64L << 20;

  @Override
  public ReplicaJob defaults(XGBoostJob job, CompileOptions options) {
    XGBoostJob.Spec spec = job.spec() != null ? job.spec() : new XGBoostJob.Spec(null, null);
    return ReplicaDefaults.apply(
        XGBoostJob.FRAMEWORK, job.metadata(), spec.runPolicy(), spec.xgbReplicaSpecs(), options);
  }

  @Override
  public List<Finding> validate(ReplicaJob job) {
    List<Finding> out = ReplicaValidator.validate(job, Set.of());
    if (job.replicas() == null) {
      return out;
    }
    ReplicaJob.Replica master = job.replica(XGBoostJob.MASTER);
    if (master == null) {
      out.add(
          error(
              Code.REQUIRED,
              XGBoostJob.FRAMEWORK.replicaSpecsPath().key(XGBoostJob.MASTER),
              "Required value: must be present"));
    } else if (master.count() != 1 && master.count() >= 0) {
      out.add(
          error(
              Code.FORBIDDEN,
              ReplicaValidator.at(job, master).child("replicas"),
              "Forbidden: must be 1"));
    }
    ReplicaValidator.decidingToken(job, XGBoostJob.MASTER, out);
    ReplicaValidator.validateJobCarrier(job, 1, out);
    ReplicaJob.Replica worker = job.replica(XGBoostJob.WORKER);
    if (worker != null && out.stream().noneMatch(Finding::isError)) {
      validateWorkerAddrs(job, worker, out);
    }
    return out;
  }

  /** Characters of {@code WORKER_ADDRS}'s value: the workers' names, comma-separated. */
  private static long workerAddrs(ReplicaJob job) {
    int total = job.totalReplicas();
    long length = 0;
    for (int i = 0; i < total - 1; i++) {
      length += (i > 0 ? 1 : 0) + ReplicaPlanner.name(job, XGBoostJob.WORKER, i).length();
    }
    return length;
  }

  /** {@code WORKER_ADDRS} as every pod's env lists it: name, value, quotes and indentation. */
  @Override
  protected long envPerPod(ReplicaJob job) {
    return job.replicas() == null ? 0 : workerAddrs(job) + 64;
  }

  /**
   * Every pod lists every worker in {@code WORKER_ADDRS}, so the variable grows with the job, and
   * the render with its square: the variable must fit what Linux passes to a program in one
   * environment string ({@code MAX_ARG_STRLEN}, 128 KiB with its name and terminator; larger, the
   * container cannot start), and all pods' copies must fit {@value #WORKER_ADDRS_BUDGET} bytes.
   */
  private static void validateWorkerAddrs(
      ReplicaJob job, ReplicaJob.Replica worker, List<Finding> out) {
    int total = job.totalReplicas();
    long length = workerAddrs(job);
    long most = MAX_ARG_STRLEN - 1 - (WORKER_ADDRS + "=").length();
    String why = null;
    if (length > most) {
      why =
          "WORKER_ADDRS would have "
              + length
              + " characters, more than the "
              + most
              + " Linux passes to a program in one variable (MAX_ARG_STRLEN): the containers could"
              + " not start";
    } else if (length * total > WORKER_ADDRS_BUDGET) {
      why =
          "each of the "
              + total
              + " pods would list every worker in WORKER_ADDRS ("
              + length
              + " characters), more than the "
              + WORKER_ADDRS_BUDGET
              + " bytes jobc renders of it for one job";
    }
    if (why != null) {
      out.add(
          error(
              Code.INVALID,
              ReplicaValidator.at(job, worker).child("replicas"),
              "Invalid value: " + worker.count() + ": " + why));
    }
  }

  @Override
  public ReplicaPlan plan(ReplicaJob job) {
    List<ReplicaPod> replicas = new ArrayList<>();
    for (ReplicaJob.Replica r : job.each()) {
      boolean master = r.type().equals(XGBoostJob.MASTER);
      for (int i = 0; i < r.count(); i++) {
        replicas.add(
            new ReplicaPod(
                r.type(),
                i,
                ReplicaPlanner.name(job, r.type(), i),
                env(job, r.type(), i),
                List.of(),
                master,
                master));
      }
    }
    return ReplicaPlanner.plan(job, replicas, false);
  }

  /**
   * {@code SetPodEnv}: {@code MASTER_PORT} (the Master's port), {@code MASTER_ADDR} ({@code
   * <job>-master-0}), {@code WORLD_SIZE} (all replicas), {@code RANK} (the index, plus the Master's
   * replicas on workers), {@code PYTHONUNBUFFERED}, and with more than one replica, for LightGBM,
   * {@code WORKER_PORT} (the Worker's port) and {@code WORKER_ADDRS} (the first all-but-one
   * workers' names, comma-separated).
   */
  static List<PodEnv> env(ReplicaJob job, String type, int index) {
    int rank = index;
    if (type.equals(XGBoostJob.WORKER)) {
      rank += job.replica(XGBoostJob.MASTER).count();
    }
    int total = job.totalReplicas();
    List<PodEnv> env = new ArrayList<>();
    env.add(PodEnv.of("MASTER_PORT", ReplicaPlanner.port(job, XGBoostJob.MASTER)));
    env.add(PodEnv.of("MASTER_ADDR", ReplicaPlanner.name(job, XGBoostJob.MASTER, 0)));
    env.add(PodEnv.of("WORLD_SIZE", total));
    env.add(PodEnv.of("RANK", rank));
    env.add(PodEnv.of("PYTHONUNBUFFERED", "1"));
    if (total > 1) {
      List<String> addrs = new ArrayList<>(total - 1);
      for (int i = 0; i < total - 1; i++) {
        addrs.add(ReplicaPlanner.name(job, XGBoostJob.WORKER, i));
      }
      env.add(PodEnv.of("WORKER_PORT", ReplicaPlanner.port(job, XGBoostJob.WORKER)));
      env.add(PodEnv.of(WORKER_ADDRS, String.join(",", addrs)));
    }
    return env;
  }
}
