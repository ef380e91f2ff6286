package dev.jobc.tf;

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
    // Unlike the other kinds' sidecar, TFJob's reads the replicas' Jobs.
    List<PolicyRule> rules = SidecarRbacGenerator.rules(replicas, plan.pods(), true);
    return SidecarRbacGenerator.objects(
        plan.name(),
        plan.namespace(),
        plan.options(),
        plan.serviceAccount(),
        plan.createAccount(),
        rules);
  }
}
