package dev.jobc.generate;

import dev.jobc.conventions.MpiLabels;
import dev.jobc.conventions.Naming;
import dev.jobc.plan.MpiJobPlan;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceSpec;
import java.util.Map;

/**
 * Headless Service {@code <job>} selecting every pod of the job, which gives workers and launcher
 * the {@code <pod>.<job>.<ns>.svc} names (mpi-operator v2beta1 {@code newJobService}); it is also
 * the worker StatefulSet's governing service.
 */
public final class HeadlessServiceGenerator {

  public Service generate(MpiJobPlan plan) {
    return service(
        Naming.service(plan.name()),
        plan.namespace(),
        MpiLabels.objectLabels(plan.name()),
        MpiLabels.jobSelector(plan.era(), plan.name()),
        // A launcher that runs ranks must resolve before it is Ready, or it waits for itself
        // (mpi-operator v2beta1).
        plan.launcherHost() != null);
  }

  /**
   * A headless Service {@code name} selecting {@code selector}; its DNS names cover ready pods only
   * unless {@code publishNotReady}.
   */
  static Service service(
      String name,
      String namespace,
      Map<String, String> labels,
      Map<String, String> selector,
      boolean publishNotReady) {
    ServiceSpec spec = new ServiceSpec();
    spec.setClusterIP("None");
    spec.setSelector(selector);
    spec.setPublishNotReadyAddresses(publishNotReady);
    Service service = new Service();
    service.setMetadata(Metadata.of(name, namespace, labels));
    service.setSpec(spec);
    return service;
  }
}
