package dev.jobc.replica;

import dev.jobc.conventions.MpiLabels;
import dev.jobc.k8s.Metadata;
import dev.jobc.k8s.Rbac;
import dev.jobc.options.CompileOptions;
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
 * Role and RoleBinding {@code <job>-sidecar} for the deciding replicas' sidecars, bound to the
 * account those pods run as (the user's, or the ServiceAccount {@code <job>-sidecar} jobc creates):
 * read pods, record Events, and end exactly this job's replica Jobs or Pods by a patch, by name.
 * Never an empty {@code resourceNames}: that would grant it on every object.
 */
public final class SidecarRbacGenerator {

  public List<HasMetadata> generate(ReplicaPlan plan) {
    // What a deciding replica's sidecar may end: the other replicas, and itself after a failure.
    List<String> replicas = new ArrayList<>();
    for (ReplicaPod r : plan.replicas()) {
      replicas.add(r.name());
    }
    List<PolicyRule> rules = rules(replicas, plan.pods(), false);
    return objects(
        plan.name(),
        plan.namespace(),
        plan.options(),
        plan.serviceAccount(),
        plan.createAccount(),
        rules);
  }

  /**
   * Read pods, and with {@code readJobs} (TFJob's sidecar) Jobs when Jobs carry the replicas; patch
   * exactly the {@code replicas}' Pods or Jobs, by name; record Events.
   */
  public static List<PolicyRule> rules(List<String> replicas, boolean pods, boolean readJobs) {
    List<String> names = new ArrayList<>(replicas);
    names.sort(null);
    List<PolicyRule> rules = new ArrayList<>();
    rules.add(Rbac.rule("", "pods", null, "get", "list", "watch"));
    if (pods) {
      rules.add(Rbac.rule("", "pods", names, "patch"));
    } else {
      if (readJobs) {
        rules.add(Rbac.rule("batch", "jobs", null, "get", "list", "watch"));
      }
      rules.add(Rbac.rule("batch", "jobs", names, "patch"));
    }
    rules.add(Rbac.rule("", "events", null, "create"));
    return rules;
  }

  /**
   * The ServiceAccount {@code serviceAccount} when {@code createAccount}, then the Role {@code
   * <job>-sidecar} granting {@code rules} and its RoleBinding to that account. Each kind says what
   * its sidecar may do; TFJob's generator builds its objects here too.
   */
  public static List<HasMetadata> objects(
      String job,
      String namespace,
      CompileOptions options,
      String serviceAccount,
      boolean createAccount,
      List<PolicyRule> rules) {
    String name = job + ReplicaPlanner.SIDECAR_ACCOUNT_SUFFIX;
    Map<String, String> labels = MpiLabels.objectLabels(job);
    Map<String, String> annotations = Metadata.objectAnnotations(options);
    List<HasMetadata> out = new ArrayList<>(3);
    if (createAccount) {
      ServiceAccount account = new ServiceAccount();
      account.setMetadata(Metadata.of(serviceAccount, namespace, labels, annotations));
      out.add(account);
    }
    Role role = new Role();
    role.setMetadata(Metadata.of(name, namespace, labels, annotations));
    role.setRules(rules);
    out.add(role);
    RoleBinding binding = new RoleBinding();
    binding.setMetadata(Metadata.of(name, namespace, labels, annotations));
    binding.setSubjects(List.of(new Subject(null, "ServiceAccount", serviceAccount, namespace)));
    binding.setRoleRef(new RoleRef("rbac.authorization.k8s.io", "Role", name));
    out.add(binding);
    return out;
  }
}
