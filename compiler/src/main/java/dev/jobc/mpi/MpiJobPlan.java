package dev.jobc.mpi;

import dev.jobc.bind.ObjectTrees.Snapshot;
import dev.jobc.conventions.MpiEra;
import dev.jobc.conventions.MpiImplementation;
import dev.jobc.conventions.MpiImplementation.Env;
import dev.jobc.k8s.GangPlan;
import dev.jobc.options.CompileOptions;
import dev.jobc.options.OptionTable;
import dev.jobc.options.Target;
import dev.jobc.options.Transport;
import dev.jobc.options.WorkerKind;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import java.util.List;
import java.util.Map;

/**
 * Everything decided about one valid MPIJob before objects are built.
 *
 * @param options the compile options with the job's annotations applied
 * @param workers initial worker count
 * @param hostfile hostfile entries in order (v2beta1: service FQDNs; before: pod names)
 * @param discoverHosts lines the static {@code discover_hosts.sh} echoes
 * @param roleExecPods pod names the launcher may exec into: every worker up to the maximum the job
 *     may scale to (never empty when there are workers)
 * @param launcherEnv variables jobc appends to the launcher's main container, in order
 * @param kubexecContainer container {@code kubexec.sh} targets, or {@code null} for the default
 * @param launcherHost the launcher's own hostfile entry when it also runs ranks (v2beta1 {@code
 *     runLauncherAsWorker}, or a v1 launcher with a GPU), so {@code kubexec.sh} runs those locally;
 *     its {@code discover_hosts.sh} line is then the first of {@code discoverHosts}; else {@code
 *     null}
 * @param kueueLabels the job's {@code kueue.x-k8s.io/*} labels, copied to what Kueue admits
 * @param launcherTemplate the plan's own, unchangeable copy of the launcher's pod template;
 *     generators take a fresh copy of it before they change anything
 * @param workerTemplate likewise for the worker pod template, or {@code null} without a Worker spec
 * @param gang the PodGroup and pod decoration, or {@code null} without gang scheduling
 * @param launcherAccount the ServiceAccount the launcher runs as and the RoleBinding names: the
 *     launcher template's own, else {@code <job>-launcher}
 * @param ownAccount whether jobc renders {@code launcherAccount} (the template names none)
 * @param sidecarToken whether the sidecar gets its own projected API token, because the launcher
 *     template turns the automatic one off ({@code automountServiceAccountToken: false}, ssh)
 */
public record MpiJobPlan(
    MpiJobModel job,
    MpiEra era,
    String name,
    String namespace,
    CompileOptions options,
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
    String launcherHost,
    Map<String, String> kueueLabels,
    Snapshot<PodTemplateSpec> launcherTemplate,
    Snapshot<PodTemplateSpec> workerTemplate,
    GangPlan gang,
    String launcherAccount,
    boolean ownAccount,
    boolean sidecarToken) {

  public MpiJobPlan {
    workerPods = List.copyOf(workerPods);
    hostfile = List.copyOf(hostfile);
    discoverHosts = List.copyOf(discoverHosts);
    roleExecPods = List.copyOf(roleExecPods);
    launcherEnv = List.copyOf(launcherEnv);
    kueueLabels = Map.copyOf(kueueLabels);
  }

  public boolean ssh() {
    return options.get(OptionTable.TRANSPORT) == Transport.SSH;
  }

  /** Bare worker Pods; never in the JobSet target, whose worker Job carries the workers. */
  public boolean podWorkers() {
    return !jobSet() && options.get(OptionTable.WORKERS) == WorkerKind.PODS;
  }

  /** One JobSet instead of the plain target's Job, StatefulSet (or Pods) and Service. */
  public boolean jobSet() {
    return options.get(OptionTable.TARGET) == Target.JOB_SET;
  }

  /** Whether the job may be scaled at run time ({@code jobc.dev/max-replicas}, elastic Horovod). */
  public boolean elastic() {
    return job.maxReplicas() != null;
  }

  /**
   * Whether the launcher runs the {@code jobc-sidecar}: in the plain target (it gates the launcher,
   * keeps {@code discover_hosts.sh} live and releases the workers); in the JobSet target, whose
   * controller starts the launcher after the workers and ends them with it, only for an elastic
   * job, to keep {@code discover_hosts.sh} live.
   */
  public boolean launcherSidecar() {
    return !jobSet() || elastic();
  }

  /**
   * Whether the launcher calls the Kubernetes API ({@code kubexec.sh}, the sidecar) and so runs as
   * the launcher ServiceAccount bound to its Role: always in the plain target (the sidecar).
   */
  public boolean launcherRbac() {
    // In the JobSet target kubexec.sh does, to reach workers, and an elastic job's sidecar.
    return jobSet() ? !ssh() && workers > 0 || elastic() : true;
  }
}
