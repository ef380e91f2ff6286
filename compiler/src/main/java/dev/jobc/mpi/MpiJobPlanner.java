package dev.jobc.mpi;

import dev.jobc.bind.ObjectTrees;
import dev.jobc.conventions.DiscoverHosts;
import dev.jobc.conventions.JobSetNames;
import dev.jobc.conventions.MpiEra;
import dev.jobc.conventions.MpiImplementation;
import dev.jobc.conventions.MpiImplementation.Env;
import dev.jobc.conventions.MpiLabels;
import dev.jobc.conventions.Naming;
import dev.jobc.k8s.PodTemplates;
import dev.jobc.model.ReplicaSpec;
import dev.jobc.options.CompileOptions;
import dev.jobc.options.OptionTable;
import dev.jobc.options.Target;
import dev.jobc.options.Transport;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Decides names, hosts and environment for a valid MPIJob. Pure. */
public final class MpiJobPlanner {
  public static final String HOSTFILE_PATH = Naming.CONFIG_MOUNT + "/hostfile";
  public static final String KUBEXEC_PATH = Naming.CONFIG_MOUNT + "/kubexec.sh";

  private MpiJobPlanner() {}

  public static MpiJobPlan plan(MpiJobModel job) {
    CompileOptions options = job.options();
    String name = job.name();
    String ns = job.namespace();
    MpiEra era = job.era();
    MpiImplementation impl = MpiImplementation.fromSpec(job.implementation());
    int slots = job.slotsPerWorker();
    int workers = job.workerReplicas();
    String domain = options.get(OptionTable.CLUSTER_DOMAIN);
    boolean fqdn = !era.podNameHosts();
    // In the JobSet target the pods have the host names the JobSet gives them (an Indexed Job's
    // <job>-<index>, the Job being <jobset>-<replicatedJob>-0) under its subdomain, which is the
    // JobSet's name, as the plain target's Service is the job's.
    boolean jobSet = options.get(OptionTable.TARGET) == Target.JOB_SET;
    String launcherName =
        jobSet ? JobSetNames.host(name, MpiLabels.LAUNCHER, 0, 0) : Naming.launcher(name);

    List<String> pods = new ArrayList<>(workers);
    List<HostSlot> hostfile = new ArrayList<>(workers + 1);
    List<String> discover = new ArrayList<>(workers + 1);
    String launcherHost = null;
    boolean gpu = hasGpu(job.launcher());
    if (era == MpiEra.V1 && gpu) {
      // mpi-operator v1 (b0815ad and v0.3.0, pkg/controllers/v1 newConfigMap and
      // updateDiscoverHostsInConfigMap): a launcher with a GPU limit is the first host, with
      // slotsPerWorker slots, as "<job>-launcher slots=N" and "echo <job>-launcher:N". Only v1 does
      // this; v1alpha1/v1alpha2 never list the launcher, v2beta1 only with runLauncherAsWorker.
      launcherHost = launcherName;
      hostfile.add(new HostSlot(launcherHost, slots));
      discover.add(launcherHost + ":" + slots);
    } else if (job.runLauncherAsWorker()) {
      // mpi-operator v2beta1: the launcher is the first host, in hostfile and discover_hosts.sh.
      launcherHost = Naming.fqdn(launcherName, Naming.service(name), ns, domain);
      hostfile.add(new HostSlot(launcherHost, slots));
      discover.add(launcherHost);
    }
    for (int i = 0; i < workers; i++) {
      String pod = Naming.workerPod(name, i);
      pods.add(pod);
      // mpi-operator v2beta1: "<pod>.<job>.<ns>.svc[.<domain>] slots=N"; v1 and before: pod
      // names (kubexec.sh execs by pod name). discover_hosts.sh lines: see DiscoverHosts.
      String self = jobSet ? JobSetNames.host(name, MpiLabels.WORKER, 0, i) : pod;
      String host = fqdn ? Naming.fqdn(self, Naming.service(name), ns, domain) : self;
      hostfile.add(new HostSlot(host, slots));
      discover.add(
          jobSet
              ? DiscoverHosts.jobSetEntry(era, name, ns, domain, i, slots)
              : DiscoverHosts.entry(era, name, ns, domain, i, slots));
    }
    String account = launcherAccount(job);
    List<String> execPods = new ArrayList<>(pods);
    for (int i = workers; i < job.maxWorkers(); i++) {
      execPods.add(Naming.workerPod(name, i));
    }

    List<Env> env = new ArrayList<>();
    boolean ssh = options.get(OptionTable.TRANSPORT) == Transport.SSH;
    if (era == MpiEra.V2BETA1 || ssh) {
      env.add(new Env("K_MPI_JOB_ROLE", MpiLabels.LAUNCHER));
    }
    env.addAll(
        ssh
            ? impl.sshEnv(HOSTFILE_PATH, slots)
            : impl.kubexecEnv(HOSTFILE_PATH, KUBEXEC_PATH, slots, fqdn));
    if (!gpu && !job.runLauncherAsWorker()) {
      // "so that users will not be mistakenly using GPU resources for launcher" (mpi-operator);
      // like v1's isGPULauncher, jobc leaves a launcher that asks for a GPU its GPU, and like
      // v2beta1 a launcher that also runs ranks.
      env.add(new Env("NVIDIA_VISIBLE_DEVICES", null));
      env.add(new Env("NVIDIA_DRIVER_CAPABILITIES", null));
    }
    return new MpiJobPlan(
        job,
        era,
        name,
        ns,
        options,
        impl,
        slots,
        workers,
        pods,
        hostfile,
        discover,
        execPods,
        gpu,
        env,
        job.mainContainer(),
        launcherHost,
        // In the JobSet target the JobSet alone carries them: Kueue admits it as one Workload.
        jobSet ? Map.of() : MpiLabels.kueueLabels(job.metadata().getLabels()),
        ObjectTrees.snapshot(job.launcher().template(), PodTemplateSpec.class),
        job.worker() == null || job.worker().template() == null
            ? null
            : ObjectTrees.snapshot(job.worker().template(), PodTemplateSpec.class),
        // From the user's templates: minResources counts what they ask for.
        GangPlanner.plan(job).orElse(null),
        account == null ? Naming.launcher(name) : account,
        account == null,
        Boolean.FALSE.equals(launcherSpec(job).getAutomountServiceAccountToken()));
  }

  /**
   * The ServiceAccount the launcher template names ({@code serviceAccountName}, else the deprecated
   * {@code serviceAccount}, as the API server reads them), or {@code null}. mpi-operator v1 and
   * v2beta1 replace it with {@code <job>-launcher}; jobc keeps it (workload identity, image pull
   * secrets) and binds the launcher Role to it.
   */
  static String launcherAccount(MpiJobModel job) {
    return PodTemplates.namedAccount(launcherSpec(job));
  }

  private static PodSpec launcherSpec(MpiJobModel job) {
    return job.launcher().template().getSpec();
  }

  /**
   * mpi-operator v1 {@code isGPULauncher}: any launcher container limit whose resource name
   * contains "gpu" ({@code nvidia.com/gpu}, {@code vendor-domain/gpu}).
   */
  public static boolean hasGpu(ReplicaSpec launcher) {
    if (launcher == null || launcher.template() == null || launcher.template().getSpec() == null) {
      return false;
    }
    for (Container c : launcher.template().getSpec().getContainers()) {
      if (c.getResources() != null && c.getResources().getLimits() != null) {
        for (String key : c.getResources().getLimits().keySet()) {
          if (key.contains("gpu")) {
            return true;
          }
        }
      }
    }
    return false;
  }
}
