package dev.jobc.pytorch;

import dev.jobc.replica.PodEnv;
import dev.jobc.replica.ReplicaJob;
import dev.jobc.replica.ReplicaPlanner;
import java.util.ArrayList;
import java.util.List;

/**
 * The environment training-operator v1.9.0 appends to every container of a PyTorchJob's pod ({@code
 * pkg/controller.v1/pytorch/envvar.go setPodEnv}, {@code master.go MasterEnvVarGenerator}, {@code
 * elastic.go ElasticEnvVarGenerator}), in its order:
 *
 * <ol>
 *   <li>{@code PYTHONUNBUFFERED=1};
 *   <li>with a Master: {@code MASTER_PORT}, {@code PET_MASTER_PORT} (the Master's {@code
 *       pytorchjob-port}), {@code MASTER_ADDR}, {@code PET_MASTER_ADDR} ({@code <job>-master-0}),
 *       {@code WORLD_SIZE} (all replicas × {@code nprocPerNode} read as a whole number, else ×1),
 *       {@code RANK} and {@code PET_NODE_RANK} (the index, plus 1 on workers);
 *   <li>{@code PET_NPROC_PER_NODE} when {@code nprocPerNode} is set (by default {@code auto});
 *   <li>with an elastic policy: {@code PET_RDZV_ENDPOINT} ({@code rdzvHost} or {@code
 *       <job>-worker-0}, then {@code rdzvPort} or the Worker's port), {@code PET_RDZV_BACKEND}
 *       ({@code c10d} by default), {@code PET_NNODES} ({@code min:max}), and when set {@code
 *       PET_MAX_RESTARTS}, {@code PET_NPROC_PER_NODE} (the deprecated {@code nProcPerNode}), {@code
 *       PET_RDZV_ID}, {@code PET_RDZV_CONF} ({@code k=v,...}) and {@code PET_STANDALONE}; without
 *       one {@code PET_NNODES} (all replicas).
 * </ol>
 */
final class PyTorchEnv {
  private PyTorchEnv() {}

  static List<PodEnv> of(PyTorchJobModel model, String type, int index) {
    ReplicaJob job = model.job();
    int total = job.totalReplicas();
    List<PodEnv> env = new ArrayList<>();
    env.add(PodEnv.of("PYTHONUNBUFFERED", "1"));
    if (job.replica(PyTorchJob.MASTER) != null) {
      String port = Integer.toString(ReplicaPlanner.port(job, PyTorchJob.MASTER));
      String addr = ReplicaPlanner.name(job, PyTorchJob.MASTER, 0);
      env.add(PodEnv.of("MASTER_PORT", port));
      env.add(PodEnv.of("PET_MASTER_PORT", port));
      env.add(PodEnv.of("MASTER_ADDR", addr));
      env.add(PodEnv.of("PET_MASTER_ADDR", addr));
      int rank = type.equals(PyTorchJob.WORKER) ? index + 1 : index;
      env.add(PodEnv.of("WORLD_SIZE", Long.toString((long) total * nprocPerNodeInt(model))));
      env.add(PodEnv.of("RANK", rank));
      env.add(PodEnv.of("PET_NODE_RANK", rank));
    }
    if (model.nprocPerNode() != null) {
      env.add(PodEnv.of("PET_NPROC_PER_NODE", model.nprocPerNode()));
    }
    ElasticPolicy elastic = model.elasticPolicy();
    if (elastic == null) {
      env.add(PodEnv.of("PET_NNODES", total));
      return env;
    }
    String host = elastic.rdzvHost() != null ? elastic.rdzvHost() : job.name() + "-worker-0";
    int port =
        elastic.rdzvPort() != null
            ? elastic.rdzvPort()
            : ReplicaPlanner.port(job, PyTorchJob.WORKER);
    env.add(PodEnv.of("PET_RDZV_ENDPOINT", host + ":" + port));
    env.add(
        PodEnv.of(
            "PET_RDZV_BACKEND", elastic.rdzvBackend() != null ? elastic.rdzvBackend() : "c10d"));
    env.add(PodEnv.of("PET_NNODES", elastic.minReplicas() + ":" + elastic.maxReplicas()));
    if (elastic.maxRestarts() != null) {
      env.add(PodEnv.of("PET_MAX_RESTARTS", elastic.maxRestarts()));
    }
    if (elastic.nProcPerNode() != null) {
      env.add(PodEnv.of("PET_NPROC_PER_NODE", elastic.nProcPerNode()));
    }
    if (elastic.rdzvId() != null) {
      env.add(PodEnv.of("PET_RDZV_ID", elastic.rdzvId()));
    }
    if (elastic.rdzvConf() != null) {
      List<String> pairs = new ArrayList<>();
      for (ElasticPolicy.RdzvConf c : elastic.rdzvConf()) {
        // Go's zero values: a missing key or value prints as "".
        pairs.add(
            nullToEmpty(c == null ? null : c.key())
                + "="
                + nullToEmpty(c == null ? null : c.value()));
      }
      env.add(PodEnv.of("PET_RDZV_CONF", String.join(",", pairs)));
    }
    if (Boolean.TRUE.equals(elastic.standalone())) {
      env.add(PodEnv.of("PET_STANDALONE", ""));
    }
    return env;
  }

  /** {@code getNprocPerNodeInt}: {@code nprocPerNode} as a whole number, else 1. */
  static int nprocPerNodeInt(PyTorchJobModel model) {
    String nproc = model.nprocPerNode();
    if (nproc != null && PyTorchJobValidator.NUMBER.matcher(nproc).matches()) {
      return Integer.parseInt(nproc);
    }
    return 1;
  }

  private static String nullToEmpty(String s) {
    return s == null ? "" : s;
  }
}
