package dev.jobc.tf;

import dev.jobc.bind.ObjectTrees.Snapshot;
import dev.jobc.k8s.GangPlan;
import dev.jobc.options.CompileOptions;
import dev.jobc.replica.ReplicaJobSets;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.ServicePort;
import java.util.List;
import java.util.Map;

/**
 * Everything decided about one valid TFJob before objects are built.
 *
 * @param replicas every replica, by type (in {@link TfReplicaType} order) and index
 * @param pods whether each replica's pod is a bare Pod ({@code --workers pods}) rather than a
 *     {@code batch/v1} Job
 * @param templates the plan's own, unchangeable copies of each type's defaulted pod template
 * @param ports each type's Service ports: the {@code tensorflow} container's, sorted by name
 * @param serviceAccount the account the deciding replica runs as, which the sidecar's Role is bound
 *     to: the user's, or {@code <job>-sidecar}
 * @param createAccount whether jobc creates {@code serviceAccount} (the user named none)
 * @param kueueLabels the job's {@code kueue.x-k8s.io/*} labels, copied to what Kueue admits
 * @param gang the PodGroup and pod decoration, or {@code null} without gang scheduling
 */
public record TfJobPlan(
    TfJobModel job,
    String name,
    String namespace,
    CompileOptions options,
    List<TfReplica> replicas,
    boolean pods,
    Map<TfReplicaType, Snapshot<PodTemplateSpec>> templates,
    Map<TfReplicaType, List<ServicePort>> ports,
    String serviceAccount,
    boolean createAccount,
    Map<String, String> kueueLabels,
    GangPlan gang) {

  public TfJobPlan {
    replicas = List.copyOf(replicas);
    templates = Map.copyOf(templates);
    ports = Map.copyOf(ports);
    kueueLabels = Map.copyOf(kueueLabels);
  }

  /**
   * The (first) replica whose outcome decides the job's and so carries the sidecar; with {@code
   * successPolicy: AllWorkers} and no Chief or Master every Worker does.
   */
  public TfReplica decider() {
    return replicas.stream().filter(TfReplica::decides).findFirst().orElseThrow();
  }

  /** Whether the job renders as a JobSet ({@code --target jobset}): no sidecar, no pod group. */
  public boolean jobSet() {
    return ReplicaJobSets.chosen(options);
  }

  public String restartPolicy(TfReplicaType type) {
    return job.replica(type).spec().restartPolicy();
  }
}
