package dev.jobc.mpi;

import dev.jobc.conventions.MpiLabels;
import dev.jobc.conventions.Naming;
import dev.jobc.k8s.Metadata;
import dev.jobc.k8s.Services;
import io.fabric8.kubernetes.api.model.Service;

/**
 * Headless Service {@code <job>} selecting every pod of the job, which gives workers and launcher
 * the {@code <pod>.<job>.<ns>.svc} names (mpi-operator v2beta1 {@code newJobService}); it is also
 * the worker StatefulSet's governing service.
 */
public final class HeadlessServiceGenerator {

  public Service generate(MpiJobPlan plan) {
    return Services.headless(
        Naming.service(plan.name()),
        plan.namespace(),
        MpiLabels.objectLabels(plan.name()),
        MpiLabels.jobSelector(plan.era(), plan.name()),
        Metadata.objectAnnotations(plan.options()),
        // A launcher that runs ranks must resolve before it is Ready, or it waits for itself
        // (mpi-operator v2beta1).
        plan.job().runLauncherAsWorker());
  }
}
