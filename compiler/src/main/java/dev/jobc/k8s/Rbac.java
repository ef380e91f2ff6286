package dev.jobc.k8s;

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
 * The RBAC objects every job kind grants its launcher: a ServiceAccount, a Role and their binding.
 */
public final class Rbac {
  private Rbac() {}

  /**
   * ServiceAccount, Role and RoleBinding {@code name}: pods get/list/watch, and {@code pods/exec}
   * create on exactly {@code execPods} (no exec rule when it is empty).
   */
  public static List<HasMetadata> objects(
      String name,
      String namespace,
      Map<String, String> labels,
      Map<String, String> annotations,
      List<String> execPods) {
    return objects(name, namespace, labels, annotations, execPods, List.of());
  }

  /** As above, with {@code extra} rules after the exec rule. */
  public static List<HasMetadata> objects(
      String name,
      String namespace,
      Map<String, String> labels,
      Map<String, String> annotations,
      List<String> execPods,
      List<PolicyRule> extra) {
    return objects(name, namespace, labels, annotations, execPods, extra, null);
  }

  /**
   * As above, binding the Role to the existing ServiceAccount {@code account} instead, when it is
   * not {@code null}: then no ServiceAccount is rendered (the user's must not be replaced).
   */
  public static List<HasMetadata> objects(
      String name,
      String namespace,
      Map<String, String> labels,
      Map<String, String> annotations,
      List<String> execPods,
      List<PolicyRule> extra,
      String account) {
    List<PolicyRule> rules = new ArrayList<>();
    rules.add(rule("", "pods", null, "get", "list", "watch"));
    if (!execPods.isEmpty()) {
      rules.add(rule("", "pods/exec", execPods, "create"));
    }
    rules.addAll(extra);
    // Plain constructors: fabric8 builders copy their arguments through reflection.
    ServiceAccount serviceAccount = new ServiceAccount();
    serviceAccount.setMetadata(Metadata.of(name, namespace, labels, annotations));
    Role role = new Role();
    role.setMetadata(Metadata.of(name, namespace, labels, annotations));
    role.setRules(rules);
    RoleBinding binding = new RoleBinding();
    binding.setMetadata(Metadata.of(name, namespace, labels, annotations));
    binding.setSubjects(
        List.of(new Subject(null, "ServiceAccount", account == null ? name : account, namespace)));
    binding.setRoleRef(new RoleRef("rbac.authorization.k8s.io", "Role", name));
    return account == null ? List.of(serviceAccount, role, binding) : List.of(role, binding);
  }

  /** One rule on the core or another API group; {@code names} null for all resources. */
  public static PolicyRule rule(
      String group, String resource, List<String> names, String... verbs) {
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
