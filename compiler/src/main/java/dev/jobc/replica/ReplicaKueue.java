package dev.jobc.replica;

import dev.jobc.conventions.MpiLabels;
import dev.jobc.diag.FieldPath;
import dev.jobc.diag.Finding;
import java.util.List;
import java.util.Map;

/**
 * How a job with a {@code kueue.x-k8s.io/queue-name} label becomes one Kueue Workload in the plain
 * target: its replicas are bare Pods labelled with one {@code pod-group-name} and annotated with
 * the group's {@code pod-group-total-count}, which Kueue's plain-pod integration ({@code
 * pkg/controller/jobs/pod}) admits together as one Workload, all pods or none, as Kueue's
 * integration for the operator's kinds admitted the job. The pods are marked not retriable in their
 * group, so that the Workload finishes, and gives its quota back, once every pod has ended.
 *
 * <p>Not one Job per replica: Kueue's Job integration makes each labelled Job a Workload of its
 * own, so a job could be admitted in part (its master holding quota while its workers wait, two
 * such jobs deadlocked). Nor unlabelled Jobs over labelled pods: the pod webhook ({@code
 * pod_webhook.go Default}) leaves alone every pod whose owner Kueue manages, up to v0.10 whatever
 * the owner's labels ({@code IsOwnerIntegrationEnabled}), so the pods would never form a group.
 */
public final class ReplicaKueue {
  public static final String QUEUE_NAME = MpiLabels.KUEUE_QUEUE_NAME;
  public static final String POD_GROUP_NAME = MpiLabels.KUEUE_PREFIX + "pod-group-name";
  public static final String POD_GROUP_TOTAL_COUNT =
      MpiLabels.KUEUE_PREFIX + "pod-group-total-count";

  /**
   * With {@code "false"} on its pods, a group whose pods have all ended is finished even when some
   * failed: Kueue otherwise waits for replacements, which nothing creates without the operator.
   */
  public static final String RETRIABLE_IN_GROUP = MpiLabels.KUEUE_PREFIX + "retriable-in-group";

  private ReplicaKueue() {}

  /**
   * A queued job whose replicas are one pod group needs Kueue's {@code pod} integration, which
   * Kueue's shipped configuration turns on from v0.16.0 only (kueue {@code
   * config/components/manager/controller_manager_config.yaml}: commented out up to v0.15.0), and
   * which a configuration listing its own {@code integrations.frameworks} without it turns off
   * ({@code apis/config/v1beta1/defaults.go} defaults the list only when it is empty). Without it
   * nothing gates the pods: they start at once, outside every quota. jobc cannot see the
   * configuration, so every such render says so.
   */
  public static void needsPodIntegration(Map<String, String> labels, List<Finding> out) {
    if (labels == null || !labels.containsKey(QUEUE_NAME)) {
      return;
    }
    out.add(
        Finding.warning(
            FieldPath.of("metadata", "labels").key(QUEUE_NAME),
            "Kueue admits the replicas' bare Pods as one pod group through its pod integration"
                + " (\"pod\" in integrations.frameworks), on in Kueue's shipped configuration from"
                + " v0.16.0 only, and off in a configuration that lists frameworks without it;"
                + " with it off the Pods start at once, outside every quota"
                + " (docs/scheduling.md#kueue)"));
  }

  /**
   * With {@code runPolicy.managedBy: kueue.x-k8s.io/multikueue}, MultiKueue dispatches the job
   * itself to a worker cluster that runs training-operator (the controllers skip it here: {@code
   * ManagedByExternalController}); rendering it too would run it twice. The warning to pass it
   * through unrendered, or {@code null} to render it.
   */
  public static Finding renderedElsewhere(ReplicaJob job) {
    if (!ReplicaValidator.MULTIKUEUE.equals(job.runPolicy().managedBy())) {
      return null;
    }
    return Finding.warning(
        ReplicaValidator.RUN_POLICY.child("managedBy"),
        "passed through unrendered: MultiKueue dispatches this "
            + job.framework().kind()
            + " to a worker cluster running training-operator");
  }
}
