package dev.jobc.replica;

import dev.jobc.conventions.MpiLabels;
import dev.jobc.conventions.ReplicaLabels;
import dev.jobc.k8s.Metadata;
import dev.jobc.model.RunPolicy;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobSpec;
import io.fabric8.kubernetes.api.model.batch.v1.PodFailurePolicy;
import io.fabric8.kubernetes.api.model.batch.v1.PodFailurePolicyOnExitCodesRequirement;
import io.fabric8.kubernetes.api.model.batch.v1.PodFailurePolicyRule;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One {@code batch/v1} Job {@code <job>-<type>-<i>} per replica (the default carrier), so each
 * replica has its own pod, environment and restart budget, and Kubernetes itself does what the
 * operator's restart handling did:
 *
 * <ul>
 *   <li>{@code Never}: {@code backoffLimit: 0}, a failed pod fails the replica;
 *   <li>{@code ExitCode}: pods run with Never, a {@code podFailurePolicy} fails the replica at once
 *       when the kind's container exits with 1-127, and replaces the pod for 128 and above (killed
 *       by a signal: {@code IsRetryableExitCode}), up to {@code runPolicy.backoffLimit};
 *   <li>{@code OnFailure} and {@code Always}: the kubelet restarts the container, up to {@code
 *       runPolicy.backoffLimit} restarts.
 * </ul>
 *
 * {@code activeDeadlineSeconds}, {@code ttlSecondsAfterFinished} and {@code suspend} are set on
 * every replica's Job, and Flux's {@code ssa: IfNotPresent}: the sidecar suspends the Jobs of the
 * replicas still running once the job has finished.
 */
public final class ReplicaJobGenerator {
  static final String FAIL_JOB = "FailJob";

  public List<Job> generate(ReplicaPlan plan) {
    List<Job> out = new ArrayList<>(plan.replicas().size());
    RunPolicy run = plan.job().runPolicy();
    for (ReplicaPod r : plan.replicas()) {
      String policy = plan.restartPolicy(r.type());
      JobSpec spec = new JobSpec();
      spec.setBackoffLimit("Never".equals(policy) ? Integer.valueOf(0) : run.backoffLimit());
      if ("ExitCode".equals(policy)) {
        spec.setPodFailurePolicy(exitCodePolicy(plan.framework().container()));
      }
      spec.setActiveDeadlineSeconds(run.activeDeadlineSeconds());
      spec.setTtlSecondsAfterFinished(run.ttlSecondsAfterFinished());
      spec.setSuspend(Boolean.TRUE.equals(run.suspend()) ? Boolean.TRUE : null);
      // Replace a failed pod only once it has fully terminated (kubernetes/kubernetes#115844).
      spec.setPodReplacementPolicy("Failed");
      spec.setTemplate(ReplicaPodTemplates.of(plan, r, true));
      Map<String, String> labels =
          new LinkedHashMap<>(
              ReplicaLabels.replicaSelector(
                  plan.framework().operator(), plan.name(), r.lower(), r.index()));
      labels.put(MpiLabels.MANAGED_BY, MpiLabels.JOBC);
      labels.putAll(plan.kueueLabels());
      Job job = new Job();
      job.setMetadata(
          Metadata.of(
              r.name(), plan.namespace(), labels, Metadata.objectAnnotations(plan.options())));
      // The sidecar suspends the Job to end the replica: Flux must not undo it (and a Job's
      // template cannot change after creation anyway).
      Metadata.annotate(job.getMetadata(), Map.of(Metadata.FLUX_SSA, "IfNotPresent"));
      job.setSpec(spec);
      out.add(job);
    }
    return out;
  }

  /** Exit codes 1-127 of the kind's container end the replica: they are the program's own. */
  static PodFailurePolicy exitCodePolicy(String container) {
    List<Integer> codes = new ArrayList<>(127);
    for (int code = 1; code <= 127; code++) {
      codes.add(code);
    }
    PodFailurePolicyOnExitCodesRequirement onExitCodes =
        new PodFailurePolicyOnExitCodesRequirement(container, "In", codes);
    PodFailurePolicyRule rule = new PodFailurePolicyRule();
    rule.setAction(FAIL_JOB);
    rule.setOnExitCodes(onExitCodes);
    PodFailurePolicy policy = new PodFailurePolicy();
    policy.setRules(List.of(rule));
    return policy;
  }
}
