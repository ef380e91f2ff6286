package dev.jobc.mpi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.jobc.bind.ObjectTrees;
import dev.jobc.conventions.MpiEra;
import dev.jobc.diag.Code;
import dev.jobc.diag.Finding;
import dev.jobc.options.CompileOptions;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Ports mpi-operator's {@code TestValidateMPIJob}: each case asserts (code, path) pairs only, as
 * upstream compares (Type, Field); wording is pinned once, in the golden error cases.
 */
class MpiJobValidatorTest {
  private static final String LAUNCHER =
      "    Launcher:\n      replicas: 1\n      restartPolicy: %s\n      template:\n"
          + "        spec:\n          containers:\n          - image: bar\n";
  private static final String WORKER =
      "    Worker:\n      replicas: %d\n      restartPolicy: Never\n      template:\n"
          + "        spec:\n          containers:\n          - image: bar\n";

  static Stream<Arguments> cases() {
    String valid =
        "spec:\n  slotsPerWorker: 2\n  mpiImplementation: %s\n  sshAuthMountPath: /home/mpiuser/.ssh\n"
            + "  runPolicy:\n    cleanPodPolicy: Running\n  mpiReplicaSpecs:\n";
    return Stream.of(
        Arguments.of(
            Named.of(
                "valid (intel)",
                job("foo", valid.formatted("Intel") + LAUNCHER.formatted("Never"))),
            List.of()),
        Arguments.of(
            Named.of(
                "valid with worker (mpich)",
                job(
                    "foo",
                    valid.formatted("MPICH")
                        + LAUNCHER.formatted("OnFailure")
                        + WORKER.formatted(3))),
            List.of()),
        Arguments.of(
            Named.of(
                "empty job",
                "apiVersion: kubeflow.org/v2beta1\nkind: MPIJob\nmetadata:\n  namespace: bar\n"),
            List.of(
                tuple(Code.REQUIRED, "metadata.name"),
                tuple(Code.REQUIRED, "spec.mpiReplicaSpecs"))),
        Arguments.of(
            Named.of(
                "invalid fields",
                job(
                    "this-name-is-waaaaaaaay-too-long-for-a-worker-hostname",
                    "spec:\n  mpiImplementation: Unknown\n  runPolicy:\n    cleanPodPolicy: unknown\n"
                        + "    ttlSecondsAfterFinished: -1\n    activeDeadlineSeconds: -1\n"
                        + "    backoffLimit: -1\n    managedBy: invalid.com/controller\n"
                        + "  mpiReplicaSpecs:\n"
                        + LAUNCHER.formatted("Never")
                        + WORKER.formatted(1000))),
            List.of(
                tuple(Code.INVALID, "metadata.name"),
                tuple(Code.NOT_SUPPORTED, "spec.runPolicy.cleanPodPolicy"),
                tuple(Code.INVALID, "spec.runPolicy.ttlSecondsAfterFinished"),
                tuple(Code.INVALID, "spec.runPolicy.activeDeadlineSeconds"),
                tuple(Code.INVALID, "spec.runPolicy.backoffLimit"),
                tuple(Code.NOT_SUPPORTED, "spec.runPolicy.managedBy"),
                tuple(Code.NOT_SUPPORTED, "spec.mpiImplementation"))),
        Arguments.of(
            Named.of("empty replica specs", job("foo", "spec:\n  mpiReplicaSpecs: {}\n")),
            List.of(tuple(Code.REQUIRED, "spec.mpiReplicaSpecs[Launcher]"))),
        Arguments.of(
            Named.of(
                "missing replica spec fields",
                job("foo", "spec:\n  mpiReplicaSpecs:\n    Launcher: {}\n    Worker: {}\n")),
            List.of(
                tuple(Code.REQUIRED, "spec.mpiReplicaSpecs[Launcher].template.spec.containers"),
                tuple(Code.REQUIRED, "spec.mpiReplicaSpecs[Worker].replicas"),
                tuple(Code.REQUIRED, "spec.mpiReplicaSpecs[Worker].template.spec.containers"))),
        Arguments.of(
            Named.of(
                "invalid replica fields",
                job(
                    "foo",
                    "spec:\n  mpiReplicaSpecs:\n"
                        + LAUNCHER.formatted("Always").replace("replicas: 1", "replicas: 2")
                        + WORKER.formatted(0).replace("Never", "Invalid"))),
            List.of(
                tuple(Code.INVALID, "spec.mpiReplicaSpecs[Launcher].replicas"),
                tuple(Code.NOT_SUPPORTED, "spec.mpiReplicaSpecs[Launcher].restartPolicy"),
                tuple(Code.INVALID, "spec.mpiReplicaSpecs[Worker].replicas"),
                tuple(Code.NOT_SUPPORTED, "spec.mpiReplicaSpecs[Worker].restartPolicy"))),
        Arguments.of(
            Named.of(
                "invalid mpiJob name",
                job("1-foo", "spec:\n  mpiReplicaSpecs:\n" + LAUNCHER.formatted("Never"))),
            List.of(tuple(Code.INVALID, "metadata.name"))),
        Arguments.of(
            Named.of(
                "slotsPerWorker 0 (upstream accepts it)",
                job(
                    "foo",
                    "spec:\n  slotsPerWorker: 0\n  mpiReplicaSpecs:\n"
                        + LAUNCHER.formatted("Never"))),
            List.of(tuple(Code.INVALID, "spec.slotsPerWorker"))),
        Arguments.of(
            Named.of(
                "StatefulSet name over 52 characters",
                job(
                    "a".repeat(46),
                    "spec:\n  mpiReplicaSpecs:\n"
                        + LAUNCHER.formatted("Never")
                        + WORKER.formatted(1))),
            List.of(tuple(Code.INVALID, "metadata.name"))),
        Arguments.of(
            Named.of(
                "46 characters are too many, 45 fit",
                job(
                    "a".repeat(45),
                    "spec:\n  mpiReplicaSpecs:\n"
                        + LAUNCHER.formatted("Never")
                        + WORKER.formatted(1))),
            List.of()),
        Arguments.of(
            Named.of(
                "ConfigMap would outgrow 1 MiB",
                job(
                    "foo",
                    "spec:\n  mpiReplicaSpecs:\n"
                        + LAUNCHER.formatted("Never")
                        + WORKER.formatted(50000))),
            List.of(tuple(Code.INVALID, "spec.mpiReplicaSpecs[Worker].replicas"))),
        Arguments.of(
            Named.of(
                "10000 workers still fit",
                job(
                    "foo",
                    "spec:\n  mpiReplicaSpecs:\n"
                        + LAUNCHER.formatted("Never")
                        + WORKER.formatted(10000))),
            List.of()));
  }

  @ParameterizedTest
  @MethodSource("cases")
  void reportsTheUpstreamFieldPaths(String yaml, List<?> expected) throws Exception {
    List<Finding> findings = MpiJobValidator.validate(model(yaml));
    assertThat(findings)
        .filteredOn(Finding::isError)
        .extracting(Finding::code, f -> f.path().toString())
        .containsExactlyInAnyOrderElementsOf(
            expected.stream().map(o -> (org.assertj.core.groups.Tuple) o).toList());
  }

  @Test
  void aV1alpha1TotalTooLargeIsReportedAtTheTotal() throws Exception {
    String template =
        "  template:\n    spec:\n      containers:\n      - name: w\n        image: bar\n";
    String gpus =
        "apiVersion: kubeflow.org/v1alpha1\nkind: MPIJob\nmetadata:\n  name: pi\n"
            + "  namespace: default\nspec:\n  gpus: 800000000\n  gpusPerNode: 8\n"
            + template;
    assertThat(MpiJobValidator.validate(model(gpus, MpiEra.V1ALPHA1)))
        .filteredOn(Finding::isError)
        .extracting(Finding::code, f -> f.path().toString())
        .containsExactly(tuple(Code.INVALID, "spec.gpus"));
    String units = gpus.replace("gpus", "processingUnits"); // and gpusPerNode
    assertThat(MpiJobValidator.validate(model(units, MpiEra.V1ALPHA1)))
        .filteredOn(Finding::isError)
        .extracting(Finding::code, f -> f.path().toString())
        .containsExactly(tuple(Code.INVALID, "spec.processingUnits"));
    String replicas =
        gpus.replace("  gpus: 800000000\n  gpusPerNode: 8\n", "  replicas: 100000000\n");
    assertThat(MpiJobValidator.validate(model(replicas, MpiEra.V1ALPHA1)))
        .filteredOn(Finding::isError)
        .extracting(Finding::code, f -> f.path().toString())
        .containsExactly(tuple(Code.INVALID, "spec.replicas"));
  }

  private static final String PI =
      "spec:\n  runPolicy:\n    ttlSecondsAfterFinished: %s\n  mpiReplicaSpecs:\n"
          + "    Launcher:\n      replicas: 1\n      template:\n        spec:\n%s"
          + "          containers:\n          - image: bar\n"
          + "    Worker:\n      replicas: 2\n%s      template:\n        spec:\n"
          + "          containers:\n          - image: bar\n";

  @Test
  void aLauncherWithoutItsTokenIsRefusedUnderKubexecOnly() throws Exception {
    String yaml =
        job("pi", PI.formatted("null", "          automountServiceAccountToken: false\n", ""));
    assertThat(MpiJobValidator.validate(model(yaml)))
        .filteredOn(Finding::isError)
        .extracting(Finding::code, f -> f.path().toString())
        .containsExactly(
            tuple(
                Code.FORBIDDEN,
                "spec.mpiReplicaSpecs[Launcher].template.spec.automountServiceAccountToken"));
    CompileOptions ssh =
        CompileOptions.defaults().toDraft().setText(Map.of("ssh-secret", "keys")).build();
    assertThat(MpiJobValidator.validate(model(yaml, MpiEra.V2BETA1, ssh)))
        .filteredOn(Finding::isError)
        .isEmpty();
    String on =
        job("pi", PI.formatted("null", "          automountServiceAccountToken: true\n", ""));
    assertThat(MpiJobValidator.validate(model(on))).filteredOn(Finding::isError).isEmpty();
  }

  @Test
  void aKueueQueueNameIsRefusedAtTheLabel() throws Exception {
    String yaml =
        job("pi", PI.formatted("null", "", ""))
            .replace(
                "  namespace: default\n",
                "  namespace: default\n  labels:\n    kueue.x-k8s.io/queue-name: q\n");
    assertThat(MpiJobValidator.validate(model(yaml)))
        .filteredOn(Finding::isError)
        .extracting(Finding::code, f -> f.path().toString())
        .containsExactly(tuple(Code.FORBIDDEN, "metadata.labels[kueue.x-k8s.io/queue-name]"));
  }

  @Test
  void gitOpsHazardsAreWarnedAtTheirFields() throws Exception {
    String yaml = job("pi", PI.formatted("60", "", "      restartPolicy: OnFailure\n"));
    assertThat(MpiJobValidator.validate(model(yaml)))
        .extracting(Finding::isError, f -> f.path().toString())
        .containsExactlyInAnyOrder(
            tuple(false, "spec.runPolicy.ttlSecondsAfterFinished"),
            tuple(false, "spec.mpiReplicaSpecs[Worker].restartPolicy"));
    // Bare worker Pods keep the replica's restart policy; no ttl, no warning.
    CompileOptions pods =
        CompileOptions.defaults().toDraft().setText(Map.of("workers", "pods")).build();
    String quiet = job("pi", PI.formatted("null", "", "      restartPolicy: OnFailure\n"));
    assertThat(MpiJobValidator.validate(model(quiet, MpiEra.V2BETA1, pods))).isEmpty();
    // The default (Never) is no choice of the user's: no warning either.
    assertThat(MpiJobValidator.validate(model(job("pi", PI.formatted("null", "", ""))))).isEmpty();
  }

  private static String job(String name, String spec) {
    return "apiVersion: kubeflow.org/v2beta1\nkind: MPIJob\nmetadata:\n  name: "
        + name
        + "\n  namespace: default\n"
        + spec;
  }

  static MpiJobModel model(String yaml) throws Exception {
    return model(yaml, MpiEra.V2BETA1);
  }

  static MpiJobModel model(String yaml, MpiEra era) throws Exception {
    return model(yaml, era, CompileOptions.defaults());
  }

  static MpiJobModel model(String yaml, MpiEra era, CompileOptions options) throws Exception {
    JsonNode tree = new YAMLMapper().readTree(yaml);
    MpiJob job = ObjectTrees.bind(tree, MpiJob.class);
    return MpiJobDefaults.apply(job, era, options);
  }
}
