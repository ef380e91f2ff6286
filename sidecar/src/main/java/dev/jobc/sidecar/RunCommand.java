package dev.jobc.sidecar;

import dev.jobc.conventions.MpiEra;
import dev.jobc.conventions.MpiImplementation;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code run}: the native sidecar beside an MPI launcher (see {@link LauncherSidecar}). */
@Command(
    name = "run",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = "Keep discover_hosts.sh live, gate the launcher, release the workers at the end.")
final class RunCommand extends SidecarCommand {
  @Option(
      names = "--pod",
      paramLabel = "NAME",
      description = "The launcher pod (this pod); default: $POD_NAME.")
  String pod;

  @Option(names = "--job", paramLabel = "NAME", required = true, description = "The MPIJob's name.")
  String job;

  @Option(
      names = "--era",
      paramLabel = "v1|v2beta1",
      description = "MPIJob API version: label keys and host format (default: v2beta1).")
  String era = "v2beta1";

  @Option(
      names = "--mpi-implementation",
      paramLabel = "OpenMPI|Intel|MPICH",
      description = "Default: OpenMPI.")
  String implementation = "OpenMPI";

  @Option(names = "--slots", paramLabel = "N", description = "Slots per worker (default: 1).")
  int slots = 1;

  @Option(names = "--cluster-domain", paramLabel = "DOMAIN", description = "As given to jobc.")
  String clusterDomain;

  @Option(
      names = "--launcher-host",
      paramLabel = "HOST",
      description =
          "Echoed first, always: the launcher's own line when it also runs ranks"
              + " (runLauncherAsWorker, or a v1 launcher with a GPU).")
  String launcherHost;

  @Option(
      names = "--ready-workers",
      paramLabel = "N",
      description = "Create the ready file once N workers are Ready (default: 0).")
  int readyWorkers;

  @Option(
      names = "--worker-set",
      paramLabel = "NAME",
      description =
          "The workers' StatefulSet, scaled to 0 at the end; without it, worker pods are deleted.")
  String workerSet;

  @Option(
      names = "--clean-pod-policy",
      paramLabel = "None|Running|All",
      description = "Applied when the launcher Job has finished (default: None).")
  String cleanPodPolicy = "None";

  @Option(
      names = "--worker-replicas",
      paramLabel = "N",
      description =
          "With --worker-set: scale it up to N at start when it is at 0 (a resumed or re-run job).")
  int workerReplicas;

  @Option(
      names = "--max-workers",
      paramLabel = "N",
      description =
          "The most workers the job may have (the Role's exec grant): workers at or past N are"
              + " left out of discover_hosts.sh (default: no bound).")
  int maxWorkers;

  @Option(
      names = "--launcher-container",
      paramLabel = "NAME",
      required = true,
      description = "The launcher's main container.")
  String launcherContainer;

  @Option(
      names = "--config-dir",
      paramLabel = "DIR",
      description = "Where the ConfigMap is mounted (hostfile, kubexec.sh are copied from it).")
  Path configDir;

  @Option(
      names = "--output-dir",
      paramLabel = "DIR",
      description = "Writable directory the launcher sees as /etc/mpi (default: /etc/mpi).")
  Path outputDir = Path.of("/etc/mpi");

  @Option(
      names = "--ready-file",
      paramLabel = "FILE",
      description = "Created once the workers are Ready (default: /tmp/jobc-ready).")
  Path readyFile = Path.of("/tmp/jobc-ready");

  RunCommand(Termination termination) {
    super(termination);
  }

  RunCommand(Termination termination, Supplier<KubernetesClient> clients, Map<String, String> env) {
    super(termination, clients, env);
  }

  @Override
  public Integer call() throws Exception {
    return withClient(client -> new LauncherSidecar(client, settings(), termination).run());
  }

  LauncherSidecar.Settings settings() {
    PodIdentity self = thisPod(pod);
    MpiEra e =
        MpiEra.of("kubeflow.org/" + era)
            .orElseThrow(() -> usage("--era must be v1 or v2beta1, not '" + era + "'"));
    try {
      MpiImplementation.fromSpec(implementation);
    } catch (IllegalArgumentException x) {
      throw usage("--mpi-implementation must be OpenMPI, Intel or MPICH");
    }
    if (!List.of("None", "Running", "All").contains(cleanPodPolicy)) {
      throw usage("--clean-pod-policy must be None, Running or All");
    }
    if (slots < 1 || readyWorkers < 0 || workerReplicas < 0 || maxWorkers < 0) {
      throw usage(
          "--slots must be at least 1, --ready-workers, --worker-replicas and --max-workers at"
              + " least 0");
    }
    return new LauncherSidecar.Settings(
        self.namespace(),
        self.name(),
        job,
        e,
        slots,
        clusterDomain,
        launcherHost,
        readyWorkers,
        workerSet,
        cleanPodPolicy,
        workerReplicas,
        maxWorkers,
        launcherContainer,
        configDir,
        outputDir,
        readyFile);
  }
}
