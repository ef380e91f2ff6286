package dev.jobc.pytorch;

import dev.jobc.bind.ObjectTrees;
import dev.jobc.bind.ObjectTrees.Snapshot;
import dev.jobc.options.OptionTable;
import dev.jobc.replica.ReplicaJob;
import dev.jobc.replica.ReplicaPlan;
import dev.jobc.replica.ReplicaPlanner;
import dev.jobc.replica.ReplicaPod;
import io.fabric8.kubernetes.api.model.Container;
import java.util.ArrayList;
import java.util.List;

/**
 * Decides each replica of a valid PyTorchJob: its environment ({@link PyTorchEnv}), the workers'
 * {@code init-pytorch} when there is a Master, the master role ({@code IsMasterRole}: the Master,
 * else Worker 0) and the replicas that decide the job ({@code UpdateJobStatus}: the Master; without
 * one every Worker, the last to succeed completing the job, or with an elastic policy the first).
 */
final class PyTorchJobPlanner {
  private PyTorchJobPlanner() {}

  static ReplicaPlan plan(PyTorchJobModel model) {
    ReplicaJob job = model.job();
    boolean hasMaster = job.replica(PyTorchJob.MASTER) != null;
    List<Snapshot<Container>> workerInit =
        hasMaster
            ? List.of(
                ObjectTrees.snapshot(
                    PyTorchInitContainer.of(
                        job.options().get(OptionTable.PYTORCH_INIT_IMAGE),
                        ReplicaPlanner.name(job, PyTorchJob.MASTER, 0)),
                    Container.class))
            : List.of();
    List<ReplicaPod> replicas = new ArrayList<>();
    for (ReplicaJob.Replica r : job.each()) {
      boolean worker = r.type().equals(PyTorchJob.WORKER);
      for (int i = 0; i < r.count(); i++) {
        boolean master = hasMaster ? !worker : i == 0;
        replicas.add(
            new ReplicaPod(
                r.type(),
                i,
                ReplicaPlanner.name(job, r.type(), i),
                PyTorchEnv.of(model, r.type(), i),
                worker ? workerInit : List.of(),
                master,
                hasMaster ? !worker : worker));
      }
    }
    return ReplicaPlanner.plan(job, replicas, !hasMaster && model.elasticPolicy() != null);
  }
}
