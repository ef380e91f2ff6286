package dev.jobc.conventions;

import java.util.Set;

/**
 * The DGLJob names dgl-operator uses ({@code controllers/dgljob_controller.go} constants) that are
 * not shared with MPIJob; shared ones ({@code <job>-config}, {@code <job>-launcher}, {@code
 * <job>-worker-<i>}, the job Service) come from {@link Naming}.
 */
public final class DglNaming {
  public static final String PARTITIONER_SUFFIX = "-partitioner";

  /** dgl-operator's {@code DGL_PORT}: the DGL server port written into every line. */
  public static final int DGL_PORT = 30050;

  /** dgl-operator's {@code HOST_PORT_NUM}: container ports 30050..30069 on workers. */
  public static final int HOST_PORT_NUM = 20;

  public static final String CONFIG_VOLUME = "config-volume";
  public static final String CONFIG_MOUNT = "/etc/dgl";
  public static final String KUBECTL_VOLUME = "kube-volume";
  public static final String KUBECTL_MOUNT = "/opt/kube";
  public static final String SHM_VOLUME = "shm-volume";
  public static final String SHM_MOUNT = "/dev/shm";
  public static final String DATASET_VOLUME = "dataset-volume";
  public static final String DATASET_MOUNT = "/dgl_workspace/dataset";

  /**
   * jobc's own volume: the launcher's {@code /etc/dgl}, where the sidecar writes the IP-based files
   * {@code dglrun} reads (the operator rewrote its ConfigMap instead).
   */
  public static final String IPCONFIG_VOLUME = "ipconfig-volume";

  /** Where workers see the ConfigMap's DNS-name files, for the init container to resolve. */
  public static final String CONFIG_SOURCE_MOUNT = "/etc/jobc/dgl-config";

  /** The worker init container that writes the IP-based files into the worker's /etc/dgl. */
  public static final String RESOLVE_HOSTS = "jobc-resolve-hosts";

  public static final String KUBECTL_DOWNLOAD = "kubectl-download";
  public static final String PARTITIONER_WATCHER = "watcher-loop-partitioner";
  public static final String WORKER_WATCHER = "watcher-loop-worker";

  /**
   * The launcher's native sidecar that releases the workers by {@code cleanPodPolicy} when the
   * launcher pod ends (dgl-operator deletes them once the DGLJob has finished).
   */
  public static final String WORKER_RELEASE = "jobc-release-workers";

  public static final String KUBEXEC = "kubexec.sh";
  public static final String HOSTFILE = "hostfile";
  public static final String PARTFILE = "partfile";
  public static final String LEADFILE = "leadfile";

  public static final Set<String> RESERVED_VOLUMES =
      Set.of(CONFIG_VOLUME, KUBECTL_VOLUME, SHM_VOLUME, DATASET_VOLUME, IPCONFIG_VOLUME);
  public static final Set<String> RESERVED_MOUNTS =
      Set.of(CONFIG_MOUNT, KUBECTL_MOUNT, SHM_MOUNT, DATASET_MOUNT, CONFIG_SOURCE_MOUNT);
  public static final Set<String> RESERVED_INIT_CONTAINERS =
      Set.of(KUBECTL_DOWNLOAD, PARTITIONER_WATCHER, WORKER_WATCHER, RESOLVE_HOSTS, WORKER_RELEASE);

  private DglNaming() {}

  public static String partitioner(String job) {
    return job + PARTITIONER_SUFFIX;
  }
}
