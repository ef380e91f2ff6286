package dev.jobc.plan;

import java.util.Set;

/**
 * Every name jobc derives from a job name, matching mpi-operator ({@code <job>-config}, {@code
 * <job>-launcher}, {@code <job>-worker}, {@code <job>-worker-<i>}, Service {@code <job>}), and the
 * DNS names the headless Service gives pods.
 */
public final class Naming {
  public static final String CONFIG_SUFFIX = "-config";
  public static final String LAUNCHER_SUFFIX = "-launcher";
  public static final String WORKER_SUFFIX = "-worker";

  /** Volume holding hostfile, kubexec.sh and discover_hosts.sh (mpi-operator's name). */
  public static final String CONFIG_VOLUME = "mpi-job-config";

  /** Volume the kubectl binary is copied into (mpi-operator's name). */
  public static final String KUBECTL_VOLUME = "mpi-job-kubectl";

  public static final String CONFIG_MOUNT = "/etc/mpi";
  public static final String KUBECTL_MOUNT = "/opt/kube";
  public static final String KUBECTL_DELIVERY = "kubectl-delivery";

  /** Volume of the SSH keys for the ssh transport (mpi-operator v2beta1's name). */
  public static final String SSH_VOLUME = "ssh-auth";

  public static final Set<String> RESERVED_VOLUMES =
      Set.of(CONFIG_VOLUME, KUBECTL_VOLUME, SSH_VOLUME);
  public static final Set<String> RESERVED_MOUNTS = Set.of(CONFIG_MOUNT, KUBECTL_MOUNT);

  private Naming() {}

  public static String configMap(String job) {
    return job + CONFIG_SUFFIX;
  }

  public static String launcher(String job) {
    return job + LAUNCHER_SUFFIX;
  }

  public static String workerSet(String job) {
    return job + WORKER_SUFFIX;
  }

  public static String workerPod(String job, int index) {
    return job + WORKER_SUFFIX + "-" + index;
  }

  /** The headless Service shares the job's name (mpi-operator v0.5.0 and later). */
  public static String service(String job) {
    return job;
  }

  /**
   * {@code <pod>.<service>.<namespace>.svc[.<domain>]}, the format of mpi-operator v2beta1's
   * hostfile; without a cluster domain the resolver's search path completes it.
   */
  public static String fqdn(String pod, String service, String namespace, String clusterDomain) {
    String base = pod + "." + service + "." + namespace + ".svc";
    return clusterDomain == null ? base : base + "." + clusterDomain;
  }
}
