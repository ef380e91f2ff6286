package dev.jobc.generate;

import dev.jobc.conventions.MpiLabels;
import dev.jobc.conventions.Naming;
import dev.jobc.plan.MpiJobPlan;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import io.fabric8.kubernetes.api.model.rbac.RoleRef;
import io.fabric8.kubernetes.api.model.rbac.Subject;
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
              ? rule("", "pods", plan.roleExecPods(), "delete")
              : rule(
                  "apps", "statefulsets/scale", List.of(Naming.workerSet(plan.name())), "patch"));
    }
    // The sidecar reports the gate and the clean-up as Events on the launcher Job.
    sidecar.add(rule("", "events", null, "create"));
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
    rules.add(rule("", "pods", null, "get", "list", "watch"));
    if (!execPods.isEmpty()) {
      rules.add(rule("", "pods/exec", execPods, "create"));
    }
    rules.addAll(extra);
    // Plain constructors: fabric8 builders copy their arguments through reflection.
    ServiceAccount account = new ServiceAccount();
    account.setMetadata(Metadata.of(name, namespace, labels));
    Role role = new Role();
    role.setMetadata(Metadata.of(name, namespace, labels));
    role.setRules(rules);
    RoleBinding binding = new RoleBinding();
    binding.setMetadata(Metadata.of(name, namespace, labels));
    binding.setSubjects(List.of(new Subject(null, "ServiceAccount", name, namespace)));
    binding.setRoleRef(new RoleRef("rbac.authorization.k8s.io", "Role", name));
    return List.of(account, role, binding);
  }

  /** One rule on the core or another API group; {@code names} null for all resources. */
  static PolicyRule rule(String group, String resource, List<String> names, String... verbs) {
    PolicyRule rule = new PolicyRule();
    rule.setApiGroups(List.of(group));
    rule.setResources(List.of(resource));
    if (names != null) {
      rule.setResourceNames(List.copyOf(names));
    }
    rule.setVerbs(List.of(verbs));
    return rule;
  }
}
