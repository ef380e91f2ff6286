package dev.jobc.mpi;

import dev.jobc.conventions.MpiLabels;
import dev.jobc.jobset.JobSet;
import dev.jobc.jobset.ReplicatedJob;
import dev.jobc.k8s.Metadata;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.batch.v1.JobSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The JobSet target's JobSet {@code <job>}: a replicated Job {@code worker}, one Indexed Job whose
 * pods are the workers (host names {@code <job>-worker-0-<i>} under the subdomain {@code <job>}),
 * then a replicated Job {@code launcher} that the JobSet controller creates only once every worker
 * is Ready ({@code dependsOn}; mpi-operator v0.8.2's {@code WaitForWorkersReady}, which the plain
 * target's sidecar gate reproduces). The launcher alone decides: the JobSet succeeds when the
 * launcher's Job does ({@code successPolicy}) and fails when it fails for good ({@code
 * backoffLimit} as mpi-operator v2beta1 sets it on its launcher Job); either way the controller
 * then deletes the workers. The worker Job never fails: like the plain target's StatefulSet it
 * replaces a lost worker ({@code backoffLimit} 2147483647), so that only the launcher's outcome
 * counts.
 */
public final class MpiJobSetGenerator {
  static final String INDEXED = "Indexed";

  private final LauncherJobGenerator launchers;

  MpiJobSetGenerator(LauncherJobGenerator launchers) {
    this.launchers = launchers;
  }

  public GenericKubernetesResource generate(MpiJobPlan plan) {
    List<ReplicatedJob> jobs = new ArrayList<>(2);
    if (plan.workers() > 0) {
      JobSpec workers = new JobSpec();
      workers.setCompletionMode(INDEXED);
      workers.setCompletions(plan.workers());
      workers.setParallelism(plan.workers());
      workers.setBackoffLimit(Integer.MAX_VALUE);
      // kubexec.sh finds a worker's pod as the Running one of its index: a failed worker is
      // replaced only once it has terminated.
      workers.setPodReplacementPolicy("Failed");
      workers.setTemplate(
          WorkerTemplates.build(plan, workerRestartPolicy(plan.job().worker().restartPolicy())));
      jobs.add(ReplicatedJob.of(MpiLabels.WORKER, workers));
    }
    JobSpec launcher = launchers.jobSpec(plan);
    // Indexed, so that the Job controller gives the launcher pod its host name <job>-launcher-0-0.
    launcher.setCompletionMode(INDEXED);
    launcher.setCompletions(1);
    launcher.setParallelism(1);
    jobs.add(
        plan.workers() > 0
            ? new ReplicatedJob(MpiLabels.LAUNCHER, MpiLabels.WORKER, ReplicatedJob.READY, launcher)
            : ReplicatedJob.of(MpiLabels.LAUNCHER, launcher));
    Map<String, String> labels = MpiLabels.objectLabels(plan.name());
    // Kueue admits the JobSet as one Workload, a pod set per replicated Job.
    labels.putAll(MpiLabels.kueueLabels(plan.job().metadata().getLabels()));
    return new JobSet(
            plan.name(),
            plan.namespace(),
            labels,
            JobSet.annotations(
                Metadata.objectAnnotations(plan.options()), plan.job().metadata().getAnnotations()),
            jobs,
            true,
            // A launcher that runs ranks must resolve before it is Ready, or it waits for itself
            // (mpi-operator v2beta1 newJobService); the workers are Ready before it starts.
            plan.job().runLauncherAsWorker(),
            List.of(MpiLabels.LAUNCHER),
            plan.job().suspend(),
            plan.job().ttlSecondsAfterFinished(),
            false)
        .resource();
  }

  /**
   * The worker pods' restart policy: a Job's pods restart with {@code OnFailure} or {@code Never}
   * only. {@code Always} (the StatefulSet's, and v1alpha1/v1alpha2's default) restarts the
   * container in place as {@code OnFailure} does; {@code ExitCode} runs with {@code Never}, as
   * mpi-operator v2beta1 runs its pods.
   */
  static String workerRestartPolicy(String policy) {
    if (policy == null || policy.isEmpty() || "Always".equals(policy)) {
      return "OnFailure";
    }
    return "ExitCode".equals(policy) ? "Never" : policy;
  }
}
