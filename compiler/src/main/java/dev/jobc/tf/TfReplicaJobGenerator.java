package dev.jobc.tf;

import dev.jobc.conventions.TfLabels;
import dev.jobc.replica.ReplicaJobGenerator;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import java.util.ArrayList;
import java.util.List;

/**
 * One {@code batch/v1} Job {@code <job>-<type>-<i>} per replica (the default carrier), so each
 * replica has its own pod, TF_CONFIG and restart budget, and Kubernetes itself does what the
 * operator's restart handling did:
 *
 * <ul>
 *   <li>{@code Never}: {@code backoffLimit: 0}, a failed pod fails the replica;
 *   <li>{@code ExitCode}: pods run with Never, a {@code podFailurePolicy} fails the replica at once
 *       when the {@code tensorflow} container exits with 1-127, and replaces the pod for 128 and
 *       above (killed by a signal: {@code IsRetryableExitCode}), up to {@code
 *       runPolicy.backoffLimit};
 *   <li>{@code OnFailure} and {@code Always}: the kubelet restarts the container, up to {@code
 *       runPolicy.backoffLimit} restarts.
 * </ul>
 *
 * {@code activeDeadlineSeconds}, {@code ttlSecondsAfterFinished} and {@code suspend} are set on
 * every replica's Job, which carries Flux's {@code ssa: IfNotPresent}: the sidecar ends it by a
 * patch, which a re-apply must not undo.
 */
public final class TfReplicaJobGenerator {

  public List<Job> generate(TfJobPlan plan) {
    List<Job> out = new ArrayList<>(plan.replicas().size());
    for (TfReplica r : plan.replicas()) {
      out.add(
          ReplicaJobGenerator.job(
              r.name(),
              plan.namespace(),
              plan.restartPolicy(r.type()),
              TfJob.CONTAINER,
              plan.job().runPolicy(),
              TfPodTemplates.of(plan, r, true),
              TfLabels.replicaSelector(plan.name(), r.type().lower(), r.index()),
              plan.kueueLabels(),
              plan.options()));
    }
    return out;
  }
}
