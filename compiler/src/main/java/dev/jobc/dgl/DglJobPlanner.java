package dev.jobc.dgl;

import dev.jobc.conventions.DglNaming;
import dev.jobc.conventions.Naming;
import dev.jobc.model.ReplicaSpec;
import dev.jobc.options.CompileOptions;
import dev.jobc.options.OptionTable;
import dev.jobc.options.RenderDefaults;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Quantity;
import java.util.ArrayList;
import java.util.List;

/** Decides names, ip config lines and sizes for a valid DGLJob. Pure. */
public final class DglJobPlanner {
  private DglJobPlanner() {}

  public static DglJobPlan plan(DglJobModel job) {
    CompileOptions options = job.options();
    String name = job.name();
    String ns = job.namespace();
    String domain = options.get(OptionTable.CLUSTER_DOMAIN);
    String service = Naming.service(name);
    PartitionMode mode = job.mode().orElseThrow();
    int slots = job.slotsPerWorker();
    int workers = mode.hasWorkers() ? job.workerReplicas() : 0;

    // dgl-operator updateHostfileInConfigMap: "<ip> 30050 <job>-worker-<i> slots=<n>", with i the
    // position in a string sort of pod names (so worker-10 sorts before worker-2). jobc writes the
    // pod's stable DNS name instead of its IP, and i is the pod's own index.
    List<String> pods = new ArrayList<>(workers);
    List<DglPeer> hostfile = new ArrayList<>(workers);
    for (int i = 0; i < workers; i++) {
      String pod = Naming.workerPod(name, i);
      pods.add(pod);
      hostfile.add(
          new DglPeer(Naming.fqdn(pod, service, ns, domain), DglNaming.DGL_PORT, pod, slots));
    }
    DglPeer partitioner = null;
    if (mode.hasPartitioner()) {
      String pod = DglNaming.partitioner(name);
      partitioner = new DglPeer(Naming.fqdn(pod, service, ns, domain), DglNaming.DGL_PORT, pod, 0);
    }
    String launcherPod = Naming.launcher(name);
    DglPeer launcher =
        new DglPeer(
            Naming.fqdn(launcherPod, service, ns, domain), DglNaming.DGL_PORT, launcherPod, 0);

    String shm = null;
    boolean portBlock = false;
    Container main = workers > 0 ? firstContainer(job.worker()) : null;
    if (main != null) {
      // dgl-operator reads the memory limit of the Worker template's first container, for workers
      // and partitioner alike.
      Quantity limit =
          main.getResources() == null || main.getResources().getLimits() == null
              ? null
              : main.getResources().getLimits().get("memory");
      shm = ShmSize.half(limit);
      portBlock = main.getPorts() == null || main.getPorts().isEmpty();
    }
    return new DglJobPlan(
        job,
        mode,
        name,
        ns,
        slots,
        pods,
        hostfile,
        partitioner,
        launcher,
        shm,
        portBlock,
        options.get(OptionTable.WORKERS),
        options.get(OptionTable.KUBECTL_IMAGE),
        RenderDefaults.sidecarImage(options),
        options.get(OptionTable.RENDER_DEFAULTS));
  }

  private static Container firstContainer(ReplicaSpec spec) {
    if (spec == null || spec.template() == null || spec.template().getSpec() == null) {
      return null;
    }
    List<Container> containers = spec.template().getSpec().getContainers();
    return containers == null || containers.isEmpty() ? null : containers.get(0);
  }
}
