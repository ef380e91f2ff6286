package dev.jobc.pytorch;

import static dev.jobc.diag.Finding.error;
import static dev.jobc.diag.Finding.warning;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jobc.diag.Code;
import dev.jobc.diag.FieldPath;
import dev.jobc.diag.Finding;
import dev.jobc.diag.Quoting;
import dev.jobc.replica.ReplicaJob;
import dev.jobc.replica.ReplicaValidator;
import dev.jobc.validate.FieldRules;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.PodSpec;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Validates a defaulted PyTorchJob: the family's rules, the rules of training-operator v1.9.0's
 * webhook ({@code pkg/webhooks/pytorch/pytorchjob_webhook.go validateSpec}, {@code
 * validatePyTorchReplicaSpecs}, with its wording), and the ones it forgot: a job with neither a
 * Master nor a Worker, an elastic range torchrun refuses, an {@code nprocPerNode} it cannot read,
 * an empty {@code rdzvConf} (on which the operator's {@code generateEnvRDZVConf} panics), and the
 * workers' {@code init-pytorch} name taken.
 */
public final class PyTorchJobValidator {
  static final FieldPath ELASTIC = FieldPath.of("spec", "elasticPolicy");
  static final FieldPath NPROC_PER_NODE = FieldPath.of("spec", "nprocPerNode");

  /**
   * A number as training-operator reads {@code nprocPerNode} ({@code strconv.Atoi} in {@code
   * pytorch/envvar.go getNprocPerNodeInt}); any other text is a device type for torchrun.
   */
  static final Pattern NUMBER = Pattern.compile("[+-]?[0-9]+");

  private PyTorchJobValidator() {}

  public static List<Finding> validate(PyTorchJobModel model) {
    ReplicaJob job = model.job();
    List<Finding> out = ReplicaValidator.validate(job, Set.of());
    validateElastic(model, out);
    validateNprocPerNode(model.nprocPerNode(), out);
    if (job.replicas() == null) {
      return out;
    }
    ReplicaJob.Replica master = job.replica(PyTorchJob.MASTER);
    ReplicaJob.Replica worker = job.replica(PyTorchJob.WORKER);
    if (master != null && master.count() != 1 && master.count() >= 0) {
      out.add(
          error(
              Code.FORBIDDEN,
              ReplicaValidator.at(job, master).child("replicas"),
              "Forbidden: must be 1"));
    }
    if (worker != null && worker.count() < 1 && worker.count() >= 0) {
      out.add(
          error(
              Code.FORBIDDEN,
              ReplicaValidator.at(job, worker).child("replicas"),
              "Forbidden: must be at least 1"));
    }
    if (master == null && worker == null) {
      out.add(
          error(
              Code.REQUIRED,
              PyTorchJob.FRAMEWORK.replicaSpecsPath(),
              "Required value: a PyTorchJob needs a Master or a Worker: only they can complete it"
                  + " (training-operator's UpdateJobStatus), so the job would never finish"));
    }
    ReplicaValidator.decidingToken(
        job, master != null ? PyTorchJob.MASTER : PyTorchJob.WORKER, out);
    ReplicaValidator.validateJobCarrier(
        job,
        master == null && model.elasticPolicy() == null && worker != null ? worker.count() : 1,
        out);
    if (master != null && worker != null) {
      // setInitContainer appends init-pytorch to every worker: a second one is a duplicate name.
      PodSpec pod = worker.spec().template() == null ? null : worker.spec().template().getSpec();
      List<Container> init = pod == null ? null : pod.getInitContainers();
      for (int i = 0; init != null && i < init.size(); i++) {
        if (init.get(i) != null && PyTorchInitContainer.NAME.equals(init.get(i).getName())) {
          out.add(
              error(
                  Code.DUPLICATE,
                  ReplicaValidator.at(job, worker)
                      .child("template")
                      .child("spec")
                      .child("initContainers")
                      .index(i)
                      .child("name"),
                  "Duplicate value: "
                      + Quoting.quote(PyTorchInitContainer.NAME)
                      + ": the operator adds this init container to every Worker"));
        }
      }
    }
    return out;
  }

  private static void validateElastic(PyTorchJobModel model, List<Finding> out) {
    ElasticPolicy elastic = model.elasticPolicy();
    if (elastic == null) {
      return;
    }
    ReplicaJob job = model.job();
    if (job.replicas() != null && job.replica(PyTorchJob.WORKER) == null) {
      out.add(
          error(
              Code.REQUIRED,
              PyTorchJob.FRAMEWORK.replicaSpecsPath().key(PyTorchJob.WORKER),
              "Required value: must be configured if elastic policy is used"));
    }
    if (elastic.nProcPerNode() != null) {
      FieldPath at = ELASTIC.child("nProcPerNode");
      out.add(warning(at, "is deprecated, use " + NPROC_PER_NODE + " instead"));
      if (model.nprocPerNode() != null) {
        out.add(error(Code.FORBIDDEN, at, "Forbidden: must not be used with " + NPROC_PER_NODE));
      } else if (elastic.nProcPerNode() < 1) {
        out.add(FieldRules.atLeast(at, elastic.nProcPerNode(), 1));
      }
    }
    // torch.distributed.elastic RendezvousParameters: 1 <= min_nodes <= max_nodes.
    Integer min = elastic.minReplicas();
    Integer max = elastic.maxReplicas();
    if (min != null && min < 1) {
      out.add(FieldRules.atLeast(ELASTIC.child("minReplicas"), min, 1));
    } else if (min != null && max != null && max < min) {
      out.add(
          error(
              Code.INVALID,
              ELASTIC.child("maxReplicas"),
              "Invalid value: "
                  + max
                  + ": must be greater than or equal to minReplicas ("
                  + min
                  + "): torchrun refuses --nnodes "
                  + min
                  + ":"
                  + max));
    }
    // No autoscaler is rendered, so the job runs the Worker's replicas: torchrun's rendezvous waits
    // for minReplicas nodes and admits at most maxReplicas.
    ReplicaJob.Replica worker = job.replica(PyTorchJob.WORKER);
    if (worker != null && min != null && max != null && min >= 1 && max >= min) {
      FieldPath replicas = ReplicaValidator.at(job, worker).child("replicas");
      if (worker.count() >= 0 && worker.count() < min) {
        out.add(
            error(
                Code.INVALID,
                replicas,
                "Invalid value: "
                    + worker.count()
                    + ": must be at least elasticPolicy.minReplicas ("
                    + min
                    + "): torchrun's rendezvous waits for "
                    + min
                    + " nodes, and no autoscaler adds workers once rendered"));
      } else if (worker.count() > max) {
        out.add(
            warning(
                replicas,
                worker.count()
                    + " workers, more than elasticPolicy.maxReplicas ("
                    + max
                    + "): torchrun's rendezvous admits "
                    + max
                    + " nodes, and the others wait for a place"));
      }
    }
    if (elastic.rdzvPort() != null && (elastic.rdzvPort() < 1 || elastic.rdzvPort() > 65535)) {
      out.add(
          error(
              Code.INVALID,
              ELASTIC.child("rdzvPort"),
              "Invalid value: " + elastic.rdzvPort() + ": must be between 1 and 65535, inclusive"));
    }
    if (elastic.rdzvConf() != null && elastic.rdzvConf().isEmpty()) {
      out.add(
          error(
              Code.INVALID,
              ELASTIC.child("rdzvConf"),
              "Invalid value: []: must have an entry or be left out: training-operator's"
                  + " generateEnvRDZVConf fails on an empty list and never creates the pods"));
    }
    FieldRules.nonNegative(ELASTIC.child("maxRestarts"), elastic.maxRestarts(), out);
    // hpa.go ReconcileHPA makes an autoscaler whenever metrics is not nil: an empty list too,
    // which the API server defaults to 80% average CPU utilisation (kubernetes
    // pkg/apis/autoscaling/v2/defaults.go SetDefaults_HorizontalPodAutoscaler); null makes none.
    JsonNode metrics = elastic.metrics();
    if (metrics != null && !metrics.isNull() && !metrics.isMissingNode()) {
      out.add(
          warning(
              ELASTIC.child("metrics"),
              "ignored: no HorizontalPodAutoscaler is rendered; training-operator's (ReconcileHPA)"
                  + " scaled the PyTorchJob itself"
                  + (metrics.isEmpty()
                      ? " (on 80% CPU utilisation, the default of no metrics)"
                      : "")
                  + ", which is not applied once rendered, so the workers run as many as the"
                  + " Worker's replicas say"));
    }
  }

  /**
   * {@code nprocPerNode} as torchrun takes it ({@code torch/distributed/run.py
   * determine_local_world_size}): a number of processes, or a device type: {@code auto}, {@code
   * cpu}, {@code gpu}, {@code xpu} or the name of whatever backend the image registers ({@code
   * npu}, ...), so any text but the empty one, which torchrun refuses. training-operator accepts
   * any string; a number below 1 starts no process, and one past {@code int} no count.
   */
  private static void validateNprocPerNode(String nproc, List<Finding> out) {
    if (nproc == null) {
      return;
    }
    boolean ok = !nproc.isEmpty();
    if (NUMBER.matcher(nproc).matches()) {
      long n = nproc.length() > 11 ? Long.MAX_VALUE : Long.parseLong(nproc);
      ok = n >= 1 && n <= Integer.MAX_VALUE;
    }
    if (!ok) {
      out.add(
          error(
              Code.INVALID,
              NPROC_PER_NODE,
              "Invalid value: "
                  + Quoting.quote(nproc)
                  + ": must be a number of processes from 1 to "
                  + Integer.MAX_VALUE
                  + ", or a device type such as auto, cpu, gpu or xpu (torchrun's"
                  + " --nproc-per-node)"));
    }
  }
}
