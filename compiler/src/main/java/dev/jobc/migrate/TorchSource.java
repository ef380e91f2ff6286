package dev.jobc.migrate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jobc.diag.Code;
import dev.jobc.diag.FieldPath;
import dev.jobc.diag.Finding;
import dev.jobc.diag.Quoting;
import dev.jobc.pytorch.PyTorchJob;
import dev.jobc.replica.ReplicaJob;
import dev.jobc.replica.ReplicaPlanner;
import java.util.ArrayList;
import java.util.List;

/**
 * A PyTorchJob becomes the {@code torch} policy ({@code plugins/torch/torch.go}), whose plugin sets
 * {@code PET_NNODES}, {@code PET_NPROC_PER_NODE}, {@code PET_NODE_RANK}, {@code PET_MASTER_ADDR}
 * and {@code PET_MASTER_PORT} on the node container (and on the {@code envInjection} targets).
 * training-operator v1.9.0 ({@code pytorch/envvar.go}, {@code master.go}) also gave {@code
 * PYTHONUNBUFFERED}, and with a Master {@code MASTER_PORT}, {@code MASTER_ADDR}, {@code WORLD_SIZE}
 * and {@code RANK}, which programs started without torchrun read.
 */
record TorchSource(int procs) implements MlPolicySource {
  private static final FieldPath NPROC = FieldPath.of("spec", "nprocPerNode");

  /**
   * The policy of one job: {@code nprocPerNode} as written, read as a whole number or else 1
   * ({@code getNprocPerNodeInt}), is {@code WORLD_SIZE}'s factor.
   */
  static TorchSource of(JsonNode root) {
    Integer n = number(root.path("spec").path("nprocPerNode").asText(""));
    return new TorchSource(n == null ? 1 : n);
  }

  @Override
  public String name() {
    return "torch";
  }

  @Override
  public String defaultRuntime() {
    return "torch-distributed";
  }

  @Override
  public List<ObjectNode> operatorEnv(ReplicaJob job) {
    List<ObjectNode> env = new ArrayList<>();
    env.add(Trees.env("PYTHONUNBUFFERED", "1"));
    if (job.replica(PyTorchJob.MASTER) != null) {
      String port = Integer.toString(ReplicaPlanner.port(job, PyTorchJob.MASTER));
      env.add(Trees.env("MASTER_PORT", port));
      env.add(Trees.env("MASTER_ADDR", TrainerObjects.host(job.name(), TrainerObjects.NODE, 0)));
      env.add(Trees.env("WORLD_SIZE", Long.toString((long) job.totalReplicas() * procs)));
      env.add(Trees.indexEnv("RANK"));
    }
    return env;
  }

  @Override
  public List<Finding> refusals(JsonNode root) {
    List<Finding> out = new ArrayList<>();
    JsonNode spec = root.path("spec");
    if (spec.has("elasticPolicy") && !spec.get("elasticPolicy").isNull()) {
      out.add(
          Finding.error(
              Code.FORBIDDEN,
              FieldPath.of("spec", "elasticPolicy"),
              "Forbidden: no Trainer v2.3.0 equivalent: a TrainJob runs a fixed number of nodes"
                  + " (torch.go: elastic PyTorch waits for JobSet support); remove it and set the"
                  + " replicas"));
    }
    String nproc = spec.path("nprocPerNode").isTextual() ? spec.get("nprocPerNode").asText() : null;
    if (nproc != null && !nproc.equals("auto") && number(nproc) == null) {
      out.add(
          Finding.error(
              Code.NOT_SUPPORTED,
              NPROC,
              "Unsupported value: "
                  + Quoting.quote(nproc)
                  + ": a TrainJob's numProcPerNode is a number, or unset for auto (torch.go: auto"
                  + " with GPUs, else the CPUs each node requests)"));
    }
    return out;
  }

  @Override
  public Integer numProcPerNode(JsonNode root) {
    return number(root.path("spec").path("nprocPerNode").asText(""));
  }

  @Override
  public ObjectNode settings(List<String> others) {
    ObjectNode torch = Trees.NODES.objectNode();
    if (!others.isEmpty()) {
      // torch.go EnforceMLPolicy: envInjection targets get the PET_* variables, as every
      // container of a v1 pod did.
      ArrayNode names =
          torch
              .putObject("envInjection")
              .putArray("targets")
              .addObject()
              .put("jobName", TrainerObjects.NODE)
              .putArray("containerNames");
      others.forEach(names::add);
    }
    return torch;
  }

  /** A whole number as the v1 webhook reads {@code nprocPerNode}, or {@code null}. */
  private static Integer number(String text) {
    if (!text.matches("[+-]?[0-9]{1,9}")) {
      return null;
    }
    return Integer.parseInt(text);
  }
}
