package dev.jobc.dgl;

import dev.jobc.conventions.DglNaming;
import dev.jobc.conventions.MpiLabels;
import dev.jobc.conventions.Naming;
import dev.jobc.k8s.Metadata;
import dev.jobc.k8s.PodTemplates;
import dev.jobc.k8s.Rbac;
import dev.jobc.options.WorkerKind;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import java.util.ArrayList;
import java.util.List;

/**
 * ServiceAccount, Role and RoleBinding {@code <job>-launcher} (exec on the worker pods by name,
 * dgl-operator {@code buildRole}) and, where there is a partitioner, {@code <job>-partitioner}
 * (exec on the launcher, {@code buildPartitionerRole}), both with pods get/list/watch for the
 * sidecar's wait; the launcher's also lets its sidecar release the workers. When the pod's template
 * names a ServiceAccount, the Role is bound to it and no ServiceAccount is rendered. Never an empty
 * {@code resourceNames}: that would grant exec on every pod.
 */
public final class DglRbacGenerator {

  public List<HasMetadata> generate(DglJobPlan plan) {
    var labels = MpiLabels.objectLabels(plan.name());
    var annotations = Metadata.objectAnnotations(plan.job().options());
    List<PolicyRule> start = new ArrayList<>();
    if (plan.workersAfterPartitioning()) {
      // watcher-loop-partitioner starts the workers after partitioning: it scales the one
      // StatefulSet, or removes the scheduling gate of each bare worker pod.
      start.add(
          plan.workerKind() == WorkerKind.PODS
              ? Rbac.rule("", "pods", plan.workerPods(), "patch")
              : Rbac.rule(
                  "apps", "statefulsets/scale", List.of(Naming.workerSet(plan.name())), "patch"));
    }
    for (PolicyRule rule : releaseRules(plan)) {
      if (!start.contains(rule)) {
        start.add(rule);
      }
    }
    List<HasMetadata> out =
        new ArrayList<>(
            Rbac.objects(
                Naming.launcher(plan.name()),
                plan.namespace(),
                labels,
                annotations,
                plan.workerPods(),
                start,
                PodTemplates.namedAccount(plan.job().launcher().template().getSpec())));
    if (plan.partitioner() != null) {
      // The partitioner runs the Worker template, and keeps its ServiceAccount.
      out.addAll(
          Rbac.objects(
              DglNaming.partitioner(plan.name()),
              plan.namespace(),
              labels,
              annotations,
              List.of(plan.launcher().pod()),
              List.of(),
              PodTemplates.namedAccount(plan.job().worker().template().getSpec())));
    }
    return out;
  }

  /**
   * What the launcher's {@code jobc-release-workers} sidecar needs: the worker StatefulSet's scale
   * by name, or the worker pods by name, and Events on the launcher pod.
   */
  private static List<PolicyRule> releaseRules(DglJobPlan plan) {
    if (!DglLauncherGenerator.releasesWorkers(plan)) {
      return List.of();
    }
    return List.of(
        plan.workerKind() == WorkerKind.PODS
            ? Rbac.rule("", "pods", plan.workerPods(), "patch")
            : Rbac.rule(
                "apps", "statefulsets/scale", List.of(Naming.workerSet(plan.name())), "patch"),
        Rbac.rule("", "events", null, "create"));
  }
}
