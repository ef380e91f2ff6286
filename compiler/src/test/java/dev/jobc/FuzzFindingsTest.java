package dev.jobc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.jobc.diag.Code;
import dev.jobc.diag.Diagnostic;
import dev.jobc.model.CompileResult;
import dev.jobc.model.Source;
import dev.jobc.options.CompileOptions;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Inputs on which the fuzzer (fuzz/: CompileFuzzTest) found {@link ManifestCompiler#compile}
 * throwing, reduced by hand. Each must now compile to diagnostics, among them the error that says
 * what is wrong (code and path; wording is pinned in golden cases).
 */
class FuzzFindingsTest {
  private static final ManifestCompiler COMPILER = new ManifestCompiler();

  static Stream<Arguments> findings() {
    return Stream.of(
        Arguments.of(
            Named.of(
                "a minResources value that is no quantity (NumberFormatException in GangValidator)",
                mpiJob(
                    "  runPolicy:\n    schedulingPolicy:\n      minResources:\n"
                        + "        cpu: default\n")),
            Code.SCHEMA,
            "spec.runPolicy.schedulingPolicy.minResources[cpu]"),
        Arguments.of(
            Named.of(
                "a minResources value with a bad suffix (IllegalArgumentException in GangValidator)",
                mpiJob(
                    "  runPolicy:\n    schedulingPolicy:\n      minResources:\n"
                        + "        memory: 1Gi*\n")),
            Code.SCHEMA,
            "spec.runPolicy.schedulingPolicy.minResources[memory]"),
        Arguments.of(
            Named.of(
                "a container resource with a bad suffix (IllegalArgumentException in"
                    + " PodTemplateRules)",
                mpiJob(
                    "  mpiReplicaSpecs:\n    Launcher:\n      replicas: 1\n      template:\n"
                        + "        spec:\n          containers:\n          - name: l\n"
                        + "            image: i\n            resources:\n"
                        + "              limits:\n                memory: 1Gx\n"
                        + "              requests:\n                memory: 1Gx\n")),
            Code.SCHEMA,
            "spec.mpiReplicaSpecs[Launcher].template.spec.containers[0].resources.limits[memory]"),
        Arguments.of(
            Named.of(
                "a volume without a name (NullPointerException in ReservedNames)",
                mpiJob(
                    "  mpiReplicaSpecs:\n    Launcher:\n      replicas: 1\n      template:\n"
                        + "        spec:\n          containers:\n          - name: l\n"
                        + "            image: i\n          volumes:\n          - emptyDir: {}\n")),
            Code.REQUIRED,
            "spec.mpiReplicaSpecs[Launcher].template.spec.volumes[0].name"),
        Arguments.of(
            Named.of(
                "a null container (NullPointerException in ReservedNames)",
                mpiJob(
                    "  mpiReplicaSpecs:\n    Launcher:\n      replicas: 1\n      template:\n"
                        + "        spec:\n          containers:\n          -\n")),
            Code.SCHEMA,
            "spec.mpiReplicaSpecs[Launcher].template.spec.containers[0]"),
        Arguments.of(
            Named.of(
                "a null Worker container (NullPointerException in MpiJobValidator)",
                mpiJob(
                    "  mpiReplicaSpecs:\n    Launcher:\n      replicas: 1\n      template:\n"
                        + "        spec:\n          containers:\n          - name: l\n"
                        + "            image: i\n    Worker:\n      replicas: 1\n"
                        + "      template:\n        spec:\n          containers:\n"
                        + "          -\n")),
            Code.SCHEMA,
            "spec.mpiReplicaSpecs[Worker].template.spec.containers[0]"),
        Arguments.of(
            Named.of(
                "a null value after --num-partitions (NullPointerException in DglJobValidator)",
                "apiVersion: qihoo.net/v1alpha1\nkind: DGLJob\nmetadata:\n  name: test\n"
                    + "  namespace: default\nspec:\n  dglReplicaSpecs:\n    Launcher:\n"
                    + "      template:\n        spec:\n          containers:\n"
                    + "          - name: dgl\n            image: i\n"
                    + "            args: [--num-partitions, null]\n    Worker:\n      replicas: 2\n"
                    + "      template:\n        spec:\n          containers:\n"
                    + "          - name: dgl\n            image: i\n"),
            Code.SCHEMA,
            "spec.dglReplicaSpecs[Launcher].template.spec.containers[0].args[1]"),
        Arguments.of(
            Named.of(
                "a container request that is no quantity (NumberFormatException in"
                    + " PodTemplateRules)",
                mpiJob(
                    "  mpiReplicaSpecs:\n    Launcher:\n      replicas: 1\n      template:\n"
                        + "        spec:\n          containers:\n          - name: l\n"
                        + "            image: i\n            resources:\n"
                        + "              requests: {cpu: graphsage}\n")),
            Code.SCHEMA,
            "spec.mpiReplicaSpecs[Launcher].template.spec.containers[0].resources.requests[cpu]"),
        Arguments.of(
            Named.of(
                "a TFJob replica without containers (NullPointerException in TfJobPlanner, from"
                    + " the TF_CONFIG size check)",
                "apiVersion: kubeflow.org/v1\nkind: TFJob\nmetadata:\n  name: cm\n"
                    + "  namespace: default\nspec:\n  tfReplicaSpecs:\n    Chief:\n"
                    + "      template:\n        spec:\n          containers:\n"
                    + "          - name: tensorflow\n            image: i\n    Worker:\n"
                    + "      replicas: 2\n      template:\n        spec:\n          containers:\n"),
            Code.REQUIRED,
            "spec.tfReplicaSpecs[Worker].template.spec.containers"),
        Arguments.of(
            Named.of(
                "a null Kueue queue name (NullPointerException in ReplicaPlan, found in CI)",
                pyTorchJob("    kueue.x-k8s.io/queue-name:\n")),
            Code.INVALID,
            "metadata.labels[kueue.x-k8s.io/queue-name]"),
        Arguments.of(
            Named.of(
                "annotations that are no map on an object passed through"
                    + " (UnsupportedOperationException in KrmCommand, found by a fuzzing run)",
                "apiVersion: example.com/v2\nkind: TFJob\nmetadata:\n  name: x\n"
                    + "  namespace: default\n  annotations: c15\n"),
            Code.INVALID,
            "metadata.annotations"));
  }

  /**
   * Another {@code kueue.x-k8s.io/*} label with a null value is the empty string the API server
   * would store; it threw a NullPointerException from ReplicaPlan as the queue name did.
   */
  @Test
  void aNullKueueLabelBesideAQueueNameCompiles() {
    CompileResult result =
        COMPILER.compile(
            List.of(
                new Source(
                    "input.yaml",
                    pyTorchJob(
                        "    kueue.x-k8s.io/queue-name: team-a\n"
                            + "    kueue.x-k8s.io/priority-class:\n"))),
            CompileOptions.defaults());
    assertThat(result.diagnostics()).filteredOn(Diagnostic::isError).isEmpty();
    assertThat(result.objects()).isNotEmpty();
  }

  /**
   * A request written with no value ({@code cpu:}) is 0, as apimachinery reads a null quantity; it
   * threw a NullPointerException from Quantities (found by the fuzzer: the committed input
   * mpijob-request-without-value).
   */
  @Test
  void aRequestWithoutAValueCompiles() {
    CompileResult result =
        COMPILER.compile(
            List.of(
                new Source(
                    "input.yaml",
                    mpiJob(
                        "  mpiReplicaSpecs:\n    Launcher:\n      replicas: 1\n      template:\n"
                            + "        spec:\n          containers:\n          - name: l\n"
                            + "            image: i\n            resources:\n"
                            + "              requests:\n                cpu:\n"))),
            CompileOptions.defaults());
    assertThat(result.diagnostics()).filteredOn(Diagnostic::isError).isEmpty();
  }

  @ParameterizedTest
  @MethodSource("findings")
  void compilesToDiagnostics(String yaml, Code code, String path) {
    CompileResult result =
        COMPILER.compile(List.of(new Source("input.yaml", yaml)), CompileOptions.defaults());
    assertThat(result.ok()).isFalse();
    assertThat(result.diagnostics())
        .filteredOn(Diagnostic::isError)
        .extracting(Diagnostic::code, Diagnostic::path)
        .contains(tuple(code, path));
  }

  /** A PyTorchJob with a Master and a Worker, and {@code labels} (indented lines). */
  private static String pyTorchJob(String labels) {
    return "apiVersion: kubeflow.org/v1\nkind: PyTorchJob\nmetadata:\n  name: test\n"
        + "  namespace: default\n  labels:\n"
        + labels
        + "spec:\n  pytorchReplicaSpecs:\n"
        + "    Master:\n      template:\n        spec:\n          containers:\n"
        + "          - {name: pytorch, image: i}\n"
        + "    Worker:\n      template:\n        spec:\n          containers:\n"
        + "          - {name: pytorch, image: i}\n";
  }

  private static String mpiJob(String spec) {
    return "apiVersion: kubeflow.org/v2beta1\nkind: MPIJob\nmetadata:\n  name: test\n"
        + "  namespace: default\nspec:\n"
        + spec;
  }
}
