package dev.jobc.mpi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.jobc.bind.ObjectTrees;
import dev.jobc.conventions.MpiEra;
import dev.jobc.diag.Finding;
import dev.jobc.diag.Severity;
import dev.jobc.options.CompileOptions;
import dev.jobc.options.OptionTable;
import java.util.List;
import java.util.stream.Stream;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Gang scheduling rules: (severity, path) pairs; wording is pinned in golden cases. */
class GangValidatorTest {
  private static final String POLICY = "spec.runPolicy.schedulingPolicy";

  static Stream<Arguments> cases() {
    return Stream.of(
        Arguments.of(Named.of("no policy, no scheduler", job("", "", "")), null, List.of()),
        Arguments.of(
            Named.of("policy without a scheduler", job("", "      minAvailable: 3\n", "")),
            null,
            List.of(tuple(Severity.WARNING, POLICY))),
        Arguments.of(
            Named.of(
                "an empty annotation turns the option off",
                job("    jobc.dev/gang-scheduler: \"\"\n", "      minAvailable: 3\n", "")),
            "volcano",
            List.of(tuple(Severity.WARNING, POLICY))),
        Arguments.of(
            Named.of("invalid annotation", job("    jobc.dev/gang-scheduler: Volcano\n", "", "")),
            null,
            List.of(tuple(Severity.ERROR, "metadata.annotations[jobc.dev/gang-scheduler]"))),
        Arguments.of(
            Named.of(
                "negative values are errors even without a scheduler",
                job(
                    "",
                    "      minAvailable: -1\n      scheduleTimeoutSeconds: -1\n"
                        + "      minResources:\n        cpu: -500m\n",
                    "")),
            null,
            List.of(
                tuple(Severity.ERROR, POLICY + ".minAvailable"),
                tuple(Severity.ERROR, POLICY + ".scheduleTimeoutSeconds"),
                tuple(Severity.ERROR, POLICY + ".minResources[cpu]"),
                tuple(Severity.WARNING, POLICY))),
        Arguments.of(
            Named.of("minAvailable 0", job("", "      minAvailable: 0\n", "")),
            "volcano",
            List.of(tuple(Severity.WARNING, POLICY + ".minAvailable"))),
        Arguments.of(
            Named.of("minAvailable 3 of 3 pods", job("", "      minAvailable: 3\n", "")),
            "volcano",
            List.of()),
        Arguments.of(
            Named.of("minAvailable 4 of 3 pods", job("", "      minAvailable: 4\n", "")),
            "volcano",
            List.of(tuple(Severity.WARNING, POLICY + ".minAvailable"))),
        Arguments.of(
            Named.of(
                "Volcano ignores scheduleTimeoutSeconds",
                job("", "      scheduleTimeoutSeconds: 10\n      queue: q\n", "")),
            "volcano",
            List.of(tuple(Severity.WARNING, POLICY + ".scheduleTimeoutSeconds"))),
        Arguments.of(
            Named.of(
                "scheduler-plugins ignores queue and priorityClass",
                job("", "      queue: q\n      priorityClass: high\n", "")),
            "scheduler-plugins",
            List.of(
                tuple(Severity.WARNING, POLICY + ".queue"),
                tuple(Severity.WARNING, POLICY + ".priorityClass"))),
        Arguments.of(
            Named.of(
                "another schedulerName is replaced",
                job("", "", "          schedulerName: default-scheduler\n")),
            "volcano",
            List.of(
                tuple(
                    Severity.WARNING, "spec.mpiReplicaSpecs[Worker].template.spec.schedulerName"))),
        Arguments.of(
            Named.of(
                "the gang scheduler's own name is kept silently",
                job("", "", "          schedulerName: scheduler-plugins-scheduler\n")),
            "scheduler-plugins",
            List.of()),
        Arguments.of(
            Named.of(
                "different priority classes with a cut",
                job("", "      minAvailable: 2\n", "          priorityClassName: low\n")),
            "volcano",
            List.of(tuple(Severity.WARNING, POLICY + ".minAvailable"))),
        Arguments.of(
            Named.of(
                "different priority classes, given minResources",
                job(
                    "",
                    "      minAvailable: 2\n      minResources:\n        cpu: 1\n",
                    "          priorityClassName: low\n")),
            "volcano",
            List.of()));
  }

  @ParameterizedTest
  @MethodSource("cases")
  void findings(String yaml, String gangScheduler, List<Tuple> expected) throws Exception {
    CompileOptions options =
        CompileOptions.defaults().with(OptionTable.GANG_SCHEDULER, gangScheduler);
    MpiJob job = ObjectTrees.bind(new YAMLMapper().readTree(yaml), MpiJob.class);
    List<Finding> findings =
        MpiJobValidator.validate(MpiJobDefaults.apply(job, MpiEra.V2BETA1, options));
    assertThat(findings)
        .extracting(Finding::severity, f -> f.path().toString())
        .containsExactlyInAnyOrderElementsOf(expected);
  }

  /** A valid job with 2 workers, the given annotations, schedulingPolicy and worker spec lines. */
  private static String job(String annotations, String policy, String workerSpec) {
    return "apiVersion: kubeflow.org/v2beta1\nkind: MPIJob\nmetadata:\n  name: foo\n"
        + "  namespace: default\n"
        + (annotations.isEmpty() ? "" : "  annotations:\n" + annotations)
        + "spec:\n"
        + (policy.isEmpty() ? "" : "  runPolicy:\n    schedulingPolicy:\n" + policy)
        + "  mpiReplicaSpecs:\n"
        + "    Launcher:\n      replicas: 1\n      template:\n        spec:\n"
        + "          priorityClassName: high\n"
        + "          containers:\n          - name: l\n            image: bar\n"
        + "    Worker:\n      replicas: 2\n      template:\n        spec:\n"
        + workerSpec
        + "          containers:\n          - name: w\n            image: bar\n";
  }
}
