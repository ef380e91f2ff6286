package dev.jobc.tf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.jobc.bind.ObjectTrees;
import dev.jobc.diag.Code;
import dev.jobc.diag.Finding;
import dev.jobc.options.CompileOptions;
import dev.jobc.options.OptionTable;
import io.fabric8.kubernetes.api.model.ContainerPort;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Defaults (training-operator v1.9.0 {@code tensorflow_defaults_test.go}), validation (code, path
 * pairs; wording is pinned in the golden error cases) and the planner's decisions.
 */
class TfJobRulesTest {
  private static final String TF =
      "      template:\n        spec:\n          containers:\n"
          + "          - name: tensorflow\n            image: i\n";

  private static TfJobModel model(String specBody) {
    return model(specBody, CompileOptions.defaults());
  }

  private static TfJobModel model(String specBody, CompileOptions options) {
    String yaml =
        "apiVersion: kubeflow.org/v1\nkind: TFJob\nmetadata:\n  name: t\n  namespace: ns\n"
            + "spec:\n"
            + specBody;
    try {
      TfJob job = ObjectTrees.bind(new YAMLMapper().readTree(yaml), TfJob.class);
      return TfJobDefaults.apply(job, options);
    } catch (java.io.IOException e) {
      throw new IllegalStateException(e);
    }
  }

  private static List<Finding> errors(TfJobModel model) {
    return TfJobValidator.validate(model).stream().filter(Finding::isError).toList();
  }

  @Test
  void defaultsReplicasRestartPolicyCleanPodPolicyAndPort() {
    // "set replicas", "default restartpolicy", "default port"
    TfJobModel m = model("  tfReplicaSpecs:\n    worker:\n" + TF);
    TfJobModel.Replica worker = m.replica(TfReplicaType.WORKER);
    assertThat(worker.key()).isEqualTo("worker");
    assertThat(worker.spec().replicas()).isEqualTo(1);
    assertThat(worker.spec().restartPolicy()).isEqualTo("Never");
    assertThat(m.runPolicy().cleanPodPolicy()).isEqualTo("None");
    assertThat(m.successPolicy()).isEmpty();
    assertThat(worker.spec().template().getSpec().getContainers().get(0).getPorts())
        .extracting(ContainerPort::getName, ContainerPort::getContainerPort)
        .containsExactly(tuple("tfjob-port", 2222));
  }

  @Test
  void appendsTheDefaultPortAfterACustomOneAndKeepsTheCleanPodPolicy() {
    // "set replicas adding default port", "set replicas adding default port with custom
    // cleanpod policy"
    TfJobModel m =
        model(
            "  runPolicy:\n    cleanPodPolicy: All\n  tfReplicaSpecs:\n    Worker:\n"
                + TF
                + "            ports:\n            - name: customPort\n"
                + "              containerPort: 1234\n");
    assertThat(m.runPolicy().cleanPodPolicy()).isEqualTo("All");
    assertThat(
            m.replica(TfReplicaType.WORKER)
                .spec()
                .template()
                .getSpec()
                .getContainers()
                .get(0)
                .getPorts())
        .extracting(ContainerPort::getName, ContainerPort::getContainerPort)
        .containsExactly(tuple("customPort", 1234), tuple("tfjob-port", 2222));
  }

  @Test
  void thePortGoesToContainerZeroWithoutATensorflowContainer() {
    TfJobModel m =
        model(
            "  tfReplicaSpecs:\n    Worker:\n      template:\n        spec:\n"
                + "          containers:\n          - name: a\n            image: i\n"
                + "          - name: b\n            image: i\n");
    var containers = m.replica(TfReplicaType.WORKER).spec().template().getSpec().getContainers();
    assertThat(containers.get(0).getPorts())
        .extracting(ContainerPort::getName)
        .containsExactly("tfjob-port");
    assertThat(containers.get(1).getPorts()).isNullOrEmpty();
  }

  @Test
  void validJobHasNoErrors() {
    assertThat(errors(model("  tfReplicaSpecs:\n    Chief:\n" + TF + "    PS:\n" + TF))).isEmpty();
  }

  @Test
  void keysAreCheckedWhereTheUserWroteThem() {
    TfJobModel m =
        model("  tfReplicaSpecs:\n    Worker:\n" + TF + "    WORKER:\n" + TF + "    Foo:\n" + TF);
    assertThat(errors(m))
        .extracting(Finding::code, f -> f.path().toString())
        .containsExactlyInAnyOrder(
            tuple(Code.DUPLICATE, "spec.tfReplicaSpecs[WORKER]"),
            tuple(Code.NOT_SUPPORTED, "spec.tfReplicaSpecs[Foo]"));
  }

  @Test
  void lowerCaseChiefCountsWithMaster() {
    assertThat(errors(model("  tfReplicaSpecs:\n    chief:\n" + TF + "    Master:\n" + TF)))
        .extracting(Finding::code, f -> f.path().toString())
        .containsExactly(tuple(Code.FORBIDDEN, "spec.tfReplicaSpecs"));
  }

  @Test
  void aJobNobodyCanCompleteIsAnError() {
    assertThat(errors(model("  tfReplicaSpecs:\n    PS:\n" + TF + "    Evaluator:\n" + TF)))
        .extracting(Finding::code, f -> f.path().toString())
        .containsExactly(tuple(Code.REQUIRED, "spec.tfReplicaSpecs"));
  }

  @Test
  void theDecidingReplicaIsTheChiefElseWorkerZero() {
    TfJobPlan withChief =
        TfJobPlanner.plan(model("  tfReplicaSpecs:\n    Worker:\n" + TF + "    Chief:\n" + TF));
    assertThat(withChief.decider().name()).isEqualTo("t-chief-0");
    TfJobPlan workers =
        TfJobPlanner.plan(
            model("  tfReplicaSpecs:\n    PS:\n" + TF + "    Worker:\n      replicas: 2\n" + TF));
    assertThat(workers.decider().name()).isEqualTo("t-worker-0");
    assertThat(workers.replicas())
        .extracting(TfReplica::name, TfReplica::masterRole)
        .containsExactly(
            tuple("t-ps-0", false), tuple("t-worker-0", true), tuple("t-worker-1", false));
  }

  @Test
  void oneReplicaInAllHasNoTfConfig() {
    // pod_test.go "Test IsDistributed": NewTFJob(1, 0) false, NewTFJobWithChief(1, 0) true.
    assertThat(TfJobPlanner.plan(model("  tfReplicaSpecs:\n    Worker:\n" + TF)).replicas())
        .extracting(TfReplica::tfConfig)
        .containsOnlyNulls();
    assertThat(
            TfJobPlanner.plan(model("  tfReplicaSpecs:\n    Worker:\n" + TF + "    Chief:\n" + TF))
                .replicas())
        .extracting(TfReplica::tfConfig)
        .doesNotContainNull();
  }

  @Test
  void goEscapesHtmlAndControlCharacters() {
    StringBuilder out = new StringBuilder();
    TfConfig.string(out, "a<b>&\"\\\n\u0001\u2028");
    assertThat(out.toString()).isEqualTo("\"a\\u003cb\\u003e\\u0026\\\"\\\\\\n\\u0001\\u2028\"");
  }

  @Test
  void sparseConfigOfTheOperatorsTest() {
    // tensorflow_test.go TestConvertClusterSpecToSparseClusterSpec
    Map<String, List<String>> cluster =
        Map.of(
            "ps",
            List.of("test-tfjob-ps-0.default.svc:2222", "test-tfjob-ps-1.default.svc:2222"),
            "worker",
            List.of(
                "test-tfjob-worker-0.default.svc:2222", "test-tfjob-worker-1.default.svc:2222"));
    assertThat(TfConfig.sparse(cluster, "worker", 0))
        .isEqualTo(
            "{\"cluster\":{\"worker\":{\"0\":\"test-tfjob-worker-0.default.svc:2222\"},\"ps\":"
                + "[\"test-tfjob-ps-0.default.svc:2222\",\"test-tfjob-ps-1.default.svc:2222\"]},"
                + "\"task\":{\"type\":\"worker\",\"index\":0}}");
    assertThat(TfConfig.sparse(cluster, "ps", 0))
        .isEqualTo(
            "{\"cluster\":{\"worker\":{},\"ps\":[\"test-tfjob-ps-0.default.svc:2222\"]},"
                + "\"task\":{\"type\":\"ps\",\"index\":0}}");
  }

  @Test
  void gangMinMemberIsEveryReplicaAndVolcanoQueueDefault() {
    CompileOptions volcano =
        CompileOptions.defaults().toDraft().set(OptionTable.GANG_SCHEDULER, "volcano").build();
    var gang =
        TfGangPlanner.plan(
                model(
                    "  tfReplicaSpecs:\n    PS:\n" + TF + "    Worker:\n      replicas: 3\n" + TF,
                    volcano))
            .orElseThrow();
    assertThat(gang.minMember()).isEqualTo(4);
    assertThat(gang.queue()).isEqualTo("default");
  }

  private static List<Finding> warnings(TfJobModel model) {
    return TfJobValidator.validate(model).stream().filter(f -> !f.isError()).toList();
  }

  @Test
  void anUnnamedPortBesideTfjobPortIsAnError() {
    TfJobModel m =
        model(
            "  tfReplicaSpecs:\n    Worker:\n"
                + TF
                + "            ports:\n            - containerPort: 6006\n"
                + "            - {name: tb, containerPort: 6007}\n");
    assertThat(errors(m))
        .extracting(Finding::code, f -> f.path().toString())
        .containsExactly(
            tuple(
                Code.REQUIRED,
                "spec.tfReplicaSpecs[Worker].template.spec.containers[0].ports[0].name"));
    assertThat(errors(model("  tfReplicaSpecs:\n    Worker:\n" + TF))).isEmpty();
  }

  /** The deciding replica's containers get no token: asking for one is refused, not overridden. */
  @Test
  void aTokenForEveryContainerOfTheDecidingReplicaIsAnError() {
    String token = "          automountServiceAccountToken: true\n";
    String tokenTf = TF.replace("        spec:\n", "        spec:\n" + token);
    assertThat(errors(model("  tfReplicaSpecs:\n    Chief:\n" + tokenTf + "    PS:\n" + TF)))
        .extracting(Finding::code, f -> f.path().toString())
        .containsExactly(
            tuple(
                Code.FORBIDDEN,
                "spec.tfReplicaSpecs[Chief].template.spec.automountServiceAccountToken"));
    assertThat(errors(model("  tfReplicaSpecs:\n    Chief:\n" + TF + "    PS:\n" + tokenTf)))
        .as("a replica that does not decide keeps its token")
        .isEmpty();
    assertThat(
            errors(
                model(
                    "  tfReplicaSpecs:\n    Chief:\n"
                        + TF.replace(
                            "        spec:\n",
                            "        spec:\n          automountServiceAccountToken: false\n"))))
        .isEmpty();
  }

  @Test
  void allWorkersWithATtlIsAnErrorOnlyWithJobs() {
    String spec =
        "  successPolicy: AllWorkers\n  runPolicy: {ttlSecondsAfterFinished: 60}\n"
            + "  tfReplicaSpecs:\n    Worker:\n      replicas: 2\n"
            + TF;
    assertThat(errors(model(spec)))
        .extracting(Finding::code, f -> f.path().toString())
        .containsExactly(tuple(Code.FORBIDDEN, "spec.runPolicy.ttlSecondsAfterFinished"));
    CompileOptions pods =
        CompileOptions.defaults().with(OptionTable.WORKERS, dev.jobc.options.WorkerKind.PODS);
    assertThat(TfJobValidator.validate(model(spec, pods))).isEmpty();
    assertThat(errors(model(spec.replace("Worker:\n", "Chief:\n" + TF + "    Worker:\n"))))
        .as("with a Chief, AllWorkers plays no part")
        .isEmpty();
  }

  @Test
  void jobsWarnAboutATtlAndAnUnsetBackoffLimit() {
    TfJobModel m =
        model(
            "  runPolicy: {ttlSecondsAfterFinished: 60}\n  tfReplicaSpecs:\n    Chief:\n"
                + "      restartPolicy: OnFailure\n"
                + TF
                + "    PS:\n"
                + TF);
    assertThat(warnings(m))
        .extracting(f -> f.path().toString())
        .containsExactlyInAnyOrder(
            "spec.tfReplicaSpecs[Chief].restartPolicy", "spec.runPolicy.ttlSecondsAfterFinished");
    CompileOptions pods =
        CompileOptions.defaults().with(OptionTable.WORKERS, dev.jobc.options.WorkerKind.PODS);
    assertThat(
            TfJobValidator.validate(
                model(
                    "  runPolicy: {ttlSecondsAfterFinished: 60}\n  tfReplicaSpecs:\n    Chief:\n"
                        + "      restartPolicy: OnFailure\n"
                        + TF,
                    pods)))
        .as("bare Pods: no TTL, and an unset limit is unlimited, as upstream")
        .isEmpty();
    assertThat(
            warnings(
                model(
                    "  runPolicy: {backoffLimit: 3}\n  tfReplicaSpecs:\n    Chief:\n"
                        + "      restartPolicy: ExitCode\n"
                        + TF)))
        .isEmpty();
  }

  /** The sidecar's requests count in the PodGroup's minResources, once per deciding pod. */
  @Test
  void minResourcesCountTheSidecarOfEachDecidingPod() {
    String requests = "            resources: {requests: {cpu: '1'}}\n";
    assertThat(
            TfGangPlanner.minResources(
                model(
                    "  tfReplicaSpecs:\n    Chief:\n"
                        + TF
                        + requests
                        + "    PS:\n"
                        + TF
                        + requests),
                2))
        .containsEntry("cpu", "2250m")
        .containsEntry("memory", "80Mi");
    assertThat(
            TfGangPlanner.minResources(
                model(
                    "  successPolicy: AllWorkers\n  tfReplicaSpecs:\n    Worker:\n      replicas: 3\n"
                        + TF
                        + requests),
                2))
        .as("AllWorkers: every Worker decides; minMember 2 counts two")
        .containsEntry("cpu", "2500m");
  }

  /** The ServiceAccount the deciding template names, the deprecated field too, is kept. */
  @Test
  void theDecidingReplicasOwnServiceAccountIsKept() {
    TfJobPlan named =
        TfJobPlanner.plan(
            model(
                "  tfReplicaSpecs:\n    Chief:\n"
                    + TF.replace(
                        "        spec:\n", "        spec:\n          serviceAccount: me\n")));
    assertThat(named.serviceAccount()).isEqualTo("me");
    assertThat(named.createAccount()).isFalse();
    TfJobPlan none = TfJobPlanner.plan(model("  tfReplicaSpecs:\n    Chief:\n" + TF));
    assertThat(none.serviceAccount()).isEqualTo("t-sidecar");
    assertThat(none.createAccount()).isTrue();
  }
}
