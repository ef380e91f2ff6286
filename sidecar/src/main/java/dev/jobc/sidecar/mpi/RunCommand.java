package dev.jobc.sidecar.mpi;

import dev.jobc.conventions.MpiEra;
import dev.jobc.conventions.MpiImplementation;
import dev.jobc.sidecar.base.SidecarCommand;
import dev.jobc.sidecar.base.Termination;
import dev.jobc.sidecar.client.ClusterApi;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code run}: the native sidecar beside an MPI launcher (see {@link LauncherSidecar}). */
@Command(
    name = "run",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = "Keep discover_hosts.sh live, gate the launcher, release the workers at the end.")
public final class RunCommand extends SidecarCommand {
  @Option(
      names = "--pod",
      paramLabel = "NAME",
      description = "The launcher pod (this pod); default: $POD_NAME.")
  String pod;

  @Option(names = "--job", paramLabel = "NAME", required = true, description = "The MPIJob's name.")
  String job;

  @Mixin LiveHostsOptions hosts = new LiveHostsOptions();

  @Option(
      names = "--mpi-implementation",
      paramLabel = "OpenMPI|Intel|MPICH",
      description = "Default: OpenMPI.")
  String implementation = "OpenMPI";

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
      names = "--launcher-container",
      paramLabel = "NAME",
      required = true,
      description = "The launcher's main container.")
  String launcherContainer;

  @Option(
      names = "--termination-grace-period",
      paramLabel = "S",
      description =
          "The pod's terminationGracePeriodSeconds (default: 30): how long a clean-up after"
              + " SIGTERM goes on through API errors, less 5 s.")
  Long terminationGracePeriod;

  public RunCommand(Termination termination) {
    super(termination);
  }

  public RunCommand(Termination termination, Supplier<ClusterApi> apis, Map<String, String> env) {
    super(termination, apis, env);
  }

  @Override
  public Integer call() throws Exception {
    return new LauncherSidecar(apis.get(), settings(), termination).run();
  }

  LauncherSidecar.Settings settings() {
    PodIdentity self = thisPod(pod);
    MpiEra e = hosts.checkedEra(this::usage);
    try {
      MpiImplementation.fromSpec(implementation);
    } catch (IllegalArgumentException x) {
      throw usage("--mpi-implementation must be OpenMPI, Intel or MPICH");
    }
    if (!List.of("None", "Running", "All").contains(cleanPodPolicy)) {
      throw usage("--clean-pod-policy must be None, Running or All");
    }
    if (workerReplicas < 0) {
      throw usage("--worker-replicas must be at least 0");
    }
    if (terminationGracePeriod != null && terminationGracePeriod < 0) {
      throw usage("--termination-grace-period must be at least 0");
    }
    // Known before the pod is read, which an API outage may prevent.
    termination.podGracePeriod(terminationGracePeriod);
    return new LauncherSidecar.Settings(
        self.namespace(),
        self.name(),
        job,
        e,
        hosts.slots,
        hosts.clusterDomain,
        hosts.launcherHost,
        hosts.readyWorkers,
        workerSet,
        cleanPodPolicy,
        workerReplicas,
        hosts.maxWorkers,
        launcherContainer,
        hosts.configDir,
        hosts.outputDir,
        hosts.readyFile);
  }
}
