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
 * {@code kubectl exec} (mpi-operator v1's launcher RBAC). {@code pods/exec} is granted on the
 * worker pods by name only, and left out entirely when there are no workers: an empty {@code
 * resourceNames} would grant exec on every pod in the namespace.
 */
public final class LauncherRbacGenerator {

  public List<HasMetadata> generate(MpiJobPlan plan) {
    return objects(
        Naming.launcher(plan.name()),
        plan.namespace(),
        MpiLabels.objectLabels(plan.name()),
        plan.roleExecPods());
  }

  /**
   * ServiceAccount, Role and RoleBinding {@code name}: pods get/list/watch, and {@code pods/exec}
   * create on exactly {@code execPods} (no exec rule when it is empty).
   */
  static List<HasMetadata> objects(
      String name, String namespace, Map<String, String> labels, List<String> execPods) {
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
