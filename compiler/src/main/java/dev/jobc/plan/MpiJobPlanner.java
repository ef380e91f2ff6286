package dev.jobc.plan;

import dev.jobc.CompileOptions;
import dev.jobc.api.MpiEra;
import dev.jobc.api.MpiJobModel;
import dev.jobc.api.ReplicaSpec;
import dev.jobc.plan.MpiImplementation.Env;
import io.fabric8.kubernetes.api.model.Container;
import java.util.ArrayList;
import java.util.List;

/** Decides names, hosts and environment for a valid MPIJob. Pure. */
public final class MpiJobPlanner {
  public static final String HOSTFILE_PATH = Naming.CONFIG_MOUNT + "/hostfile";
  public static final String KUBEXEC_PATH = Naming.CONFIG_MOUNT + "/kubexec.sh";

  private MpiJobPlanner() {}

  public static MpiJobPlan plan(MpiJobModel job, CompileOptions options) {
    String name = job.name();
    String ns = job.namespace();
    MpiEra era = job.era();
    MpiImplementation impl = MpiImplementation.fromSpec(job.implementation());
    int slots = job.slotsPerWorker();
    int workers = job.workerReplicas();
    String domain = options.clusterDomain();

    List<String> pods = new ArrayList<>(workers);
    List<HostSlot> hostfile = new ArrayList<>(workers);
    List<String> discover = new ArrayList<>(workers);
    for (int i = 0; i < workers; i++) {
      String pod = Naming.workerPod(name, i);
      pods.add(pod);
      // mpi-operator v2beta1: "<pod>.<job>.<ns>.svc[.<domain>] slots=N"; v1: pod names
      // (kubexec.sh execs by pod name). discover_hosts.sh: see DiscoverHosts.
      String host =
          era == MpiEra.V2BETA1 ? Naming.fqdn(pod, Naming.service(name), ns, domain) : pod;
      hostfile.add(new HostSlot(host, slots));
      discover.add(DiscoverHosts.entry(era, name, ns, domain, i, slots));
    }

    boolean gpu = hasGpu(job.launcher());
    List<Env> env = new ArrayList<>();
    if (era == MpiEra.V2BETA1) {
      env.add(new Env("K_MPI_JOB_ROLE", MpiLabels.LAUNCHER));
      env.addAll(impl.launcherEnv(HOSTFILE_PATH, KUBEXEC_PATH, slots));
    } else {
      env.add(new Env("OMPI_MCA_plm_rsh_agent", KUBEXEC_PATH));
      env.add(new Env("OMPI_MCA_orte_default_hostfile", HOSTFILE_PATH));
    }
    if (!gpu) {
      // "so that users will not be mistakenly using GPU resources for launcher" (mpi-operator);
      // like v1's isGPULauncher, jobc leaves a launcher that asks for a GPU its GPU.
      env.add(new Env("NVIDIA_VISIBLE_DEVICES", null));
      env.add(new Env("NVIDIA_DRIVER_CAPABILITIES", null));
    }
    return new MpiJobPlan(
        job,
        era,
        name,
        ns,
        domain,
        impl,
        slots,
        workers,
        pods,
        hostfile,
        discover,
        pods,
        gpu,
        env,
        job.mainContainer(),
        options.kubectlImage(),
        options.sidecarImage());
  }

  /**
   * mpi-operator v1 {@code isGPULauncher}: any launcher container limit whose resource name
   * contains "gpu" ({@code nvidia.com/gpu}, {@code vendor-domain/gpu}).
   */
  static boolean hasGpu(ReplicaSpec launcher) {
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
