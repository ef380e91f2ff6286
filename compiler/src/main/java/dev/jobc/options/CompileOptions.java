package dev.jobc.options;

import dev.jobc.diag.Quoting;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Everything that steers a compilation besides the input text. Immutable; the CLI flags, Maven
 * parameters, Argo CD parameters and per-job annotations ({@code jobc.dev/...}) all map onto this
 * one record, in that order of precedence (an annotation wins).
 *
 * @param namespace namespace for jobs whose {@code metadata.namespace} is empty, or {@code null}
 *     (then such a job is an error: the namespace is baked into host names and RBAC subjects)
 * @param clusterDomain cluster DNS domain appended to host names ({@code
 *     <pod>.<job>.<ns>.svc.<domain>}), or {@code null} to stop at {@code .svc} as mpi-operator does
 *     without {@code --cluster-domain}
 * @param kubectlImage image of the init container that copies {@code kubectl} for {@code
 *     kubexec.sh}; it must have {@code sh}, {@code cp} and {@code kubectl} on its PATH
 * @param sidecarImage image of the jobc runtime sidecar ({@code jobc-sidecar})
 * @param transport how the launcher reaches workers
 * @param sshSecret existing Secret with SSH keys for {@link Transport#SSH}, or {@code null}
 * @param gangScheduler {@code volcano}, {@code scheduler-plugins} or another scheduler name for
 *     gang scheduling, or {@code null} for none
 * @param workers what runs the workers
 * @param gpusPerNode per-node GPU count for v1alpha1 {@code gpus:} totals without {@code
 *     gpusPerNode}
 * @param unitsPerNode per-node count for v1alpha1 {@code processingUnits:} totals without {@code
 *     processingUnitsPerNode}
 * @param disableFluxSubstitution annotate every generated object with {@value
 *     #FLUX_SUBSTITUTE_ANNOTATION}{@code : disabled}, so that Flux's post-build substitution leaves
 *     {@code ${...}} in commands and scripts alone
 */
public record CompileOptions(
    String namespace,
    String clusterDomain,
    String kubectlImage,
    String sidecarImage,
    Transport transport,
    String sshSecret,
    String gangScheduler,
    WorkerKind workers,
    int gpusPerNode,
    int unitsPerNode,
    boolean disableFluxSubstitution) {

  /** The Flux kustomize-controller annotation that turns off post-build substitution per object. */
  public static final String FLUX_SUBSTITUTE_ANNOTATION = "kustomize.toolkit.fluxcd.io/substitute";

  /** Default for {@link #kubectlImage}: an image with a shell and kubectl on the PATH. */
  public static final String DEFAULT_KUBECTL_IMAGE = "docker.io/alpine/k8s:1.32.4";

  /** Default for {@link #sidecarImage}. */
  public static final String DEFAULT_SIDECAR_IMAGE = "ghcr.io/jobc-dev/jobc-sidecar:0.1.0";

  /** Default for {@link #gpusPerNode} and {@link #unitsPerNode} (mpi-operator's deployment). */
  public static final int DEFAULT_PER_NODE = 8;

  /** How the launcher runs processes on workers. */
  public enum Transport {
    /** {@code kubectl exec} through {@code kubexec.sh} (mpi-operator v1); no keys needed. */
    KUBEXEC,
    /** SSH with keys from an existing Secret (mpi-operator v2beta1). */
    SSH;

    /** {@code kubexec} or {@code ssh}, as the flag and the annotation spell them. */
    public static Transport parse(String value) {
      return switch (value) {
        case "kubexec" -> KUBEXEC;
        case "ssh" -> SSH;
        default ->
            throw new IllegalArgumentException(
                "transport must be \"kubexec\" or \"ssh\", not " + Quoting.quote(value));
      };
    }
  }

  /** What runs the workers. */
  public enum WorkerKind {
    /** A StatefulSet {@code <job>-worker} (default). */
    STATEFUL_SET,
    /** Bare Pods {@code <job>-worker-<i>} (mpi-operator v1/v2 shape). */
    PODS;

    /** {@code statefulset} or {@code pods}, as the flag and the annotation spell them. */
    public static WorkerKind parse(String value) {
      return switch (value) {
        case "statefulset" -> STATEFUL_SET;
        case "pods" -> PODS;
        default ->
            throw new IllegalArgumentException(
                "workers must be \"statefulset\" or \"pods\", not " + Quoting.quote(value));
      };
    }
  }

  private static final Pattern IMAGE = Pattern.compile("[^\\s\"'\\\\$`]+");

  public CompileOptions {
    if (namespace != null) {
      requireValid("namespace", namespace, Dns.dns1123Label(namespace));
    }
    if (clusterDomain != null) {
      requireValid("cluster domain", clusterDomain, Dns.dns1123Subdomain(clusterDomain));
    }
    requireImage("kubectl image", kubectlImage);
    requireImage("sidecar image", sidecarImage);
    if (transport == null || workers == null) {
      throw new IllegalArgumentException("transport and workers are required");
    }
    if (sshSecret != null) {
      requireValid("SSH secret name", sshSecret, Dns.dns1123Subdomain(sshSecret));
    }
    if (gangScheduler != null && gangScheduler.isEmpty()) {
      gangScheduler = null;
    }
    if (gangScheduler != null) {
      requireValid("gang scheduler", gangScheduler, Dns.dns1123Subdomain(gangScheduler));
    }
    if (gpusPerNode < 1 || unitsPerNode < 1) {
      throw new IllegalArgumentException("per-node counts must be at least 1");
    }
  }

  /**
   * No namespace fallback, no cluster domain, kubexec transport, StatefulSet workers, Flux
   * substitution left on.
   */
  public static CompileOptions defaults() {
    return new CompileOptions(
        null,
        null,
        DEFAULT_KUBECTL_IMAGE,
        DEFAULT_SIDECAR_IMAGE,
        Transport.KUBEXEC,
        null,
        null,
        WorkerKind.STATEFUL_SET,
        DEFAULT_PER_NODE,
        DEFAULT_PER_NODE,
        false);
  }

  public CompileOptions withNamespace(String value) {
    return new CompileOptions(
        value,
        clusterDomain,
        kubectlImage,
        sidecarImage,
        transport,
        sshSecret,
        gangScheduler,
        workers,
        gpusPerNode,
        unitsPerNode,
        disableFluxSubstitution);
  }

  public CompileOptions withClusterDomain(String value) {
    return new CompileOptions(
        namespace,
        value,
        kubectlImage,
        sidecarImage,
        transport,
        sshSecret,
        gangScheduler,
        workers,
        gpusPerNode,
        unitsPerNode,
        disableFluxSubstitution);
  }

  public CompileOptions withKubectlImage(String value) {
    return new CompileOptions(
        namespace,
        clusterDomain,
        value,
        sidecarImage,
        transport,
        sshSecret,
        gangScheduler,
        workers,
        gpusPerNode,
        unitsPerNode,
        disableFluxSubstitution);
  }

  public CompileOptions withSidecarImage(String value) {
    return new CompileOptions(
        namespace,
        clusterDomain,
        kubectlImage,
        value,
        transport,
        sshSecret,
        gangScheduler,
        workers,
        gpusPerNode,
        unitsPerNode,
        disableFluxSubstitution);
  }

  public CompileOptions withTransport(Transport value) {
    return new CompileOptions(
        namespace,
        clusterDomain,
        kubectlImage,
        sidecarImage,
        value,
        sshSecret,
        gangScheduler,
        workers,
        gpusPerNode,
        unitsPerNode,
        disableFluxSubstitution);
  }

  public CompileOptions withSshSecret(String value) {
    return new CompileOptions(
        namespace,
        clusterDomain,
        kubectlImage,
        sidecarImage,
        transport,
        value,
        gangScheduler,
        workers,
        gpusPerNode,
        unitsPerNode,
        disableFluxSubstitution);
  }

  public CompileOptions withGangScheduler(String value) {
    return new CompileOptions(
        namespace,
        clusterDomain,
        kubectlImage,
        sidecarImage,
        transport,
        sshSecret,
        value,
        workers,
        gpusPerNode,
        unitsPerNode,
        disableFluxSubstitution);
  }

  public CompileOptions withWorkers(WorkerKind value) {
    return new CompileOptions(
        namespace,
        clusterDomain,
        kubectlImage,
        sidecarImage,
        transport,
        sshSecret,
        gangScheduler,
        value,
        gpusPerNode,
        unitsPerNode,
        disableFluxSubstitution);
  }

  public CompileOptions withGpusPerNode(int value) {
    return new CompileOptions(
        namespace,
        clusterDomain,
        kubectlImage,
        sidecarImage,
        transport,
        sshSecret,
        gangScheduler,
        workers,
        value,
        unitsPerNode,
        disableFluxSubstitution);
  }

  public CompileOptions withUnitsPerNode(int value) {
    return new CompileOptions(
        namespace,
        clusterDomain,
        kubectlImage,
        sidecarImage,
        transport,
        sshSecret,
        gangScheduler,
        workers,
        gpusPerNode,
        value,
        disableFluxSubstitution);
  }

  public CompileOptions withDisableFluxSubstitution(boolean value) {
    return new CompileOptions(
        namespace,
        clusterDomain,
        kubectlImage,
        sidecarImage,
        transport,
        sshSecret,
        gangScheduler,
        workers,
        gpusPerNode,
        unitsPerNode,
        value);
  }

  private static void requireImage(String what, String image) {
    if (image == null || image.isBlank() || !IMAGE.matcher(image).matches()) {
      throw new IllegalArgumentException(
          what
              + " must be a non-empty image reference without spaces or quotes: "
              + Quoting.quote(image));
    }
  }

  private static void requireValid(String what, String value, List<String> problems) {
    if (!problems.isEmpty()) {
      throw new IllegalArgumentException(
          "invalid " + what + " " + Quoting.quote(value) + ": " + String.join("; ", problems));
    }
  }
}
