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
 * worker comes back without an operator.
 */
public final class WorkerStatefulSetGenerator {
  /** Flux kustomize-controller's per-object server-side apply policy. */
  public static final String FLUX_SSA = Metadata.FLUX_SSA;

  public StatefulSet generate(MpiJobPlan plan) {
    var labels = MpiLabels.objectLabels(plan.name());
    labels.putAll(plan.kueueLabels());
    var meta =
        Metadata.of(
            Naming.workerSet(plan.name()),
            plan.namespace(),
            labels,
            Metadata.objectAnnotations(plan.options()));
    if (!"None".equals(SidecarContainers.cleanPodPolicy(plan))) {
      // The sidecar scales this StatefulSet to 0 when the launcher ends. Flux would apply
      // spec.replicas again on its next reconciliation and start the workers anew; with
      // IfNotPresent it creates the object when missing and leaves it alone otherwise.
      // (Argo CD needs ignoreDifferences on the Application instead: see README.)
      Metadata.annotate(meta, Map.of(FLUX_SSA, "IfNotPresent"));
    }
    StatefulSetSpec spec = new StatefulSetSpec();
    spec.setReplicas(plan.workers());
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
