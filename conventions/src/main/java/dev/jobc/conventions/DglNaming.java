package dev.jobc.conventions;

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

  /**
   * The partitioner's init container that waits until the launcher's {@code
   * watcher-loop-partitioner} runs: dglrun's phase 2 copies the partitions into that container, and
   * fails when it is not running yet (dgl-operator issue #22).
   */
  public static final String LAUNCHER_WAIT = "jobc-wait-launcher";

  /**
   * The scheduling gate on bare worker pods of a job with a partitioner: they hold no node capacity
   * until the launcher's sidecar removes it once partitioning has succeeded (dgl-operator creates
   * its workers only then).
   */
  public static final String PARTITIONED_GATE = "jobc.dev/partitioned";

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

  private DglNaming() {}

  public static String partitioner(String job) {
    return job + PARTITIONER_SUFFIX;
  }
}
