package dev.jobc.replica;

import dev.jobc.conventions.MpiLabels;
import dev.jobc.conventions.ReplicaLabels;
import dev.jobc.k8s.Metadata;
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
      Map<String, String> selector =
          ReplicaLabels.replicaSelector(
              plan.framework().operator(), plan.name(), r.lower(), r.index());
      Map<String, String> labels = new LinkedHashMap<>(selector);
      labels.put(MpiLabels.MANAGED_BY, MpiLabels.JOBC);
      ServiceSpec spec = new ServiceSpec();
      spec.setClusterIP("None");
      spec.setSelector(selector);
      List<ServicePort> ports = new ArrayList<>();
      for (ServicePort p : plan.ports().get(r.type())) {
        ServicePort copy = new ServicePort();
        copy.setName(p.getName());
        copy.setPort(p.getPort());
        ports.add(copy);
      }
      spec.setPorts(ports);
      Service service = new Service();
      service.setMetadata(
          Metadata.of(
              r.name(), plan.namespace(), labels, Metadata.objectAnnotations(plan.options())));
      service.setSpec(spec);
      out.add(service);
    }
    return out;
  }
}
