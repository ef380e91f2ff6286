package dev.jobc.dgl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.jobc.bind.ObjectTrees;
import dev.jobc.diag.Code;
import dev.jobc.diag.Finding;
import dev.jobc.options.CompileOptions;
import dev.jobc.options.OptionTable;
import dev.jobc.options.WorkerKind;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Each case asserts (code, path) pairs only; wording is pinned in the golden error cases. */
class DglJobValidatorTest {
  private static final String LAUNCHER =
      "    Launcher:\n      template:\n        spec:\n          containers:\n"
          + "          - name: l\n            image: i\n            command: [dglrun]\n"
          + "            args: [--num-partitions, \"%s\"]\n";
  private static final String WORKER =
      "    Worker:\n      replicas: %d\n      template:\n        spec:\n          containers:\n"
          + "          - name: w\n            image: i\n";
  private static final String ARGS =
      "spec.dglReplicaSpecs[Launcher].template.spec.containers[0].args";

  static Stream<Arguments> cases() {
    return Stream.of(
        named(
            "valid DGL-API",
            job("g", "", LAUNCHER.formatted("2") + WORKER.formatted(2)),
            List.of()),
        named(
            "no token where kubexec.sh runs: the launcher, and the Worker template the"
                + " partitioner runs",
            job(
                "g",
                "",
                LAUNCHER
                        .formatted("2")
                        .replace(
                            "        spec:\n",
                            "        spec:\n          automountServiceAccountToken: false\n")
                    + WORKER
                        .formatted(2)
                        .replace(
                            "        spec:\n",
                            "        spec:\n          automountServiceAccountToken: false\n")),
            List.of(
                tuple(
                    Code.FORBIDDEN,
                    "spec.dglReplicaSpecs[Launcher].template.spec.automountServiceAccountToken"),
                tuple(
                    Code.FORBIDDEN,
                    "spec.dglReplicaSpecs[Worker].template.spec.automountServiceAccountToken"))),
        named(
            "DistParMETIS workers run no kubexec.sh: they may go without a token",
            declared(
                job(
                    "g",
                    "  partitionMode: DistParMETIS\n",
                    LAUNCHER.formatted("1")
                        + WORKER
                            .formatted(1)
                            .replace(
                                "        spec:\n",
                                "        spec:\n          automountServiceAccountToken: false\n")),
                "true"),
            List.of()),
        named(
            "valid ParMETIS",
            job("g", "  partitionMode: ParMETIS\n", LAUNCHER.formatted("1") + WORKER.formatted(1)),
            List.of()),
        named(
            "valid DistParMETIS, 11 workers",
            declared(
                job(
                    "g",
                    "  partitionMode: DistParMETIS\n",
                    LAUNCHER.formatted("11") + WORKER.formatted(11)),
                "true"),
            List.of()),
        named(
            "DistParMETIS without images that implement it",
            job(
                "g",
                "  partitionMode: DistParMETIS\n",
                LAUNCHER.formatted("1") + WORKER.formatted(1)),
            List.of(tuple(Code.INVALID, "spec.partitionMode"))),
        named(
            "DistParMETIS with images declared not to implement it",
            declared(
                job(
                    "g",
                    "  partitionMode: DistParMETIS\n",
                    LAUNCHER.formatted("1") + WORKER.formatted(1)),
                "false"),
            List.of(tuple(Code.INVALID, "spec.partitionMode"))),
        named(
            "the DistParMETIS declaration elsewhere is ignored, not a boolean is invalid",
            declared(job("g", "", LAUNCHER.formatted("1") + WORKER.formatted(1)), "yes"),
            List.of(tuple(Code.INVALID, "metadata.annotations[jobc.dev/dist-parmetis-image]"))),
        named(
            "the DistParMETIS declaration in another mode",
            declared(job("g", "", LAUNCHER.formatted("1") + WORKER.formatted(1)), "true"),
            List.of(tuple(Code.NOTE, "metadata.annotations[jobc.dev/dist-parmetis-image]"))),
        named(
            "valid Skip without workers or partitions",
            job("g", "  partitionMode: Skip\n", LAUNCHER.formatted("7")),
            List.of()),
        named(
            "unknown mode and clean policy",
            job(
                "g",
                "  partitionMode: Auto\n  cleanPodPolicy: Never\n  slotsPerWorker: 0\n",
                LAUNCHER.formatted("2") + WORKER.formatted(2)),
            List.of(
                tuple(Code.INVALID, "spec.slotsPerWorker"),
                tuple(Code.NOT_SUPPORTED, "spec.partitionMode"),
                tuple(Code.NOT_SUPPORTED, "spec.cleanPodPolicy"))),
        named(
            "DGL-API without worker",
            job("g", "", LAUNCHER.formatted("2")),
            List.of(tuple(Code.REQUIRED, "spec.dglReplicaSpecs[Worker]"))),
        named(
            "DistParMETIS without worker",
            job("g", "  partitionMode: DistParMETIS\n", LAUNCHER.formatted("2")),
            List.of(
                tuple(Code.INVALID, "spec.partitionMode"),
                tuple(Code.REQUIRED, "spec.dglReplicaSpecs[Worker]"))),
        named(
            "num-partitions differs from workers",
            job("g", "", LAUNCHER.formatted("3") + WORKER.formatted(2)),
            List.of(tuple(Code.INVALID, ARGS + "[1]"))),
        named(
            "no replica specs",
            "apiVersion: qihoo.net/v1alpha1\nkind: DGLJob\nmetadata:\n  namespace: n\n",
            List.of(
                tuple(Code.REQUIRED, "metadata.name"),
                tuple(Code.REQUIRED, "spec.dglReplicaSpecs"))),
        named(
            "worker counts and containers",
            declared(
                job(
                    "g",
                    "  partitionMode: DistParMETIS\n",
                    LAUNCHER.formatted("2")
                        + "    Worker:\n      replicas: 0\n"
                        + "    Partitioner:\n      replicas: 1\n"),
                "true"),
            List.of(
                tuple(Code.INVALID, "spec.dglReplicaSpecs[Worker].replicas"),
                tuple(Code.REQUIRED, "spec.dglReplicaSpecs[Worker].template.spec.containers"),
                tuple(Code.NOTE, "spec.dglReplicaSpecs[Partitioner]"))),
        named(
            "partitioner with a template",
            job(
                "g",
                "",
                LAUNCHER.formatted("2")
                    + WORKER.formatted(2)
                    + "    Partitioner:\n      replicas: 3\n      template: {}\n"),
            List.of(
                tuple(Code.INVALID, "spec.dglReplicaSpecs[Partitioner].replicas"),
                tuple(Code.FORBIDDEN, "spec.dglReplicaSpecs[Partitioner].template"))),
        named(
            "launcher without containers and two replicas",
            job(
                "g",
                "  partitionMode: Skip\n",
                "    Launcher:\n      replicas: 2\n      template:\n        spec:\n"
                    + "          containers: []\n"),
            List.of(
                tuple(Code.INVALID, "spec.dglReplicaSpecs[Launcher].replicas"),
                tuple(Code.REQUIRED, "spec.dglReplicaSpecs[Launcher].template.spec.containers"))),
        named(
            "worker-10 too long",
            declared(
                job(
                    "a".repeat(54),
                    "  partitionMode: DistParMETIS\n",
                    LAUNCHER.formatted("11") + WORKER.formatted(11)),
                "true"),
            List.of(tuple(Code.INVALID, "metadata.name"))),
        named(
            "partitioner too long",
            job("a".repeat(52), "", LAUNCHER.formatted("1") + WORKER.formatted(1)),
            List.of(tuple(Code.INVALID, "metadata.name"))),
        named(
            "Skip allows names that only the launcher must fit",
            job("a".repeat(54), "  partitionMode: Skip\n", LAUNCHER.formatted("1")),
            List.of()),
        named(
            "Skip: jobc adds nothing to the launcher, so nothing is reserved",
            job(
                "g",
                "  partitionMode: Skip\n",
                "    Launcher:\n      template:\n        spec:\n"
                    + "          initContainers:\n          - name: kubectl-download\n"
                    + "            image: i\n"
                    + "          containers:\n          - name: l\n            image: i\n"
                    + "            volumeMounts:\n            - name: kube-volume\n"
                    + "              mountPath: /opt/kube\n"
                    + "          volumes:\n          - name: kube-volume\n"
                    + "            emptyDir: {}\n"),
            List.of()),
        named(
            "workers and partitioner mount nothing at the dataset path",
            job(
                "g",
                "",
                LAUNCHER.formatted("1")
                    + WORKER.formatted(1)
                    + "            volumeMounts:\n            - name: dataset-volume\n"
                    + "              mountPath: /dgl_workspace/dataset\n"
                    + "          volumes:\n          - name: dataset-volume\n"
                    + "            persistentVolumeClaim: {claimName: partitions}\n"),
            List.of()),
        named(
            "kubectl is mounted in the partitioner, which runs the Worker template",
            job(
                "g",
                "",
                LAUNCHER.formatted("1")
                    + WORKER.formatted(1)
                    + "            volumeMounts:\n            - name: tools\n"
                    + "              mountPath: /opt/kube\n"
                    + "          volumes:\n          - name: tools\n            emptyDir: {}\n"),
            List.of(
                tuple(
                    Code.DUPLICATE,
                    "spec.dglReplicaSpecs[Worker].template.spec.containers[0]"
                        + ".volumeMounts[0].mountPath"))),
        named(
            "DistParMETIS has no partitioner: /opt/kube is free on workers",
            declared(
                job(
                    "g",
                    "  partitionMode: DistParMETIS\n",
                    LAUNCHER.formatted("1")
                        + WORKER.formatted(1)
                        + "            volumeMounts:\n            - name: tools\n"
                        + "              mountPath: /opt/kube\n"
                        + "          volumes:\n          - name: tools\n"
                        + "            emptyDir: {}\n"),
                "true"),
            List.of()),
        named(
            "reserved names",
            job(
                "g",
                "",
                "    Launcher:\n      template:\n        spec:\n"
                    + "          initContainers:\n          - name: kubectl-download\n"
                    + "            image: i\n"
                    + "          containers:\n          - name: l\n            image: i\n"
                    + "            volumeMounts:\n            - name: kube-volume\n"
                    + "              mountPath: /opt/kube\n"
                    + "          volumes:\n          - name: kube-volume\n"
                    + "            emptyDir: {}\n"),
            List.of(
                tuple(Code.REQUIRED, "spec.dglReplicaSpecs[Worker]"),
                tuple(
                    Code.DUPLICATE, "spec.dglReplicaSpecs[Launcher].template.spec.volumes[0].name"),
                tuple(
                    Code.DUPLICATE,
                    "spec.dglReplicaSpecs[Launcher].template.spec.initContainers[0].name"),
                tuple(
                    Code.DUPLICATE,
                    "spec.dglReplicaSpecs[Launcher].template.spec.containers[0]"
                        + ".volumeMounts[0].mountPath"))));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void findings(String yaml, List<org.assertj.core.groups.Tuple> expected) throws Exception {
    JsonNode tree = new YAMLMapper().readTree(yaml);
    DglJob job = ObjectTrees.bind(tree, DglJob.class);
    List<Finding> findings =
        DglJobValidator.validate(DglJobDefaults.apply(job, CompileOptions.defaults()));
    assertThat(findings)
        .extracting(Finding::code, f -> f.path().toString())
        .containsExactlyInAnyOrderElementsOf(expected);
  }

  @org.junit.jupiter.api.Test
  void statefulSetLimitAppliesOnlyToStatefulSetWorkers() throws Exception {
    String yaml =
        declared(
            job(
                "a".repeat(46),
                "  partitionMode: DistParMETIS\n",
                LAUNCHER.formatted("1") + WORKER.formatted(1)),
            "true");
    DglJob job = ObjectTrees.bind(new YAMLMapper().readTree(yaml), DglJob.class);
    assertThat(DglJobValidator.validate(DglJobDefaults.apply(job, CompileOptions.defaults())))
        .extracting(Finding::code, f -> f.path().toString())
        .containsExactly(tuple(Code.INVALID, "metadata.name"));
    assertThat(
            DglJobValidator.validate(
                DglJobDefaults.apply(
                    job, CompileOptions.defaults().with(OptionTable.WORKERS, WorkerKind.PODS))))
        .isEmpty();
  }

  private static Arguments named(String name, String yaml, List<?> expected) {
    return Arguments.of(Named.of(name, yaml), expected);
  }

  /** {@code yaml} with the annotation that declares images implementing DistParMETIS. */
  private static String declared(String yaml, String value) {
    return yaml.replace(
        "metadata:\n",
        "metadata:\n  annotations: {jobc.dev/dist-parmetis-image: \"" + value + "\"}\n");
  }

  private static String job(String name, String spec, String replicas) {
    return "apiVersion: qihoo.net/v1alpha1\nkind: DGLJob\nmetadata:\n  name: "
        + name
        + "\n  namespace: n\nspec:\n"
        + spec
        + "  dglReplicaSpecs:\n"
        + replicas;
  }
}
