package dev.jobc.tf;

import dev.jobc.k8s.Rbac;
import dev.jobc.replica.SidecarRbacGenerator;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import java.util.ArrayList;
import java.util.List;

/**
 * Role and RoleBinding {@code <job>-sidecar} for the deciding replica's sidecar, bound to the
 * account that pod runs as (the user's, or the ServiceAccount {@code <job>-sidecar} jobc creates):
 * read pods and, when each replica is a Job, Jobs; record Events; and end this job's replicas by a
 * patch of exactly their Jobs or Pods, by name (suspend, or a deadline). Nothing is deleted. Never
 * an empty {@code resourceNames}: that would grant it on every object.
 */
public final class TfRbacGenerator {

  public List<HasMetadata> generate(TfJobPlan plan) {
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
      // Unlike the other kinds' sidecar, TFJob's reads the replicas' Jobs.
      rules.add(Rbac.rule("batch", "jobs", null, "get", "list", "watch"));
      rules.add(Rbac.rule("batch", "jobs", replicas, "patch"));
    }
    rules.add(Rbac.rule("", "events", null, "create"));

    return SidecarRbacGenerator.objects(
        plan.name(),
        plan.namespace(),
        plan.options(),
        plan.serviceAccount(),
        plan.createAccount(),
        rules);
  }
}
