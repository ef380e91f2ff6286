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

/**
 * ServiceAccount, Role and RoleBinding {@code <job>-launcher}: what {@code kubexec.sh} needs to run
 * {@code kubectl exec} (mpi-operator v1's launcher RBAC). {@code pods/exec} is granted on the
 * worker pods by name only, and left out entirely when there are no workers: an empty {@code
 * resourceNames} would grant exec on every pod in the namespace.
 */
public final class LauncherRbacGenerator {

  public List<HasMetadata> generate(MpiJobPlan plan) {
    String name = Naming.launcher(plan.name());
    var labels = MpiLabels.objectLabels(plan.name());
    List<PolicyRule> rules = new ArrayList<>();
    rules.add(
        new PolicyRuleBuilder()
            .withApiGroups("")
            .withResources("pods")
            .withVerbs("get", "list", "watch")
            .build());
    if (!plan.roleExecPods().isEmpty()) {
      rules.add(
          new PolicyRuleBuilder()
              .withApiGroups("")
              .withResources("pods/exec")
              .withResourceNames(plan.roleExecPods())
              .withVerbs("create")
              .build());
    }
    return List.of(
        new ServiceAccountBuilder()
            .withMetadata(Metadata.of(name, plan.namespace(), labels))
            .build(),
        new RoleBuilder()
            .withMetadata(Metadata.of(name, plan.namespace(), labels))
            .withRules(rules)
            .build(),
        new RoleBindingBuilder()
            .withMetadata(Metadata.of(name, plan.namespace(), labels))
            .addNewSubject()
            .withKind("ServiceAccount")
            .withName(name)
            .withNamespace(plan.namespace())
            .endSubject()
            .withNewRoleRef()
            .withApiGroup("rbac.authorization.k8s.io")
            .withKind("Role")
            .withName(name)
            .endRoleRef()
            .build());
  }
}
