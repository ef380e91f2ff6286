package dev.jobc.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.jobc.diag.Code;
import dev.jobc.diag.Diagnostic;
import org.junit.jupiter.api.Test;

/**
 * Items of a ResourceList meet the rules documents of {@code jobc render} meet. (code, file, path)
 * only; the wording is pinned in the golden cases of the same rules.
 */
class KrmCommandTest {
  private static KrmCommand.Outcome run(String items) {
    return KrmCommand.run(
        "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n" + items);
  }

  @Test
  void scalarItemsAreNotObjectsRatherThanDuplicates() {
    KrmCommand.Outcome outcome = run("- 1\n- just text\n");
    assertThat(outcome.diagnostics())
        .extracting(Diagnostic::code, Diagnostic::file, Diagnostic::path)
        .containsExactly(tuple(Code.INVALID, "items[0]", ""), tuple(Code.INVALID, "items[1]", ""));
    assertThat(outcome.resourceList().path("results"))
        .extracting(r -> r.path("message").asText())
        .allSatisfy(m -> assertThat(m).contains("must be a Kubernetes object"));
  }

  @Test
  void itemsNeedAValidKindAndName() {
    KrmCommand.Outcome outcome =
        run(
            "- apiVersion: v1\n  kind: ConfigMap\n  metadata: {}\n"
                + "- apiVersion: v1\n  kind: ../../x/ConfigMap\n  metadata: {name: x}\n"
                + "- apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: ..}\n"
                + "- metadata: {name: y}\n"
                + "- apiVersion: rbac.authorization.k8s.io/v1\n  kind: ClusterRole\n"
                + "  metadata: {name: system:aggregate-to-admin}\n");
    assertThat(outcome.diagnostics())
        .extracting(Diagnostic::code, Diagnostic::file, Diagnostic::path)
        .containsExactly(
            tuple(Code.REQUIRED, "items[0]", "metadata.name"),
            tuple(Code.INVALID, "items[1]", "kind"),
            tuple(Code.INVALID, "items[2]", "metadata.name"),
            tuple(Code.REQUIRED, "items[3]", "apiVersion"),
            tuple(Code.REQUIRED, "items[3]", "kind"));
  }

  /** A TrainJob finds its runtime among the items, and the runtime is read, not kept. */
  @Test
  void aTrainJobReadsItsRuntimeFromTheItems() {
    KrmCommand.Outcome outcome =
        run(
            "- apiVersion: trainer.kubeflow.org/v1alpha1\n  kind: TrainingRuntime\n"
                + "  metadata: {name: rt, namespace: ml}\n"
                + "  spec:\n    template:\n      spec:\n        replicatedJobs:\n"
                + "        - name: node\n          template:\n            spec:\n"
                + "              template:\n                spec:\n"
                + "                  containers: [{name: node, image: python:3.12}]\n"
                + "- apiVersion: trainer.kubeflow.org/v1alpha1\n  kind: TrainJob\n"
                + "  metadata: {name: tj, namespace: ml}\n"
                + "  spec: {runtimeRef: {name: rt, kind: TrainingRuntime}}\n");
    assertThat(outcome.diagnostics()).isEmpty();
    assertThat(outcome.resourceList().path("items"))
        .extracting(i -> i.path("kind").asText() + " " + i.path("metadata").path("name").asText())
        .containsExactly("JobSet tj");
  }

  @Test
  void aDuplicateNamesTheNameOfTheLaterItem() {
    KrmCommand.Outcome outcome =
        run(
            "- apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: a}\n"
                + "- apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: a}\n");
    assertThat(outcome.diagnostics())
        .extracting(Diagnostic::code, Diagnostic::file, Diagnostic::path)
        .containsExactly(tuple(Code.DUPLICATE, "items[1]", "metadata.name"));
  }

  @Test
  void aConfigMapFunctionConfigWhoseDataIsNoMapIsAnError() {
    for (String data : java.util.List.of("[a, b]", "cluster-domain=example.com", "1")) {
      KrmCommand.Outcome outcome =
          KrmCommand.run(
              "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems: []\n"
                  + "functionConfig:\n  apiVersion: v1\n  kind: ConfigMap\n"
                  + "  metadata: {name: c}\n  data: "
                  + data
                  + "\n");
      assertThat(outcome.diagnostics())
          .as(data)
          .extracting(Diagnostic::message)
          .singleElement()
          .asString()
          .startsWith("functionConfig: data: expected a map of option names to values, not a");
    }
  }
}
