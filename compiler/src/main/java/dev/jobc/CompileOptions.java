package dev.jobc;

import dev.jobc.validate.Dns;
import java.util.List;

/**
 * Everything that steers a compilation besides the input text. Immutable; the CLI flags, Maven
 * parameters and Argo CD parameters all map onto this one record.
 *
 * @param namespace namespace for jobs whose {@code metadata.namespace} is empty, or {@code null}
 *     (then such a job is an error: the namespace is baked into host names and RBAC subjects)
 * @param clusterDomain cluster DNS domain appended to host names ({@code
 *     <pod>.<job>.<ns>.svc.<domain>}), or {@code null} to stop at {@code .svc} as mpi-operator does
 *     without {@code --cluster-domain}
 * @param kubectlImage image of the init container that copies {@code kubectl} for {@code
 *     kubexec.sh}; it must have {@code sh}, {@code cp} and {@code kubectl} on its PATH
 */
public record CompileOptions(String namespace, String clusterDomain, String kubectlImage) {

  /** Default for {@link #kubectlImage}: an image with a shell and kubectl on the PATH. */
  public static final String DEFAULT_KUBECTL_IMAGE = "docker.io/alpine/k8s:1.32.4";

  public CompileOptions {
    if (namespace != null) {
      requireValid("namespace", namespace, Dns.dns1123Label(namespace));
    }
    if (clusterDomain != null) {
      requireValid("cluster domain", clusterDomain, Dns.dns1123Subdomain(clusterDomain));
    }
    if (kubectlImage == null || kubectlImage.isBlank() || !kubectlImage.matches("[^\\s\"'\\\\$`]+")) {
      throw new IllegalArgumentException(
          "kubectl image must be a non-empty image reference without spaces or quotes: "
              + kubectlImage);
    }
  }

  /** No namespace fallback, no cluster domain, the default kubectl image. */
  public static CompileOptions defaults() {
    return new CompileOptions(null, null, DEFAULT_KUBECTL_IMAGE);
  }

  public CompileOptions withNamespace(String value) {
    return new CompileOptions(value, clusterDomain, kubectlImage);
  }

  public CompileOptions withClusterDomain(String value) {
    return new CompileOptions(namespace, value, kubectlImage);
  }

  public CompileOptions withKubectlImage(String value) {
    return new CompileOptions(namespace, clusterDomain, value);
  }

  private static void requireValid(String what, String value, List<String> problems) {
    if (!problems.isEmpty()) {
      throw new IllegalArgumentException(
          "invalid " + what + " \"" + value + "\": " + String.join("; ", problems));
    }
  }
}
