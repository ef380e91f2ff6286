package dev.jobc.generate;

import dev.jobc.plan.MpiJobPlan;
import dev.jobc.plan.MpiLabels;
import dev.jobc.plan.Naming;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.PolicyRuleBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBuilder;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * ServiceAccount, Role and RoleBinding {@code <job>-launcher}: what {@code kubexec.sh} needs to run
 * {@code kubectl exec} (mpi-operator v1's launcher RBAC), and what the {@code jobc-sidecar} needs:
 * watching pods (already granted), patching the worker StatefulSet's scale by name (only when
 * {@code cleanPodPolicy} asks for a clean-up) and creating Events. {@code pods/exec} is granted on
 * the worker pods by name only, and left out entirely when there are no workers: an empty {@code
 * resourceNames} would grant exec on every pod in the namespace.
 */
public final class LauncherRbacGenerator {

  public List<HasMetadata> generate(MpiJobPlan plan) {
    List<PolicyRule> sidecar = new ArrayList<>();
    if (!"None".equals(SidecarContainers.cleanPodPolicy(plan))) {
      // The sidecar's clean-up: the one StatefulSet's scale, or the worker pods by name.
      sidecar.add(
          plan.podWorkers()
              ? new PolicyRuleBuilder()
                  .withApiGroups("")
                  .withResources("pods")
                  .withResourceNames(plan.roleExecPods())
                  .withVerbs("delete")
                  .build()
              : new PolicyRuleBuilder()
                  .withApiGroups("apps")
                  .withResources("statefulsets/scale")
                  .withResourceNames(Naming.workerSet(plan.name()))
                  .withVerbs("patch")
                  .build());
    }
    // The sidecar reports the gate and the clean-up as Events on the launcher Job.
    sidecar.add(
        new PolicyRuleBuilder()
            .withApiGroups("")
            .withResources("events")
            .withVerbs("create")
            .build());
    return objects(
        Naming.launcher(plan.name()),
        plan.namespace(),
        MpiLabels.objectLabels(plan.name()),
        // ssh needs no exec; the sidecar still needs the ServiceAccount.
        plan.ssh() ? List.of() : plan.roleExecPods(),
        sidecar);
  }

  /**
   * ServiceAccount, Role and RoleBinding {@code name}: pods get/list/watch, and {@code pods/exec}
   * create on exactly {@code execPods} (no exec rule when it is empty).
   */
  static List<HasMetadata> objects(
      String name, String namespace, Map<String, String> labels, List<String> execPods) {
    return objects(name, namespace, labels, execPods, List.of());
  }

  /** As above, with {@code extra} rules after the exec rule. */
  static List<HasMetadata> objects(
      String name,
      String namespace,
      Map<String, String> labels,
      List<String> execPods,
      List<PolicyRule> extra) {
    List<PolicyRule> rules = new ArrayList<>();
    rules.add(
        new PolicyRuleBuilder()
            .withApiGroups("")
            .withResources("pods")
            .withVerbs("get", "list", "watch")
            .build());
    if (!execPods.isEmpty()) {
      rules.add(
          new PolicyRuleBuilder()
              .withApiGroups("")
              .withResources("pods/exec")
              .withResourceNames(execPods)
              .withVerbs("create")
              .build());
    }
    rules.addAll(extra);
    return List.of(
        new ServiceAccountBuilder().withMetadata(Metadata.of(name, namespace, labels)).build(),
        new RoleBuilder()
            .withMetadata(Metadata.of(name, namespace, labels))
            .withRules(rules)
            .build(),
        new RoleBindingBuilder()
            .withMetadata(Metadata.of(name, namespace, labels))
            .addNewSubject()
            .withKind("ServiceAccount")
            .withName(name)
            .withNamespace(namespace)
            .endSubject()
            .withNewRoleRef()
            .withApiGroup("rbac.authorization.k8s.io")
            .withKind("Role")
            .withName(name)
            .endRoleRef()
            .build());
  }
}
