package dev.jobc.mpi;

import dev.jobc.conventions.MpiLabels;
import dev.jobc.conventions.Naming;
import dev.jobc.k8s.Metadata;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.apps.StatefulSetSpec;
import java.util.Map;

/**
 * Worker StatefulSet {@code <job>-worker}: pods {@code <job>-worker-<i>} under the job's headless
 * Service, started in parallel. StatefulSets only accept {@code restartPolicy: Always}, so a lost
 * worker comes back without an operator. A suspended job's StatefulSet has no replicas.
 */
public final class WorkerStatefulSetGenerator {
  public StatefulSet generate(MpiJobPlan plan) {
    var labels = MpiLabels.objectLabels(plan.name());
    labels.putAll(plan.kueueLabels());
    var meta =
        Metadata.of(
            Naming.workerSet(plan.name()),
            plan.namespace(),
            labels,
            Metadata.objectAnnotations(plan.options()));
    // The sidecar scales this StatefulSet: to 0 when the job is suspended or has finished, back up
    // when a launcher starts. Flux would apply spec.replicas again on its next reconciliation;
    // with IfNotPresent it creates the object when missing and leaves it alone otherwise. (Argo CD
    // needs ignoreDifferences on the Application instead: see docs/gitops.md.)
    Metadata.annotate(meta, Map.of(Metadata.FLUX_SSA, "IfNotPresent"));
    StatefulSetSpec spec = new StatefulSetSpec();
    // mpi-operator v0.8.2 creates no worker while the MPIJob is suspended; the sidecar of the
    // launcher pod the Job creates on resumption scales this up.
    spec.setReplicas(plan.job().suspend() ? 0 : plan.workers());
    spec.setServiceName(Naming.service(plan.name()));
    spec.setPodManagementPolicy("Parallel");
    LabelSelector selector = new LabelSelector();
    selector.setMatchLabels(MpiLabels.roleSelector(plan.era(), plan.name(), MpiLabels.WORKER));
    spec.setSelector(selector);
    spec.setTemplate(WorkerTemplates.build(plan, "Always"));
    StatefulSet set = new StatefulSet();
    set.setMetadata(meta);
    set.setSpec(spec);
    return set;
  }
}
