package dev.jobc.replica;

import dev.jobc.conventions.MpiLabels;
import dev.jobc.conventions.ReplicaLabels;
import dev.jobc.k8s.Metadata;
import dev.jobc.options.CompileOptions;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServicePort;
import io.fabric8.kubernetes.api.model.ServiceSpec;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One headless Service per replica, as training-operator v1.9.0 {@code common/service.go
 * CreateNewService}: named {@code <job>-<type>-<i>}, selecting that replica's pod by the operator's
 * four labels, with one port per port of the kind's container (sorted by name; upstream takes them
 * from a Go map). Its name is the host name every address in the environment uses.
 */
public final class ReplicaServiceGenerator {

  public List<Service> generate(ReplicaPlan plan) {
    List<Service> out = new ArrayList<>(plan.replicas().size());
    for (ReplicaPod r : plan.replicas()) {
      out.add(
          service(
              r.name(),
              plan.namespace(),
              ReplicaLabels.replicaSelector(
                  plan.framework().operator(), plan.name(), r.lower(), r.index()),
              plan.ports().get(r.type()),
              plan.options()));
    }
    return out;
  }

  /**
   * The headless Service {@code name} selecting one replica's pod by {@code selector} (also its
   * labels, with jobc's), with a copy of each port's name and number. TFJob's generator builds its
   * Services here too.
   */
  public static Service service(
      String name,
      String namespace,
      Map<String, String> selector,
      List<ServicePort> ports,
      CompileOptions options) {
    return service(name, namespace, selector, selector, ports, options);
  }

  /**
   * The headless Service {@code name}, labelled by {@code labels}, selecting by {@code selector}.
   */
  static Service service(
      String name,
      String namespace,
      Map<String, String> ownLabels,
      Map<String, String> selector,
      List<ServicePort> ports,
      CompileOptions options) {
    Map<String, String> labels = new LinkedHashMap<>(ownLabels);
    labels.put(MpiLabels.MANAGED_BY, MpiLabels.JOBC);
    ServiceSpec spec = new ServiceSpec();
    spec.setClusterIP("None");
    spec.setSelector(selector);
    List<ServicePort> copies = new ArrayList<>(ports.size());
    for (ServicePort p : ports) {
      ServicePort copy = new ServicePort();
      copy.setName(p.getName());
      copy.setPort(p.getPort());
      copies.add(copy);
    }
    spec.setPorts(copies);
    Service service = new Service();
    service.setMetadata(Metadata.of(name, namespace, labels, Metadata.objectAnnotations(options)));
    service.setSpec(spec);
    return service;
  }
}
