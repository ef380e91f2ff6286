package dev.jobc.tf;

import dev.jobc.conventions.TfLabels;
import dev.jobc.replica.ReplicaServiceGenerator;
import io.fabric8.kubernetes.api.model.Service;
import java.util.ArrayList;
import java.util.List;

/**
 * One headless Service per replica, as training-operator v1.9.0 {@code common/service.go
 * CreateNewService}: named {@code <job>-<type>-<i>}, selecting that replica's pod by the operator's
 * four labels, with one port per port of the {@code tensorflow} container (sorted by name; upstream
 * takes them from a Go map). Its name is the host name in every TF_CONFIG.
 */
public final class TfServiceGenerator {

  public List<Service> generate(TfJobPlan plan) {
    List<Service> out = new ArrayList<>(plan.replicas().size());
    for (TfReplica r : plan.replicas()) {
      out.add(
          ReplicaServiceGenerator.service(
              r.name(),
              plan.namespace(),
              TfLabels.replicaSelector(plan.name(), r.type().lower(), r.index()),
              plan.ports().get(r.type()),
              plan.options()));
    }
    return out;
  }
}
