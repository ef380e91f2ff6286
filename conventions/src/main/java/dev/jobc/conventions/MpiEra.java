package dev.jobc.conventions;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * The MPIJob API versions jobc accepts. The era decides upstream formats that differ between
 * versions: hostfile host names (pod names up to v1, service FQDNs in v2beta1) and pod label keys.
 */
public enum MpiEra {
  V1ALPHA1("kubeflow.org/v1alpha1"),
  V1ALPHA2("kubeflow.org/v1alpha2"),
  V1("kubeflow.org/v1"),
  V2BETA1("kubeflow.org/v2beta1");

  private final String apiVersion;

  MpiEra(String apiVersion) {
    this.apiVersion = apiVersion;
  }

  public String apiVersion() {
    return apiVersion;
  }

  /** Up to v1 the hostfile names pods ({@code pi-worker-0}); v2beta1 names service FQDNs. */
  public boolean podNameHosts() {
    return this != V2BETA1;
  }

  public static Optional<MpiEra> of(String apiVersion) {
    return Arrays.stream(values()).filter(e -> e.apiVersion.equals(apiVersion)).findFirst();
  }

  public static List<String> apiVersions() {
    return Arrays.stream(values()).map(MpiEra::apiVersion).toList();
  }
}
