package dev.jobc.conventions;

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
  public static final String SCALER_SUFFIX = "-scaler";

  /** Volume holding hostfile, kubexec.sh and discover_hosts.sh (mpi-operator's name). */
  public static final String CONFIG_VOLUME = "mpi-job-config";

  /** Volume the kubectl binary is copied into (mpi-operator's name). */
  public static final String KUBECTL_VOLUME = "mpi-job-kubectl";

  public static final String CONFIG_MOUNT = "/etc/mpi";
  public static final String KUBECTL_MOUNT = "/opt/kube";
  public static final String KUBECTL_DELIVERY = "kubectl-delivery";

  /** The runtime sidecar's container name (a native sidecar beside the launcher). */
  public static final String SIDECAR = "jobc-sidecar";

  /**
   * Field manager of the sidecar's server-side apply (the worker scale-down); GitOps tools key
   * {@code ignoreDifferences} on it.
   */
  public static final String SIDECAR_FIELD_MANAGER = "jobc-sidecar";

  /**
   * Writable volume the sidecar fills and the launcher sees at {@link #CONFIG_MOUNT}: copies of
   * {@code hostfile} and {@code kubexec.sh} and the live {@code discover_hosts.sh} (a ConfigMap
   * volume is read-only, and a file under a subPath mount would not see an atomic rename).
   */
  public static final String RUNTIME_VOLUME = "mpi-job-runtime";

  /** The sidecar's private scratch volume (read-only root file system; the startup marker). */
  public static final String SIDECAR_TMP_VOLUME = "jobc-sidecar-tmp";

  /** Where the sidecar sees the ConfigMap it copies from. */
  public static final String SIDECAR_CONFIG_MOUNT = "/etc/jobc/config";

  public static final String SIDECAR_TMP_MOUNT = "/tmp";

  /** Created by the sidecar once the workers are Ready; its startup probe tests for it. */
  public static final String SIDECAR_READY_FILE = SIDECAR_TMP_MOUNT + "/jobc-ready";

  /** Volume of the SSH keys for the ssh transport (mpi-operator v2beta1's name). */
  public static final String SSH_VOLUME = "ssh-auth";

  /**
   * The sidecar's own projected API token, when the launcher template turns the automatic one off
   * ({@code automountServiceAccountToken: false}).
   */
  public static final String SIDECAR_TOKEN_VOLUME = "jobc-sidecar-token";

  /** Where Kubernetes clients look for the pod's ServiceAccount token, CA and namespace. */
  public static final String SERVICE_ACCOUNT_MOUNT =
      "/var/run/secrets/kubernetes.io/serviceaccount";

  public static final Set<String> RESERVED_VOLUMES =
      Set.of(
          CONFIG_VOLUME,
          KUBECTL_VOLUME,
          SSH_VOLUME,
          RUNTIME_VOLUME,
          SIDECAR_TMP_VOLUME,
          SIDECAR_TOKEN_VOLUME);
  public static final Set<String> RESERVED_MOUNTS = Set.of(CONFIG_MOUNT, KUBECTL_MOUNT);
  public static final Set<String> RESERVED_INIT_CONTAINERS = Set.of(KUBECTL_DELIVERY, SIDECAR);

  private Naming() {}

  public static String configMap(String job) {
    return job + CONFIG_SUFFIX;
  }

  public static String launcher(String job) {
    return job + LAUNCHER_SUFFIX;
  }

  /**
   * The Job that scales the workers with the launcher Job ({@code jobc-sidecar scale-workers}); a
   * suffix no longer than {@link #LAUNCHER_SUFFIX}, so that every job name the launcher Job allows
   * allows it too.
   */
  public static String scaler(String job) {
    return job + SCALER_SUFFIX;
  }

  public static String workerSet(String job) {
    return job + WORKER_SUFFIX;
  }

  public static String workerPod(String job, int index) {
    return job + WORKER_SUFFIX + "-" + index;
  }

  /**
   * The index of a worker pod of {@code job} named {@code <job>-worker-<i>} (digits only, no
   * leading zero but for 0 itself, as a StatefulSet names them), or -1 for any other name.
   */
  public static int workerIndex(String job, String pod) {
    String prefix = job + WORKER_SUFFIX + "-";
    if (pod == null || !pod.startsWith(prefix) || pod.length() == prefix.length()) {
      return -1;
    }
    String digits = pod.substring(prefix.length());
    if (digits.length() > 9 || (digits.length() > 1 && digits.charAt(0) == '0')) {
      return -1;
    }
    for (int i = 0; i < digits.length(); i++) {
      if (digits.charAt(i) < '0' || digits.charAt(i) > '9') {
        return -1;
      }
    }
    return Integer.parseInt(digits);
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
