package dev.jobc.generate;

import dev.jobc.plan.MpiJobPlan;
import dev.jobc.plan.MpiLabels;
import dev.jobc.plan.Naming;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceBuilder;

/**
 * Headless Service {@code <job>} selecting every pod of the job, which gives workers and launcher
 * the {@code <pod>.<job>.<ns>.svc} names (mpi-operator v2beta1 {@code newJobService}); it is also
 * the worker StatefulSet's governing service.
 */
public final class HeadlessServiceGenerator {

  public Service generate(MpiJobPlan plan) {
    return new ServiceBuilder()
        .withMetadata(
            Metadata.of(
                Naming.service(plan.name()), plan.namespace(), MpiLabels.objectLabels(plan.name())))
        .withNewSpec()
        .withClusterIP("None")
        .withSelector(MpiLabels.jobSelector(plan.era(), plan.name()))
        // A launcher that runs ranks must resolve before it is Ready, or it waits for itself
        // (mpi-operator v2beta1).
        .withPublishNotReadyAddresses(plan.launcherHost() != null)
        .endSpec()
        .build();
  }
}
