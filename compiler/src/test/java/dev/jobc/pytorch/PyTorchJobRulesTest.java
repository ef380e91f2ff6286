package dev.jobc.pytorch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.jobc.bind.ObjectTrees;
import dev.jobc.diag.Code;
import dev.jobc.diag.Finding;
import dev.jobc.options.CompileOptions;
import dev.jobc.replica.PodEnv;
import dev.jobc.replica.ReplicaPlan;
import dev.jobc.replica.ReplicaPod;
import io.fabric8.kubernetes.api.model.ContainerPort;
import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * PyTorchJob defaults (training-operator v1.9.0 {@code pytorch_defaults.go}), validation (code,
 * path pairs; wording is pinned in the golden error cases) and the planner's decisions.
 */
class PyTorchJobRulesTest {
  private static final String POD =
      "      template:\n        spec:\n          containers:\n"
          + "          - name: pytorch\n            image: i\n";

  static PyTorchJobModel model(String specBody) {
    return model("", specBody);
  }

  static PyTorchJobModel model(String metadata, String specBody) {
    String yaml =
        "apiVersion: kubeflow.org/v1\nkind: PyTorchJob\nmetadata:\n  name: t\n  namespace: ns\n"
            + metadata
            + "spec:\n"
            + specBody;
    try {
      PyTorchJob job = ObjectTrees.bind(new YAMLMapper().readTree(yaml), PyTorchJob.class);
      return PyTorchJobDefaults.apply(job, CompileOptions.defaults());
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  private static List<Finding> errors(PyTorchJobModel model) {
    return PyTorchJobValidator.validate(model).stream().filter(Finding::isError).toList();
  }

  private static List<String> env(ReplicaPod pod) {
    return pod.env().stream().map(e -> e.name() + "=" + e.value()).toList();
  }

  @Test
  void defaultsReplicasRestartPolicyPortAndNprocPerNode() {
    PyTorchJobModel m = model("  pytorchReplicaSpecs:\n    worker:\n" + POD);
    var worker = m.job().replica("Worker");
    assertThat(worker.key()).isEqualTo("worker");
    assertThat(worker.spec().replicas()).isEqualTo(1);
    assertThat(worker.spec().restartPolicy()).isEqualTo("OnFailure");
    assertThat(m.job().runPolicy().cleanPodPolicy()).isEqualTo("None");
    assertThat(m.nprocPerNode()).isEqualTo("auto");
    assertThat(worker.spec().template().getSpec().getContainers().get(0).getPorts())
        .extracting(ContainerPort::getName, ContainerPort::getContainerPort)
        .containsExactly(tuple("pytorchjob-port", 23456));
  }

  @Test
  void elasticMinAndMaxDefaultToEachOtherOrToTheWorkers() {
    // setElasticPolicy
    assertThat(
            model("  elasticPolicy: {maxReplicas: 4}\n  pytorchReplicaSpecs:\n    Worker:\n" + POD)
                .elasticPolicy())
        .extracting(ElasticPolicy::minReplicas, ElasticPolicy::maxReplicas)
        .containsExactly(4, 4);
    assertThat(
            model("  elasticPolicy: {minReplicas: 2}\n  pytorchReplicaSpecs:\n    Worker:\n" + POD)
                .elasticPolicy())
        .extracting(ElasticPolicy::minReplicas, ElasticPolicy::maxReplicas)
        .containsExactly(2, 2);
    assertThat(
            model(
                    "  elasticPolicy: {}\n  pytorchReplicaSpecs:\n    Worker:\n      replicas: 3\n"
                        + POD)
                .elasticPolicy())
        .extracting(ElasticPolicy::minReplicas, ElasticPolicy::maxReplicas)
        .containsExactly(3, 3);
  }

  @Test
  void theDeprecatedElasticNprocPerNodeLeavesNprocPerNodeUnset() {
    // setDefaultNprocPerNode
    PyTorchJobModel m =
        model(
            "  runPolicy: {backoffLimit: 1}\n  elasticPolicy: {nProcPerNode: 2}\n"
                + "  pytorchReplicaSpecs:\n    Worker:\n"
                + POD);
    assertThat(m.nprocPerNode()).isNull();
    assertThat(PyTorchJobValidator.validate(m))
        .extracting(Finding::isError, f -> f.path().toString())
        .containsExactly(tuple(false, "spec.elasticPolicy.nProcPerNode"));
  }

  @Test
  void webhookRulesAreCheckedWhereTheUserWroteThem() {
    PyTorchJobModel m =
        model(
            "  pytorchReplicaSpecs:\n    master:\n      replicas: 2\n"
                + POD
                + "    Worker:\n      replicas: 0\n"
                + POD
                + "    Launcher:\n"
                + POD);
    assertThat(errors(m))
        .extracting(Finding::code, f -> f.path().toString())
        .containsExactlyInAnyOrder(
            tuple(Code.FORBIDDEN, "spec.pytorchReplicaSpecs[master].replicas"),
            tuple(Code.FORBIDDEN, "spec.pytorchReplicaSpecs[Worker].replicas"),
            tuple(Code.NOT_SUPPORTED, "spec.pytorchReplicaSpecs[Launcher]"));
  }

  @Test
  void anElasticJobNeedsAWorker() {
    assertThat(errors(model("  elasticPolicy: {}\n  pytorchReplicaSpecs:\n    Master:\n" + POD)))
        .extracting(Finding::code, f -> f.path().toString())
        .containsExactly(tuple(Code.REQUIRED, "spec.pytorchReplicaSpecs[Worker]"));
  }

  @Test
  void metricsWarnUnlessNull() {
    // hpa.go ReconcileHPA: an autoscaler whenever metrics is not nil, an empty list included.
    for (String metrics : List.of("[]", "[{type: Resource}]", "null")) {
      List<Finding> warnings =
          PyTorchJobValidator.validate(
                  model(
                      "  elasticPolicy:\n    minReplicas: 1\n    maxReplicas: 1\n    metrics: "
                          + metrics
                          + "\n  pytorchReplicaSpecs:\n    Worker:\n      replicas: 1\n"
                          + POD))
              .stream()
              .filter(f -> f.path().toString().equals("spec.elasticPolicy.metrics"))
              .toList();
      assertThat(warnings).as(metrics).hasSize(metrics.equals("null") ? 0 : 1);
    }
  }

  @Test
  void nprocPerNodeMustBeSomethingTorchrunReads() {
    // torchrun takes device types it knows (xpu) and the registered backend's (npu, or any name):
    // only the empty text and counts below 1 or past an int are refused.
    for (String ok :
        List.of("auto", "cpu", "gpu", "xpu", "npu", "Auto", "1.5", "1", "08", "+2", "2147483647")) {
      assertThat(
              errors(
                  model(
                      "  nprocPerNode: \""
                          + ok
                          + "\"\n  pytorchReplicaSpecs:\n    Worker:\n"
                          + POD)))
          .as(ok)
          .isEmpty();
    }
    for (String bad : List.of("", "0", "-1", "+0", "2147483648", "99999999999999999999")) {
      assertThat(
              errors(
                  model(
                      "  nprocPerNode: \""
                          + bad
                          + "\"\n  pytorchReplicaSpecs:\n    Worker:\n"
                          + POD)))
          .as(bad)
          .extracting(Finding::code, f -> f.path().toString())
          .containsExactly(tuple(Code.INVALID, "spec.nprocPerNode"));
    }
  }

  @Test
  void withAMasterRanksCountFromItAndWorkersWaitForItsName() {
    // envvar.go setPodEnv, master.go Generate, initcontainer.go setInitContainer.
    ReplicaPlan plan =
        PyTorchJobPlanner.plan(
            model(
                "  nprocPerNode: \"3\"\n  pytorchReplicaSpecs:\n    Master:\n"
                    + POD
                    + "    Worker:\n      replicas: 2\n"
                    + POD));
    assertThat(plan.replicas())
        .extracting(ReplicaPod::name, ReplicaPod::masterRole, ReplicaPod::decides)
        .containsExactly(
            tuple("t-master-0", true, true),
            tuple("t-worker-0", false, false),
            tuple("t-worker-1", false, false));
    assertThat(env(plan.replicas().get(2)))
        .containsExactly(
            "PYTHONUNBUFFERED=1",
            "MASTER_PORT=23456",
            "PET_MASTER_PORT=23456",
            "MASTER_ADDR=t-master-0",
            "PET_MASTER_ADDR=t-master-0",
            "WORLD_SIZE=9",
            "RANK=2",
            "PET_NODE_RANK=2",
            "PET_NPROC_PER_NODE=3",
            "PET_NNODES=3");
    assertThat(plan.replicas().get(0).initContainers()).isEmpty();
    assertThat(plan.replicas().get(1).initContainers().get(0).copy().getCommand().get(2))
        .contains("nslookup t-master-0;");
    assertThat(plan.anyDecides()).isFalse();
  }

  @Test
  void withoutAMasterEveryWorkerDecidesAndElasticWorkersDecideAlone() {
    // UpdateJobStatus: all workers, or with an elastic policy any worker.
    ReplicaPlan all =
        PyTorchJobPlanner.plan(
            model("  pytorchReplicaSpecs:\n    Worker:\n      replicas: 2\n" + POD));
    assertThat(all.replicas())
        .extracting(ReplicaPod::masterRole, ReplicaPod::decides)
        .containsExactly(tuple(true, true), tuple(false, true));
    assertThat(all.anyDecides()).isFalse();
    ReplicaPlan elastic =
        PyTorchJobPlanner.plan(
            model(
                "  elasticPolicy: {}\n  pytorchReplicaSpecs:\n    Worker:\n      replicas: 2\n"
                    + POD));
    assertThat(elastic.anyDecides()).isTrue();
    assertThat(elastic.replicas().get(1).env())
        .extracting(PodEnv::name)
        .containsExactly(
            "PYTHONUNBUFFERED",
            "PET_NPROC_PER_NODE",
            "PET_RDZV_ENDPOINT",
            "PET_RDZV_BACKEND",
            "PET_NNODES");
  }

  @Test
  void aQueueNameMakesEveryReplicaABarePodOfOneGroup() {
    String yaml =
        "  pytorchReplicaSpecs:\n    Master:\n" + POD + "    Worker:\n      replicas: 2\n" + POD;
    assertThat(PyTorchJobPlanner.plan(model(yaml)).pods()).isFalse();
    ReplicaPlan plan =
        PyTorchJobPlanner.plan(model("  labels:\n    kueue.x-k8s.io/queue-name: q\n", yaml));
    assertThat(plan.pods()).isTrue();
    assertThat(plan.podGroup()).isTrue();
  }
}
