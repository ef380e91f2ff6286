package dev.jobc.migrate;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jobc.replica.ReplicaJob;
import dev.jobc.replica.ReplicaPlanner;
import dev.jobc.xgboost.XGBoostJob;
import java.util.ArrayList;
import java.util.List;

/**
 * An XGBoostJob becomes the {@code xgboost} policy ({@code plugins/xgboost/xgboost.go}), whose
 * plugin sets {@code DMLC_TRACKER_URI}, {@code DMLC_TRACKER_PORT}, {@code DMLC_TASK_ID} and {@code
 * DMLC_NUM_WORKER}; training-operator v1.9.0 ({@code xgboost/xgboost.go SetPodEnv}) gave {@code
 * MASTER_PORT}, {@code MASTER_ADDR}, {@code WORLD_SIZE}, {@code RANK}, {@code PYTHONUNBUFFERED},
 * and with more than one replica {@code WORKER_PORT} and {@code WORKER_ADDRS} (LightGBM), which the
 * program reads.
 */
final class XGBoostSource implements MlPolicySource {
  static final XGBoostSource INSTANCE = new XGBoostSource();

  private XGBoostSource() {}

  @Override
  public String name() {
    return "xgboost";
  }

  @Override
  public String defaultRuntime() {
    return "xgboost-distributed";
  }

  @Override
  public List<ObjectNode> operatorEnv(ReplicaJob job) {
    int total = job.totalReplicas();
    String name = job.name();
    List<ObjectNode> env = new ArrayList<>();
    env.add(
        Trees.env("MASTER_PORT", Integer.toString(ReplicaPlanner.port(job, XGBoostJob.MASTER))));
    env.add(Trees.env("MASTER_ADDR", TrainerObjects.host(name, TrainerObjects.NODE, 0)));
    env.add(Trees.env("WORLD_SIZE", Integer.toString(total)));
    env.add(Trees.indexEnv("RANK"));
    env.add(Trees.env("PYTHONUNBUFFERED", "1"));
    if (total > 1) {
      // Upstream lists the first total-1 workers (Worker i is node i+1 after the one Master).
      List<String> addrs = new ArrayList<>();
      for (int i = 1; i < total; i++) {
        addrs.add(TrainerObjects.host(name, TrainerObjects.NODE, i));
      }
      env.add(
          Trees.env("WORKER_PORT", Integer.toString(ReplicaPlanner.port(job, XGBoostJob.WORKER))));
      env.add(Trees.env("WORKER_ADDRS", String.join(",", addrs)));
    }
    return env;
  }
}
