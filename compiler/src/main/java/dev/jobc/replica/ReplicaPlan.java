package dev.jobc.replica;

import dev.jobc.bind.ObjectTrees.Snapshot;
import dev.jobc.k8s.GangPlan;
import dev.jobc.options.CompileOptions;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.ServicePort;
import java.util.List;
import java.util.Map;

/**
 * Everything decided about one valid job of the family before objects are built: a kind's planner
 * fills in each replica's environment and init containers, {@link ReplicaPlanner} the rest. A
 * target other than the plain one can build its objects from the same plan.
 *
 * @param replicas every replica, by type (in {@link Framework#types()} order) and index
 * @param templates the plan's own copies of each type's defaulted pod template
 * @param ports each type's Service ports: the kind's container's, sorted by name
 * @param pods whether each replica's pod is a bare Pod ({@code --workers pods}, or a Kueue queue
 *     name) rather than a {@code batch/v1} Job
 * @param serviceAccount the account the deciding replicas run as, which the sidecar's Role is bound
 *     to: the user's, or {@code <job>-sidecar}
 * @param createAccount whether jobc creates {@code serviceAccount} (the user named none)
 * @param kueueLabels the job's {@code kueue.x-k8s.io/*} labels, copied to what Kueue admits
 * @param podGroup whether the pods form one Kueue pod group (a queue name with bare Pods)
 * @param gang the PodGroup and pod decoration, or {@code null} without gang scheduling
 * @param anyDecides whether the first deciding replica to succeed completes the job (PyTorch's
 *     elastic workers) rather than the last
 */
public record ReplicaPlan(
    ReplicaJob job,
    String name,
    String namespace,
    CompileOptions options,
    List<ReplicaPod> replicas,
    Map<String, Snapshot<PodTemplateSpec>> templates,
    Map<String, List<ServicePort>> ports,
    boolean pods,
    String serviceAccount,
    boolean createAccount,
    Map<String, String> kueueLabels,
    boolean podGroup,
    GangPlan gang,
    boolean anyDecides) {

  public ReplicaPlan {
    replicas = List.copyOf(replicas);
    templates = Map.copyOf(templates);
    ports = Map.copyOf(ports);
    kueueLabels = Map.copyOf(kueueLabels);
  }

  public Framework framework() {
    return job.framework();
  }

  /** Whether the job renders as a JobSet ({@code --target jobset}): no sidecar, no pod group. */
  public boolean jobSet() {
    return ReplicaJobSets.chosen(options);
  }

  /** The replica type's restart policy as defaulted. */
  public String restartPolicy(String type) {
    return job.replica(type).spec().restartPolicy();
  }
}
