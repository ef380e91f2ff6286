package dev.jobc.mpi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.jobc.bind.ObjectTrees;
import dev.jobc.conventions.MpiEra;
import dev.jobc.diag.Code;
import dev.jobc.diag.Finding;
import dev.jobc.diag.Severity;
import dev.jobc.model.ReplicaSpec;
import dev.jobc.options.CompileOptions;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Toleration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * mpi-operator's defaults per MPIJob version, each against a minimal job and against a job that
 * writes the field (the user's value wins), and the version conversions' own rules.
 */
class MpiJobDefaultsTest {
  private static final String CONTAINER = "          containers:\n          - image: bar\n";
  private static final String REPLICAS =
      "  mpiReplicaSpecs:\n    Launcher:\n      template:\n        spec:\n"
          + CONTAINER
          + "    Worker:\n      replicas: 2\n      template:\n        spec:\n"
          + CONTAINER;

  /** A v1alpha1 template written for GPU workers, with the launcher's command. */
  private static final String V1ALPHA1_TEMPLATE =
      """
        template:
          spec:
            containers:
            - name: pi
              image: bar
              command: [mpirun, pi]
              resources:
                limits:
                  nvidia.com/gpu: 1
                  memory: 1Gi
      """;

  @Test
  void v2beta1DefaultsAMinimalJob() throws Exception {
    MpiJobModel m = model(MpiEra.V2BETA1, "spec:\n" + REPLICAS);
    assertThat(m.slotsPerWorker()).isEqualTo(1);
    assertThat(m.cleanPodPolicy()).isEqualTo("None");
    assertThat(m.sshAuthMountPath()).isEqualTo("/root/.ssh");
    assertThat(m.implementation()).isEqualTo("OpenMPI");
    assertThat(m.launcherCreationPolicy()).isEqualTo("AtStartup");
    assertThat(m.backoffLimit()).isNull();
    assertThat(m.runLauncherAsWorker()).isFalse();
    assertThat(m.suspend()).isFalse();
    assertThat(m.launcher())
        .extracting(ReplicaSpec::replicas, ReplicaSpec::restartPolicy)
        .containsExactly(1, "OnFailure");
    assertThat(m.worker())
        .extracting(ReplicaSpec::replicas, ReplicaSpec::restartPolicy)
        .containsExactly(2, "Never");
    assertThat(m.paths().cleanPodPolicy()).hasToString("spec.runPolicy.cleanPodPolicy");
    assertThat(m.paths().implementation()).hasToString("spec.mpiImplementation");
    assertThat(m.paths().workerCount()).hasToString("spec.mpiReplicaSpecs[Worker].replicas");
    assertThat(m.findings()).isEmpty();
  }

  @Test
  void v2beta1KeepsWhatTheUserWrote() throws Exception {
    String spec =
        """
        spec:
          slotsPerWorker: 4
          runLauncherAsWorker: true
          sshAuthMountPath: /home/mpiuser/.ssh
          mpiImplementation: Intel
          launcherCreationPolicy: WaitForWorkersReady
          runPolicy:
            cleanPodPolicy: Running
            backoffLimit: 3
            suspend: true
            managedBy: kueue.x-k8s.io/multikueue
          mpiReplicaSpecs:
            Launcher:
              replicas: 2
              restartPolicy: Never
            Worker:
              restartPolicy: OnFailure
        """;
    MpiJobModel m = model(MpiEra.V2BETA1, spec);
    assertThat(m.slotsPerWorker()).isEqualTo(4);
    assertThat(m.runLauncherAsWorker()).isTrue();
    assertThat(m.sshAuthMountPath()).isEqualTo("/home/mpiuser/.ssh");
    assertThat(m.implementation()).isEqualTo("Intel");
    assertThat(m.launcherCreationPolicy()).isEqualTo("WaitForWorkersReady");
    assertThat(m.cleanPodPolicy()).isEqualTo("Running");
    assertThat(m.backoffLimit()).isEqualTo(3);
    assertThat(m.suspend()).isTrue();
    assertThat(m.managedBy()).isEqualTo("kueue.x-k8s.io/multikueue");
    assertThat(m.launcher())
        .extracting(ReplicaSpec::replicas, ReplicaSpec::restartPolicy)
        .containsExactly(2, "Never");
    // Unlike upstream (0), a Worker without replicas keeps no count for the validator to name.
    assertThat(m.worker())
        .extracting(ReplicaSpec::replicas, ReplicaSpec::restartPolicy)
        .containsExactly(null, "OnFailure");
  }

  @Test
  void v2beta1EmptyStringsAreUnset() throws Exception {
    String spec =
        """
        spec:
          sshAuthMountPath: ""
          mpiImplementation: ""
          launcherCreationPolicy: ""
          runPolicy:
            cleanPodPolicy: ""
          mpiReplicaSpecs:
            Launcher:
              restartPolicy: ""
        """;
    MpiJobModel m = model(MpiEra.V2BETA1, spec);
    assertThat(m.sshAuthMountPath()).isEqualTo("/root/.ssh");
    assertThat(m.implementation()).isEqualTo("OpenMPI");
    assertThat(m.launcherCreationPolicy()).isEqualTo("AtStartup");
    assertThat(m.cleanPodPolicy()).isEqualTo("None");
    assertThat(m.launcher().restartPolicy()).isEqualTo("OnFailure");
  }

  @Test
  void jobWithoutSpecGetsTheDefaultsAndNoReplicaSpecs() throws Exception {
    MpiJobModel m = model(MpiEra.V2BETA1, "");
    assertThat(m.replicaSpecs()).isNull();
    assertThat(m.workerReplicas()).isZero();
    assertThat(m.slotsPerWorker()).isEqualTo(1);
    assertThat(m.cleanPodPolicy()).isEqualTo("None");
    assertThat(m.implementation()).isEqualTo("OpenMPI");
    assertThat(m.name()).isEqualTo("pi");
    assertThat(m.namespace()).isEqualTo("ns");
  }

  @Test
  void v1DefaultsAMinimalJob() throws Exception {
    MpiJobModel m = model(MpiEra.V1, "spec:\n" + REPLICAS);
    assertThat(m.slotsPerWorker()).isEqualTo(1);
    assertThat(m.cleanPodPolicy()).isEqualTo("None");
    assertThat(m.sshAuthMountPath()).isEqualTo("/root/.ssh");
    assertThat(m.implementation()).isEqualTo("OpenMPI");
    assertThat(m.launcherCreationPolicy()).isEqualTo("AtStartup");
    assertThat(m.backoffLimit()).isNull();
    assertThat(m.launcher())
        .extracting(ReplicaSpec::replicas, ReplicaSpec::restartPolicy)
        .containsExactly(1, "Never");
    assertThat(m.worker())
        .extracting(ReplicaSpec::replicas, ReplicaSpec::restartPolicy)
        .containsExactly(2, "Never");
    assertThat(m.paths().cleanPodPolicy()).hasToString("spec.runPolicy.cleanPodPolicy");
  }

  @Test
  void v1KeepsWhatTheUserWroteAndSpecCleanPodPolicyWins() throws Exception {
    String spec =
        """
        spec:
          slotsPerWorker: 3
          cleanPodPolicy: Running
          mainContainer: mpi
          runPolicy:
            cleanPodPolicy: All
            backoffLimit: 2
            activeDeadlineSeconds: 600
            ttlSecondsAfterFinished: 60
          mpiReplicaSpecs:
            Launcher:
              restartPolicy: OnFailure
            Worker:
              replicas: 4
              restartPolicy: OnFailure
        """;
    MpiJobModel m = model(MpiEra.V1, spec);
    assertThat(m.slotsPerWorker()).isEqualTo(3);
    assertThat(m.cleanPodPolicy()).isEqualTo("Running");
    assertThat(m.paths().cleanPodPolicy()).hasToString("spec.cleanPodPolicy");
    assertThat(m.mainContainer()).isEqualTo("mpi");
    assertThat(m.backoffLimit()).isEqualTo(2);
    assertThat(m.activeDeadlineSeconds()).isEqualTo(600L);
    assertThat(m.ttlSecondsAfterFinished()).isEqualTo(60);
    assertThat(m.launcher().restartPolicy()).isEqualTo("OnFailure");
    assertThat(m.worker())
        .extracting(ReplicaSpec::replicas, ReplicaSpec::restartPolicy)
        .containsExactly(4, "OnFailure");
  }

  @Test
  void v1RunPolicyCleanPodPolicyWhenSpecHasNone() throws Exception {
    MpiJobModel m = model(MpiEra.V1, "spec:\n  runPolicy:\n    cleanPodPolicy: All\n" + REPLICAS);
    assertThat(m.cleanPodPolicy()).isEqualTo("All");
    assertThat(m.paths().cleanPodPolicy()).hasToString("spec.runPolicy.cleanPodPolicy");
  }

  @Test
  void v1alpha2DefaultsAMinimalJob() throws Exception {
    MpiJobModel m = model(MpiEra.V1ALPHA2, "spec:\n" + REPLICAS);
    assertThat(m.slotsPerWorker()).isEqualTo(1);
    assertThat(m.backoffLimit()).isEqualTo(6);
    assertThat(m.cleanPodPolicy()).isEqualTo("None");
    assertThat(m.implementation()).isEqualTo("OpenMPI");
    assertThat(m.sshAuthMountPath()).isEqualTo("/root/.ssh");
    assertThat(m.launcherCreationPolicy()).isEqualTo("AtStartup");
    assertThat(m.launcher())
        .extracting(ReplicaSpec::replicas, ReplicaSpec::restartPolicy)
        .containsExactly(1, "OnFailure");
    assertThat(m.worker())
        .extracting(ReplicaSpec::replicas, ReplicaSpec::restartPolicy)
        .containsExactly(2, "Always");
    assertThat(m.paths().backoffLimit()).hasToString("spec.backoffLimit");
    assertThat(m.paths().implementation()).hasToString("spec.mpiDistribution");
    assertThat(m.findings()).isEmpty();
  }

  @Test
  void v1alpha2KeepsWhatTheUserWrote() throws Exception {
    String spec =
        """
        spec:
          slotsPerWorker: 2
          backoffLimit: 1
          activeDeadlineSeconds: 30
          cleanPodPolicy: Running
          mpiDistribution: MPICH
          mpiReplicaSpecs:
            Launcher:
              restartPolicy: Never
        """;
    MpiJobModel m = model(MpiEra.V1ALPHA2, spec);
    assertThat(m.slotsPerWorker()).isEqualTo(2);
    assertThat(m.backoffLimit()).isEqualTo(1);
    assertThat(m.activeDeadlineSeconds()).isEqualTo(30L);
    assertThat(m.cleanPodPolicy()).isEqualTo("Running");
    assertThat(m.paths().cleanPodPolicy()).hasToString("spec.cleanPodPolicy");
    assertThat(m.implementation()).isEqualTo("MPICH");
    assertThat(m.launcher().restartPolicy()).isEqualTo("Never");
    assertThat(m.findings()).isEmpty();
  }

  @Test
  void v1alpha2RunPolicyOverridesSpecWithAWarning() throws Exception {
    String spec =
        """
        spec:
          backoffLimit: 2
          activeDeadlineSeconds: 100
          runPolicy:
            backoffLimit: 5
            activeDeadlineSeconds: 200
        """;
    MpiJobModel m = model(MpiEra.V1ALPHA2, spec);
    assertThat(m.backoffLimit()).isEqualTo(5);
    assertThat(m.activeDeadlineSeconds()).isEqualTo(200L);
    assertThat(m.paths().backoffLimit()).hasToString("spec.runPolicy.backoffLimit");
    assertThat(m.paths().activeDeadlineSeconds())
        .hasToString("spec.runPolicy.activeDeadlineSeconds");
    assertThat(m.findings())
        .extracting(Finding::severity, f -> f.path().toString(), Finding::message)
        .containsExactly(
            tuple(
                Severity.WARNING,
                "spec.runPolicy",
                "overrides spec.backoffLimit and spec.activeDeadlineSeconds"
                    + " (runPolicy wins in v1alpha2)"));
  }

  @Test
  void v1alpha2RunPolicyAloneWinsOverTheDefaultWithoutAWarning() throws Exception {
    MpiJobModel m = model(MpiEra.V1ALPHA2, "spec:\n  runPolicy:\n    backoffLimit: 0\n");
    assertThat(m.backoffLimit()).isZero();
    assertThat(m.paths().backoffLimit()).hasToString("spec.runPolicy.backoffLimit");
    assertThat(m.findings()).isEmpty();
  }

  @ParameterizedTest
  @CsvSource({
    "OpenMPI, OpenMPI",
    "IntelMPI, Intel",
    "MPICH, MPICH",
    "OpenMPI5, OpenMPI5",
    "'', ''"
  })
  void v1alpha2MapsMpiDistributionAndKeepsAnUnknownOneAsWritten(String written, String expected)
      throws Exception {
    MpiJobModel m =
        model(MpiEra.V1ALPHA2, "spec:\n  mpiDistribution: \"" + written + "\"\n" + REPLICAS);
    assertThat(m.implementation()).isEqualTo(expected);
  }

  @Test
  void v1alpha1SplitsTheTemplateInTotalMode() throws Exception {
    MpiJobModel m = model(MpiEra.V1ALPHA1, "spec:\n  gpus: 16\n" + V1ALPHA1_TEMPLATE);
    assertThat(m.launcher())
        .extracting(ReplicaSpec::replicas, ReplicaSpec::restartPolicy)
        .containsExactly(1, "OnFailure");
    Container launcher = m.launcher().template().getSpec().getContainers().get(0);
    assertThat(launcher.getResources()).isNull();
    assertThat(launcher.getCommand()).containsExactly("mpirun", "pi");
    assertThat(m.worker())
        .extracting(ReplicaSpec::replicas, ReplicaSpec::restartPolicy)
        .containsExactly(2, "Always");
    Container worker = m.worker().template().getSpec().getContainers().get(0);
    assertThat(worker.getCommand()).containsExactly("sleep");
    assertThat(worker.getArgs()).containsExactly("365d");
    assertThat(worker.getResources().getLimits())
        .containsExactlyInAnyOrderEntriesOf(
            Map.of("nvidia.com/gpu", new Quantity("8"), "memory", new Quantity("1Gi")));
    assertThat(m.slotsPerWorker()).isEqualTo(8);
    assertThat(m.workerTotal()).isEqualTo(16);
    assertThat(m.paths().workerCount()).hasToString("spec.gpus");
    assertThat(m.cleanPodPolicy()).isEqualTo("All");
    assertThat(m.backoffLimit()).isEqualTo(6);
    assertThat(m.implementation()).isEqualTo("OpenMPI");
    assertThat(m.sshAuthMountPath()).isEqualTo("/root/.ssh");
    assertThat(m.findings()).isEmpty();
  }

  @Test
  void v1alpha1ReplicasModeKeepsTheTemplateLimitAndDefaultsSlotsToOne() throws Exception {
    String template = V1ALPHA1_TEMPLATE.replace("nvidia.com/gpu: 1\n", "");
    MpiJobModel m = model(MpiEra.V1ALPHA1, "spec:\n  replicas: 3\n" + template);
    assertThat(m.worker().replicas()).isEqualTo(3);
    assertThat(m.worker().template().getSpec().getContainers().get(0).getResources().getLimits())
        .containsExactly(Map.entry("memory", new Quantity("1Gi")));
    assertThat(m.slotsPerWorker()).isEqualTo(1);
    assertThat(m.workerTotal()).isNull();
    assertThat(m.paths().workerCount()).hasToString("spec.replicas");
  }

  @Test
  void v1alpha1KeepsWhatTheUserWrote() throws Exception {
    String spec =
        "spec:\n  gpus: 16\n  slotsPerWorker: 2\n  backoffLimit: 1\n  activeDeadlineSeconds: 9\n"
            + "  launcherOnMaster: true\n"
            + V1ALPHA1_TEMPLATE
            + "      restartPolicy: Never\n";
    MpiJobModel m = model(MpiEra.V1ALPHA1, spec);
    assertThat(m.slotsPerWorker()).isEqualTo(2);
    assertThat(m.backoffLimit()).isEqualTo(1);
    assertThat(m.activeDeadlineSeconds()).isEqualTo(9L);
    assertThat(m.launcher().restartPolicy()).isEqualTo("Never");
    assertThat(m.worker().restartPolicy()).isEqualTo("Always");
    assertThat(m.launcher().template().getSpec().getTolerations())
        .extracting(Toleration::getKey)
        .containsExactly("node-role.kubernetes.io/master", "node-role.kubernetes.io/control-plane");
    assertThat(m.worker().template().getSpec().getTolerations()).isNullOrEmpty();
  }

  @Test
  void v1alpha1PackingErrorsBecomeFindings() throws Exception {
    MpiJobModel m = model(MpiEra.V1ALPHA1, "spec:\n  gpus: 12\n" + V1ALPHA1_TEMPLATE);
    assertThat(m.worker().replicas()).isNull();
    assertThat(m.slotsPerWorker()).isEqualTo(1);
    assertThat(m.findings())
        .extracting(Finding::severity, f -> f.path().toString())
        .containsExactly(tuple(Severity.ERROR, "spec.gpus"));
  }

  /** The DGLJob-only declaration is known (no unknown-annotation error) but forbidden here. */
  @Test
  void theDistParMetisDeclarationIsForbiddenOnAnMpiJob() throws Exception {
    MpiJobModel m =
        model(
            MpiEra.V2BETA1,
            "  annotations: {jobc.dev/dist-parmetis-image: \"true\"}\nspec:\n" + REPLICAS);
    assertThat(m.findings())
        .extracting(Finding::code, f -> f.path().toString())
        .containsExactly(
            tuple(Code.FORBIDDEN, "metadata.annotations[jobc.dev/dist-parmetis-image]"));
  }

  private static MpiJobModel model(MpiEra era, String spec) throws Exception {
    String yaml =
        "apiVersion: "
            + era.apiVersion()
            + "\nkind: MPIJob\nmetadata:\n  name: pi\n  namespace: ns\n"
            + spec;
    MpiJob job = ObjectTrees.bind(new YAMLMapper().readTree(yaml), MpiJob.class);
    return MpiJobDefaults.apply(job, era, CompileOptions.defaults());
  }
}
