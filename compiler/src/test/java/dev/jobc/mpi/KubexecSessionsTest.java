package dev.jobc.mpi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.jobc.bind.ObjectTrees;
import dev.jobc.conventions.MpiEra;
import dev.jobc.conventions.MpiImplementation;
import dev.jobc.diag.Finding;
import dev.jobc.diag.Severity;
import dev.jobc.options.CompileOptions;
import dev.jobc.options.OptionTable;
import dev.jobc.options.Transport;
import java.util.List;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.Test;

/** The launcher memory warning of the kubexec transport: (severity, path) pairs. */
class KubexecSessionsTest {
  private static final String LIMIT =
      "spec.mpiReplicaSpecs[Launcher].template.spec.containers[0].resources.limits[memory]";

  @Test
  void hydraHoldsOneSessionPerWorkerAndOpenMpiAtMost128() {
    assertThat(KubexecSessions.sessions(MpiImplementation.MPICH, 1000)).isEqualTo(1000);
    assertThat(KubexecSessions.sessions(MpiImplementation.INTEL, 1000)).isEqualTo(1000);
    assertThat(KubexecSessions.sessions(MpiImplementation.OPEN_MPI, 100)).isEqualTo(100);
    assertThat(KubexecSessions.sessions(MpiImplementation.OPEN_MPI, 1000)).isEqualTo(128);
  }

  @Test
  void warnsAtTheLimitExactlyWhenItIsBelowWhatTheSessionsNeed() throws Exception {
    // MPICH, 4 workers: 64 MiB + 4 × 10 MiB = 104 MiB.
    assertThat(warnings(job("MPICH", 4, "104Mi", ""), Transport.KUBEXEC)).isEmpty();
    assertThat(warnings(job("MPICH", 4, "109051903", ""), Transport.KUBEXEC))
        .containsExactly(tuple(Severity.WARNING, LIMIT));
    assertThat(warnings(job("Intel", 4, "100Mi", ""), Transport.KUBEXEC))
        .containsExactly(tuple(Severity.WARNING, LIMIT));
    // Open MPI, 1000 workers: at most 128 sessions at once, 64 + 1280 = 1344 MiB.
    assertThat(warnings(job("OpenMPI", 1000, "1344Mi", ""), Transport.KUBEXEC)).isEmpty();
    assertThat(warnings(job("OpenMPI", 1000, "1343Mi", ""), Transport.KUBEXEC))
        .containsExactly(tuple(Severity.WARNING, LIMIT));
  }

  @Test
  void elasticJobsAreCountedAtTheirMaximum() throws Exception {
    String elastic = "  annotations:\n    jobc.dev/max-replicas: \"8\"\n";
    assertThat(warnings(job("MPICH", 4, "104Mi", elastic), Transport.KUBEXEC))
        .containsExactly(tuple(Severity.WARNING, LIMIT));
  }

  @Test
  void noWarningWithoutALimitOrWithSsh() throws Exception {
    assertThat(warnings(job("MPICH", 100, null, ""), Transport.KUBEXEC)).isEmpty();
    assertThat(warnings(job("MPICH", 100, "64Mi", ""), Transport.SSH)).isEmpty();
  }

  private static List<Tuple> warnings(String yaml, Transport transport) throws Exception {
    CompileOptions options =
        CompileOptions.defaults()
            .with(OptionTable.TRANSPORT, transport)
            .with(OptionTable.SSH_SECRET, transport == Transport.SSH ? "keys" : null);
    MpiJob job = ObjectTrees.bind(new YAMLMapper().readTree(yaml), MpiJob.class);
    List<Finding> findings =
        MpiJobValidator.validate(MpiJobDefaults.apply(job, MpiEra.V2BETA1, options));
    return findings.stream().map(f -> tuple(f.severity(), f.path().toString())).toList();
  }

  private static String job(String implementation, int workers, String memory, String annotations) {
    String resources =
        memory == null
            ? ""
            : "            resources:\n              limits: {memory: " + memory + "}\n";
    return """
        apiVersion: kubeflow.org/v2beta1
        kind: MPIJob
        metadata:
          name: pi
          namespace: default
        %s\
        spec:
          mpiImplementation: %s
          mpiReplicaSpecs:
            Launcher:
              replicas: 1
              template:
                spec:
                  containers:
                  - name: launcher
                    image: mpi
        %s\
            Worker:
              replicas: %d
              template:
                spec:
                  containers:
                  - name: worker
                    image: mpi
        """
        .formatted(annotations, implementation, resources, workers);
  }
}
