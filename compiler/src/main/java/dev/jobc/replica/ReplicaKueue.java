package dev.jobc.replica;

import dev.jobc.conventions.MpiLabels;
import dev.jobc.diag.Finding;

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
