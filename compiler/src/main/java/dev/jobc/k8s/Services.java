package dev.jobc.k8s;

import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceSpec;
import java.util.Map;

/** Services every job kind creates. */
public final class Services {
  private Services() {}

  /**
   * A headless Service {@code name} selecting {@code selector}; its DNS names cover ready pods only
   * unless {@code publishNotReady}.
   */
  public static Service headless(
      String name,
      String namespace,
      Map<String, String> labels,
      Map<String, String> selector,
      Map<String, String> annotations,
      boolean publishNotReady) {
    ServiceSpec spec = new ServiceSpec();
    spec.setClusterIP("None");
    spec.setSelector(selector);
    spec.setPublishNotReadyAddresses(publishNotReady);
    Service service = new Service();
    service.setMetadata(Metadata.of(name, namespace, labels, annotations));
    service.setSpec(spec);
    return service;
  }
}
