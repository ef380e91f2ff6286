package dev.jobc.mpi;

import dev.jobc.conventions.Naming;
import dev.jobc.k8s.PodTemplates;
import dev.jobc.k8s.SidecarContainer;
import dev.jobc.options.OptionTable;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ExecAction;
import io.fabric8.kubernetes.api.model.Probe;
import io.fabric8.kubernetes.api.model.VolumeMount;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@code jobc-sidecar} containers of an MPIJob's launcher (built on {@link
 * SidecarContainer#base}).
 */
public final class SidecarContainers {
  /** The launcher pod's main container waits for the sidecar's startup probe (workers Ready). */
  public static final String RUN = "run";

  public static final String WAIT = "wait";

  /** The JobSet target's elastic launcher: a live {@code discover_hosts.sh} and nothing else. */
  public static final String HOSTS = "hosts";

  /** How often the startup probe checks the ready marker. */
  static final int PROBE_PERIOD_SECONDS = 2;

  /**
   * How many failed checks the startup probe tolerates: as many as Kubernetes allows (the field is
   * an int32), about 136 years at {@link #PROBE_PERIOD_SECONDS}. kubelet restarts a sidecar whose
   * startup probe gives up, and the Job controller counts every container restart of an {@code
   * OnFailure} launcher against {@code backoffLimit} ({@code pastBackoffLimitOnFailure}, native
   * sidecars included): a finite wait would fail a job whose workers take longer to start (GPU
   * queues, node autoscaling, large images), after one wait with {@code backoffLimit: 0}.
   * mpi-operator's {@code WaitForWorkersReady} waits as long as it takes; {@code
   * activeDeadlineSeconds} still bounds the whole job.
   */
  static final int PROBE_FAILURES = Integer.MAX_VALUE;

  private SidecarContainers() {}

  private static VolumeMount readOnly(VolumeMount mount) {
    mount.setReadOnly(true);
    return mount;
  }

  /**
   * The {@code run} sidecar beside an MPIJob launcher (an init container with {@code restartPolicy:
   * Always}): keeps {@code /etc/mpi/discover_hosts.sh} live, opens the launcher's gate once the
   * initial workers are Ready, applies {@code cleanPodPolicy} when the launcher's main container
   * has ended.
   */
  public static Container mpiRun(MpiJobPlan plan, String launcherContainer) {
    List<String> args = hostArgs(RUN, plan, plan.implementation().specName());
    // The workers the Role may exec into: no host past them goes into discover_hosts.sh.
    int maxWorkers = Math.max(plan.workers(), plan.roleExecPods().size());
    if (maxWorkers > 0) {
      add(args, "--max-workers", Integer.toString(maxWorkers));
    }
    if (plan.workers() > 0 && !plan.podWorkers()) {
      add(args, "--worker-set", Naming.workerSet(plan.name()));
      // Scaled up to this when the launcher starts and finds the workers at 0 (rendered at 0 while
      // the job is suspended, or released by a suspension or an earlier end).
      add(args, "--worker-replicas", Integer.toString(plan.workers()));
    }
    add(args, "--clean-pod-policy", cleanPodPolicy(plan));
    add(args, "--launcher-container", launcherContainer);
    // The pod's grace period, known to the sidecar without reading its pod: a clean-up through an
    // API outage at SIGTERM goes on for it (Kubernetes' default, 30 s, is the sidecar's).
    // Sidecar 0.1.0, which a job pinned to earlier render defaults runs, does not take it.
    Long grace = launcherGracePeriod(plan);
    if (grace != null && plan.options().get(OptionTable.RENDER_DEFAULTS).launcherGracePeriod()) {
      add(args, "--termination-grace-period", grace.toString());
    }
    // It watches the launcher and every worker the job may have.
    return gatedSidecar(plan, args, maxWorkers + 1);
  }

  /** The launcher template's {@code terminationGracePeriodSeconds}, or {@code null}. */
  private static Long launcherGracePeriod(MpiJobPlan plan) {
    var launcher = plan.job().launcher();
    return launcher == null || launcher.template() == null || launcher.template().getSpec() == null
        ? null
        : launcher.template().getSpec().getTerminationGracePeriodSeconds();
  }

  /**
   * The {@code hosts} sidecar beside an elastic MPIJob's launcher in the JobSet target (an init
   * container with {@code restartPolicy: Always}): keeps {@code /etc/mpi/discover_hosts.sh} live
   * from the worker Job's Ready pods, found by the JobSet's labels. The JobSet controller starts
   * the launcher once the initial workers are Ready and ends the workers with it, so this is all
   * the sidecar does; its startup probe holds the main container until the first live script is
   * written.
   */
  public static Container jobSetHosts(MpiJobPlan plan) {
    List<String> args = hostArgs(HOSTS, plan, null);
    int maxWorkers = plan.job().maxWorkers();
    add(args, "--max-workers", Integer.toString(maxWorkers));
    // It watches the workers only.
    return gatedSidecar(plan, args, maxWorkers);
  }

  /**
   * {@code command}'s arguments that say what goes into {@code discover_hosts.sh} and when the gate
   * opens, alike for {@code run} and {@code hosts}; {@code implementation} when not {@code null}.
   */
  private static List<String> hostArgs(String command, MpiJobPlan plan, String implementation) {
    List<String> args = new ArrayList<>();
    args.add(command);
    add(args, "--job", plan.name());
    add(args, "--era", plan.era().apiVersion().substring(plan.era().apiVersion().indexOf('/') + 1));
    if (implementation != null) {
      add(args, "--mpi-implementation", implementation);
    }
    add(args, "--slots", Integer.toString(plan.slots()));
    if (plan.options().get(OptionTable.CLUSTER_DOMAIN) != null) {
      add(args, "--cluster-domain", plan.options().get(OptionTable.CLUSTER_DOMAIN));
    }
    if (plan.launcherHost() != null) {
      // The launcher's discover_hosts.sh line, which the sidecar echoes first (v1: "<pod>:<N>").
      add(args, "--launcher-host", plan.discoverHosts().get(0));
    }
    add(args, "--ready-workers", Integer.toString(plan.workers()));
    return args;
  }

  /**
   * A native sidecar that copies the ConfigMap's files to {@code /etc/mpi} and holds the main
   * container with its startup probe until it creates the ready file.
   */
  private static Container gatedSidecar(MpiJobPlan plan, List<String> args, int podsWatched) {
    add(args, "--config-dir", Naming.SIDECAR_CONFIG_MOUNT);
    add(args, "--output-dir", Naming.CONFIG_MOUNT);
    add(args, "--ready-file", Naming.SIDECAR_READY_FILE);
    List<VolumeMount> mounts = new ArrayList<>();
    mounts.add(readOnly(PodTemplates.mount(Naming.CONFIG_VOLUME, Naming.SIDECAR_CONFIG_MOUNT)));
    mounts.add(PodTemplates.mount(Naming.RUNTIME_VOLUME, Naming.CONFIG_MOUNT));
    mounts.add(PodTemplates.mount(Naming.SIDECAR_TMP_VOLUME, Naming.SIDECAR_TMP_MOUNT));
    if (plan.sidecarToken()) {
      mounts.add(SidecarContainer.tokenMount());
    }
    Container c = SidecarContainer.base(plan.options(), Naming.SIDECAR, args, podsWatched);
    c.setRestartPolicy("Always");
    ExecAction ready = new ExecAction();
    ready.setCommand(new ArrayList<>(List.of("test", "-e", Naming.SIDECAR_READY_FILE)));
    Probe probe = new Probe();
    probe.setExec(ready);
    probe.setPeriodSeconds(PROBE_PERIOD_SECONDS);
    probe.setFailureThreshold(PROBE_FAILURES);
    c.setStartupProbe(probe);
    c.setVolumeMounts(mounts);
    return c;
  }

  /**
   * The worker clean-up policy the sidecar applies. With workers in a StatefulSet (restart policy
   * Always) no worker pod ever ends by itself, so {@code Running} and {@code All} both scale it to
   * 0, as mpi-operator v0.2's StatefulSet workers did; bare worker pods are ended by name (their
   * {@code activeDeadlineSeconds} lowered to 1), never deleted.
   */
  static String cleanPodPolicy(MpiJobPlan plan) {
    String policy = plan.job().cleanPodPolicy();
    return plan.workers() == 0 || policy == null ? "None" : policy;
  }

  private static void add(List<String> args, String option, String value) {
    args.add(option);
    args.add(value);
  }
}
