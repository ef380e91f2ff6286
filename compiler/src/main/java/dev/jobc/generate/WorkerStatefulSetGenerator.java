package dev.jobc.generate;

import dev.jobc.plan.MpiJobPlan;
import dev.jobc.plan.MpiLabels;
import dev.jobc.plan.Naming;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.apps.StatefulSetBuilder;

/**
 * Worker StatefulSet {@code <job>-worker}: pods {@code <job>-worker-<i>} under the job's headless
 * Service, started in parallel. StatefulSets only accept {@code restartPolicy: Always}, so a lost
 * worker comes back without an operator.
 */
public final class WorkerStatefulSetGenerator {

  public StatefulSet generate(MpiJobPlan plan) {
    var labels = MpiLabels.objectLabels(plan.name());
    labels.putAll(plan.kueueLabels());
    return new StatefulSetBuilder()
        .withMetadata(Metadata.of(Naming.workerSet(plan.name()), plan.namespace(), labels))
        .withNewSpec()
        .withReplicas(plan.workers())
        .withServiceName(Naming.service(plan.name()))
        .withPodManagementPolicy("Parallel")
        .withNewSelector()
        .withMatchLabels(MpiLabels.roleSelector(plan.era(), plan.name(), MpiLabels.WORKER))
        .endSelector()
        .withTemplate(WorkerTemplates.build(plan, "Always"))
        .endSpec()
        .build();
  }
}
