package dev.jobc.plan;

import dev.jobc.api.MpiEra;
import dev.jobc.api.MpiJobModel;
import dev.jobc.plan.MpiImplementation.Env;
import java.util.List;

/**
 * Everything decided about one valid MPIJob before objects are built.
 *
 * @param hostfile hostfile entries in order (v2beta1: service FQDNs; v1: pod names)
 * @param discoverHosts lines {@code discover_hosts.sh} echoes in its static form
 * @param roleExecPods pod names the launcher may exec into (never empty when there are workers)
 * @param launcherEnv variables jobc appends to the launcher's main container, in order
 * @param kubexecContainer container {@code kubexec.sh} targets, or {@code null} for the default
 * @param sidecarImage image of the jobc runtime sidecar beside the launcher
 */
public record MpiJobPlan(
    MpiJobModel job,
    MpiEra era,
    String name,
    String namespace,
    String clusterDomain,
    MpiImplementation implementation,
    int slots,
    int workers,
    List<String> workerPods,
    List<HostSlot> hostfile,
    List<String> discoverHosts,
    List<String> roleExecPods,
    boolean launcherHasGpu,
    List<Env> launcherEnv,
    String kubexecContainer,
    String kubectlImage,
    String sidecarImage) {

  public MpiJobPlan {
    workerPods = List.copyOf(workerPods);
    hostfile = List.copyOf(hostfile);
    discoverHosts = List.copyOf(discoverHosts);
    roleExecPods = List.copyOf(roleExecPods);
    launcherEnv = List.copyOf(launcherEnv);
  }
}
