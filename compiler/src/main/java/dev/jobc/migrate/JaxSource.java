package dev.jobc.migrate;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jobc.jax.JaxJob;
import dev.jobc.replica.ReplicaJob;
import dev.jobc.replica.ReplicaPlanner;
import java.util.List;

/**
 * A JAXJob becomes the {@code jax} policy ({@code plugins/jax/jax.go}), whose plugin sets {@code
 * JAX_NUM_PROCESSES}, {@code JAX_PROCESS_ID} and {@code JAX_COORDINATOR_ADDRESS}; training-operator
 * v1.9.0 ({@code jax/envvar.go setPodEnv}) gave {@code PYTHONUNBUFFERED}, {@code COORDINATOR_PORT},
 * {@code COORDINATOR_ADDRESS}, {@code NUM_PROCESSES} and {@code PROCESS_ID}, which the program
 * reads to call {@code jax.distributed.initialize}.
 */
final class JaxSource implements MlPolicySource {
  static final JaxSource INSTANCE = new JaxSource();

  private JaxSource() {}

  @Override
  public String name() {
    return "jax";
  }

  @Override
  public String defaultRuntime() {
    return "jax-distributed";
  }

  @Override
  public List<ObjectNode> operatorEnv(ReplicaJob job) {
    return List.of(
        Trees.env("PYTHONUNBUFFERED", "1"),
        Trees.env("COORDINATOR_PORT", Integer.toString(ReplicaPlanner.port(job, JaxJob.WORKER))),
        Trees.env("COORDINATOR_ADDRESS", TrainerObjects.host(job.name(), TrainerObjects.NODE, 0)),
        Trees.env("NUM_PROCESSES", Integer.toString(job.totalReplicas())),
        Trees.indexEnv("PROCESS_ID"));
  }
}
