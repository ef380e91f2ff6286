package dev.jobc.tf;

import dev.jobc.conventions.MpiLabels;
import dev.jobc.k8s.Metadata;
import dev.jobc.k8s.Rbac;
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
 * Role and RoleBinding {@code <job>-sidecar} for the deciding replica's sidecar, bound to the
 * account that pod runs as (the user's, or the ServiceAccount {@code <job>-sidecar} jobc creates):
 * read pods and, when each replica is a Job, Jobs; record Events; and end this job's replicas by a
 * patch of exactly their Jobs or Pods, by name (suspend, or a deadline). Nothing is deleted. Never
 * an empty {@code resourceNames}: that would grant it on every object.
 */
public final class TfRbacGenerator {

  public List<HasMetadata> generate(TfJobPlan plan) {
    String name = plan.name() + TfJobPlanner.SIDECAR_ACCOUNT_SUFFIX;
    Map<String, String> labels = MpiLabels.objectLabels(plan.name());
    Map<String, String> annotations = Metadata.objectAnnotations(plan.options());
    // What a deciding replica's sidecar may end: every replica, its own included (it fails its
    // own Job when another replica failed the job).
    List<String> replicas = new ArrayList<>();
    for (TfReplica r : plan.replicas()) {
      replicas.add(r.name());
    }
    replicas.sort(null);
    List<PolicyRule> rules = new ArrayList<>();
    rules.add(Rbac.rule("", "pods", null, "get", "list", "watch"));
    if (plan.pods()) {
      rules.add(Rbac.rule("", "pods", replicas, "patch"));
    } else {
      rules.add(Rbac.rule("batch", "jobs", null, "get", "list", "watch"));
      rules.add(Rbac.rule("batch", "jobs", replicas, "patch"));
    }
    rules.add(Rbac.rule("", "events", null, "create"));

    List<HasMetadata> out = new ArrayList<>(3);
    if (plan.createAccount()) {
      ServiceAccount account = new ServiceAccount();
      account.setMetadata(
          Metadata.of(plan.serviceAccount(), plan.namespace(), labels, annotations));
      out.add(account);
    }
    Role role = new Role();
    role.setMetadata(Metadata.of(name, plan.namespace(), labels, annotations));
    role.setRules(rules);
    out.add(role);
    RoleBinding binding = new RoleBinding();
    binding.setMetadata(Metadata.of(name, plan.namespace(), labels, annotations));
    binding.setSubjects(
        List.of(new Subject(null, "ServiceAccount", plan.serviceAccount(), plan.namespace())));
    binding.setRoleRef(new RoleRef("rbac.authorization.k8s.io", "Role", name));
    out.add(binding);
    return out;
  }
}
