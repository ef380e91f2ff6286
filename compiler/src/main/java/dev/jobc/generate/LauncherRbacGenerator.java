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
 * {@code kubectl exec} (mpi-operator v1's launcher RBAC), and what the {@code jobc-sidecar} needs:
 * watching pods (already granted), patching the worker StatefulSet's scale by name (only when
 * {@code cleanPodPolicy} asks for a clean-up) and creating Events. {@code pods/exec} is granted on
 * the worker pods by name only, and left out entirely when there are no workers: an empty {@code
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
    if (!"None".equals(SidecarContainers.cleanPodPolicy(plan))) {
      // The sidecar's scale-down, on the one StatefulSet only.
      rules.add(
          new PolicyRuleBuilder()
              .withApiGroups("apps")
              .withResources("statefulsets/scale")
              .withResourceNames(Naming.workerSet(plan.name()))
              .withVerbs("patch")
              .build());
    }
    // The sidecar reports the gate and the clean-up as Events on the launcher Job.
    rules.add(
        new PolicyRuleBuilder()
            .withApiGroups("")
            .withResources("events")
            .withVerbs("create")
            .build());
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
