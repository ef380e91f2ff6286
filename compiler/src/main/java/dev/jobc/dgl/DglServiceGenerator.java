package dev.jobc.dgl;

import dev.jobc.conventions.MpiLabels;
import dev.jobc.conventions.Naming;
import dev.jobc.k8s.Metadata;
import dev.jobc.k8s.Services;
import io.fabric8.kubernetes.api.model.Service;

/**
 * Headless Service {@code <job>} selecting every pod of the DGLJob, which gives launcher,
 * partitioner and workers the {@code <pod>.<job>.<ns>.svc} names the ConfigMap lists. It replaces
 * dgl-operator's one Service per worker ({@code buildServiceForWorker}), whose port list a headless
 * Service does not need.
 */
public final class DglServiceGenerator {

  public Service generate(DglJobPlan plan) {
    return Services.headless(
        Naming.service(plan.name()),
        plan.namespace(),
        MpiLabels.objectLabels(plan.name()),
        DglLabels.jobSelector(plan.name()),
        Metadata.objectAnnotations(plan.job().options()),
        // Workers resolve each other while still initialising (DglWorkerGenerator).
        true);
  }
}
