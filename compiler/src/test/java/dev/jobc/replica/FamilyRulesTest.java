package dev.jobc.replica;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.jobc.diag.Code;
import dev.jobc.diag.Finding;
import dev.jobc.jax.JaxJobKind;
import dev.jobc.kind.JobKind;
import dev.jobc.options.CompileOptions;
import dev.jobc.paddle.PaddleJobKind;
import dev.jobc.xgboost.XGBoostJobKind;
import io.fabric8.kubernetes.api.model.ContainerPort;
import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The family's shared defaults and rules, seen through XGBoostJob, JAXJob and PaddleJob
 * (training-operator v1.9.0 {@code *_defaults.go}, the webhooks), and those kinds' own decisions:
 * code and path pairs here, wording in the golden error cases.
 */
class FamilyRulesTest {
  private static final XGBoostJobKind XGB = new XGBoostJobKind();
  private static final JaxJobKind JAX = new JaxJobKind();
  private static final PaddleJobKind PADDLE = new PaddleJobKind();

  private static String pod(String container) {
    return "      template:\n        spec:\n          containers:\n          - name: "
        + container
        + "\n            image: i\n";
  }

  @SuppressWarnings("unchecked")
  private static <M> M model(JobKind<?, M, ?> kind, String specBody) {
    String yaml =
        "apiVersion: kubeflow.org/v1\nkind: "
            + kind.kind()
            + "\nmetadata:\n  name: t\n  namespace: ns\nspec:\n"
            + specBody;
    try {
      JobKind<Object, M, ?> k = (JobKind<Object, M, ?>) kind;
      return k.defaults(k.bind(new YAMLMapper().readTree(yaml)), CompileOptions.defaults());
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  private static <M> List<Finding> errors(JobKind<?, M, ?> kind, M model) {
    return kind.validate(model).stream().filter(Finding::isError).toList();
  }

  @Test
  void eachKindDefaultsItsOwnRestartPolicyAndPort() {
    ReplicaJob xgb = model(XGB, "  xgbReplicaSpecs:\n    master:\n" + pod("xgboost"));
    assertThat(xgb.replica("Master").spec().restartPolicy()).isEqualTo("Never");
    ReplicaJob jax = model(JAX, "  jaxReplicaSpecs:\n    WORKER:\n" + pod("jax"));
    assertThat(jax.replica("Worker").spec().restartPolicy()).isEqualTo("Never");
    assertThat(jax.replica("Worker").spec().template().getSpec().getContainers().get(0).getPorts())
        .extracting(ContainerPort::getName, ContainerPort::getContainerPort)
        .containsExactly(tuple("jaxjob-port", 6666));
    ReplicaJob paddle = model(PADDLE, "  paddleReplicaSpecs:\n    Worker:\n" + pod("paddle")).job();
    assertThat(paddle.replica("Worker").spec().restartPolicy()).isEqualTo("OnFailure");
    assertThat(
            paddle.replica("Worker").spec().template().getSpec().getContainers().get(0).getPorts())
        .extracting(ContainerPort::getName, ContainerPort::getContainerPort)
        .containsExactly(tuple("master", 36543));
  }

  @Test
  void thePortGoesToTheKindsContainerElseContainerZeroUnlessItHasOne() {
    // getDefaultContainerIndex, hasDefaultPort.
    ReplicaJob second =
        model(
            XGB,
            "  xgbReplicaSpecs:\n    Master:\n      template:\n        spec:\n          containers:\n"
                + "          - name: a\n            image: i\n"
                + "          - name: xgboost\n            image: i\n");
    var containers = second.replica("Master").spec().template().getSpec().getContainers();
    assertThat(containers.get(0).getPorts()).isNullOrEmpty();
    assertThat(containers.get(1).getPorts())
        .extracting(ContainerPort::getName)
        .containsExactly("xgboostjob-port");
    ReplicaJob none =
        model(
            XGB,
            "  xgbReplicaSpecs:\n    Master:\n      template:\n        spec:\n          containers:\n"
                + "          - name: a\n            image: i\n            ports:\n"
                + "            - {name: xgboostjob-port, containerPort: 1}\n");
    assertThat(none.replica("Master").spec().template().getSpec().getContainers().get(0).getPorts())
        .extracting(ContainerPort::getContainerPort)
        .containsExactly(1);
  }

  @Test
  void aTemplatesApiVersionAndKindAreDroppedWithAWarning() {
    ReplicaJob job =
        model(
            XGB,
            "  xgbReplicaSpecs:\n    Master:\n      template:\n        apiVersion: v1\n"
                + "        kind: Pod\n        spec:\n          containers:\n"
                + "          - name: xgboost\n            image: i\n");
    assertThat(job.replica("Master").spec().template().getAdditionalProperties()).isEmpty();
    assertThat(job.findings())
        .extracting(Finding::isError, f -> f.path().toString())
        .containsExactlyInAnyOrder(
            tuple(false, "spec.xgbReplicaSpecs[Master].template.apiVersion"),
            tuple(false, "spec.xgbReplicaSpecs[Master].template.kind"));
  }

  @Test
  void xgboostNeedsOneMaster() {
    assertThat(errors(XGB, model(XGB, "  xgbReplicaSpecs:\n    Worker:\n" + pod("xgboost"))))
        .extracting(Finding::code, f -> f.path().toString())
        .containsExactly(tuple(Code.REQUIRED, "spec.xgbReplicaSpecs[Master]"));
    assertThat(
            errors(
                XGB,
                model(
                    XGB, "  xgbReplicaSpecs:\n    Master:\n      replicas: 2\n" + pod("xgboost"))))
        .extracting(Finding::code, f -> f.path().toString())
        .containsExactly(tuple(Code.FORBIDDEN, "spec.xgbReplicaSpecs[Master].replicas"));
  }

  @Test
  void theDecidingReplicasNeedAPod() {
    assertThat(
            errors(
                JAX,
                model(JAX, "  jaxReplicaSpecs:\n    Worker:\n      replicas: 0\n" + pod("jax"))))
        .extracting(Finding::code, f -> f.path().toString())
        .containsExactly(tuple(Code.REQUIRED, "spec.jaxReplicaSpecs[Worker].replicas"));
    PaddleJobKind.Model ps =
        model(
            PADDLE,
            "  paddleReplicaSpecs:\n    Master:\n      replicas: 0\n"
                + pod("paddle")
                + "    Worker:\n"
                + pod("paddle"));
    assertThat(errors(PADDLE, ps))
        .extracting(Finding::code, f -> f.path().toString())
        .containsExactly(tuple(Code.REQUIRED, "spec.paddleReplicaSpecs[Master].replicas"));
  }

  @Test
  void whoHasTheMasterRoleAndWhoDecides() {
    // IsMasterRole and UpdateJobStatus of each controller.
    ReplicaPlan xgb =
        XGB.plan(
            model(
                XGB,
                "  xgbReplicaSpecs:\n    Master:\n"
                    + pod("xgboost")
                    + "    Worker:\n      replicas: 2\n"
                    + pod("xgboost")));
    assertThat(xgb.replicas())
        .extracting(ReplicaPod::name, ReplicaPod::masterRole, ReplicaPod::decides)
        .containsExactly(
            tuple("t-master-0", true, true),
            tuple("t-worker-0", false, false),
            tuple("t-worker-1", false, false));
    ReplicaPlan jax =
        JAX.plan(model(JAX, "  jaxReplicaSpecs:\n    Worker:\n      replicas: 2\n" + pod("jax")));
    assertThat(jax.replicas())
        .extracting(ReplicaPod::masterRole, ReplicaPod::decides)
        .containsExactly(tuple(true, true), tuple(false, true));
    ReplicaPlan collective =
        PADDLE.plan(
            model(
                PADDLE, "  paddleReplicaSpecs:\n    Worker:\n      replicas: 2\n" + pod("paddle")));
    assertThat(collective.replicas())
        .extracting(ReplicaPod::masterRole, ReplicaPod::decides)
        .containsExactly(tuple(false, true), tuple(false, true));
    ReplicaPlan ps =
        PADDLE.plan(
            model(
                PADDLE,
                "  paddleReplicaSpecs:\n    Master:\n      replicas: 2\n"
                    + pod("paddle")
                    + "    Worker:\n"
                    + pod("paddle")));
    assertThat(ps.replicas())
        .extracting(ReplicaPod::name, ReplicaPod::masterRole, ReplicaPod::decides)
        .containsExactly(
            tuple("t-master-0", true, true),
            tuple("t-master-1", true, true),
            tuple("t-worker-0", false, false));
  }

  @Test
  void restartPoliciesMapAsTheOperatorsSetRestartPolicy() {
    // pod_test.go "Test Restart Policy"; a Job allows no Always. TFJob's pods take theirs here too.
    assertThat(ReplicaPodTemplates.restartPolicy("ExitCode", true)).isEqualTo("Never");
    assertThat(ReplicaPodTemplates.restartPolicy("Never", false)).isEqualTo("Never");
    assertThat(ReplicaPodTemplates.restartPolicy("Never", true)).isEqualTo("Never");
    assertThat(ReplicaPodTemplates.restartPolicy("OnFailure", true)).isEqualTo("OnFailure");
    assertThat(ReplicaPodTemplates.restartPolicy("Always", false)).isEqualTo("Always");
    assertThat(ReplicaPodTemplates.restartPolicy("Always", true)).isEqualTo("OnFailure");
  }
}
