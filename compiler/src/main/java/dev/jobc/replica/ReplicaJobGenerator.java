package dev.jobc.replica;

import dev.jobc.conventions.MpiLabels;
import dev.jobc.conventions.ReplicaLabels;
import dev.jobc.k8s.Metadata;
import dev.jobc.model.RunPolicy;
import dev.jobc.options.CompileOptions;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
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
    for (ReplicaPod r : plan.replicas()) {
      out.add(
          job(
              r.name(),
              plan.namespace(),
              plan.restartPolicy(r.type()),
              plan.framework().container(),
              plan.job().runPolicy(),
              ReplicaPodTemplates.of(plan, r, true),
              ReplicaLabels.replicaSelector(
                  plan.framework().operator(), plan.name(), r.lower(), r.index()),
              plan.kueueLabels(),
              plan.options()));
    }
    return out;
  }

  /**
   * The Job {@code name} carrying one replica's pod {@code template}: {@code restartPolicy} is the
   * replica's as defaulted, {@code container} the kind's, whose exit codes 1-127 fail the replica;
   * labelled by {@code selector}, jobc's and {@code kueueLabels}. TFJob's generator builds its Jobs
   * here too.
   */
  public static Job job(
      String name,
      String namespace,
      String restartPolicy,
      String container,
      RunPolicy run,
      PodTemplateSpec template,
      Map<String, String> selector,
      Map<String, String> kueueLabels,
      CompileOptions options) {
    JobSpec spec = spec(restartPolicy, container, run, template, true);
    Map<String, String> labels = new LinkedHashMap<>(selector);
    labels.put(MpiLabels.MANAGED_BY, MpiLabels.JOBC);
    labels.putAll(kueueLabels);
    Job job = new Job();
    job.setMetadata(Metadata.of(name, namespace, labels, Metadata.objectAnnotations(options)));
    // The sidecar suspends (TFJob's also fails) a replica's Job once the job's outcome is decided;
    // Flux then leaves it as it is (Argo CD: ignoreDifferences for jobc-sidecar's fields), and a
    // Job's template cannot change after creation anyway.
    Metadata.annotate(job.getMetadata(), Map.of(Metadata.FLUX_SSA, Metadata.IF_NOT_PRESENT));
    job.setSpec(spec);
    return job;
  }

  /**
   * A replica's Job spec: its restart budget, exit-code rule and deadline; {@code ownLifetime} when
   * the Job itself is what the user applies (the plain target), so that {@code suspend} and {@code
   * ttlSecondsAfterFinished} are its own, rather than its JobSet's.
   */
  static JobSpec spec(
      String restartPolicy,
      String container,
      RunPolicy run,
      PodTemplateSpec template,
      boolean ownLifetime) {
    JobSpec spec = new JobSpec();
    spec.setBackoffLimit("Never".equals(restartPolicy) ? Integer.valueOf(0) : run.backoffLimit());
    if ("ExitCode".equals(restartPolicy)) {
      spec.setPodFailurePolicy(exitCodePolicy(container));
    }
    spec.setActiveDeadlineSeconds(run.activeDeadlineSeconds());
    if (ownLifetime) {
      spec.setTtlSecondsAfterFinished(run.ttlSecondsAfterFinished());
      spec.setSuspend(Boolean.TRUE.equals(run.suspend()) ? Boolean.TRUE : null);
    }
    // Replace a failed pod only once it has fully terminated (kubernetes/kubernetes#115844).
    spec.setPodReplacementPolicy("Failed");
    spec.setTemplate(template);
    return spec;
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
