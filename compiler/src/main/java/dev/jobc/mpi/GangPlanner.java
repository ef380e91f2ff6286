package dev.jobc.mpi;

import dev.jobc.k8s.GangPlan;
import dev.jobc.k8s.GangPlan.Flavor;
import dev.jobc.k8s.GangScheduling;
import dev.jobc.k8s.MinResources;
import dev.jobc.model.ReplicaSpec;
import dev.jobc.model.SchedulingPolicy;
import dev.jobc.options.OptionTable;
import dev.jobc.options.Target;
import java.util.Optional;
import java.util.SortedMap;

/**
 * Decides gang scheduling for a valid MPIJob, matching mpi-operator v2 ({@code
 * pkg/controller/podgroup.go}) except where cluster state would be needed (see {@link
 * MinResources}). Pure.
 */
public final class GangPlanner {
  private GangPlanner() {}

  /**
   * The job's gang scheduler: the {@code jobc.dev/gang-scheduler} annotation when present (empty
   * meaning none), else {@code --gang-scheduler}; {@code null} for none. The annotation is already
   * applied to the model's options.
   */
  public static String scheduler(MpiJobModel job) {
    return job.options().get(OptionTable.GANG_SCHEDULER);
  }

  /**
   * {@code schedulingPolicy.minAvailable}, else workers + 1 (mpi-operator calculateMinAvailable);
   * in the JobSet target, else {@link #startingPods}.
   */
  public static int minMember(MpiJobModel job) {
    SchedulingPolicy policy = job.schedulingPolicy();
    if (policy != null && policy.minAvailable() != null) {
      return policy.minAvailable();
    }
    return jobSet(job) ? startingPods(job) : job.workerReplicas() + 1;
  }

  /**
   * The pods a JobSet starts with: the workers, since the launcher is created only once they are
   * Ready (a gang that counted it would wait for it, and it for them); the launcher when there are
   * none.
   */
  public static int startingPods(MpiJobModel job) {
    return job.workerReplicas() > 0 ? job.workerReplicas() : 1;
  }

  static boolean jobSet(MpiJobModel job) {
    return job.options().get(OptionTable.TARGET) == Target.JOB_SET;
  }

  /** The gang plan, or empty when the job has no gang scheduler. */
  public static Optional<GangPlan> plan(MpiJobModel job) {
    String scheduler = scheduler(job);
    if (scheduler == null) {
      return Optional.empty();
    }
    Flavor flavor = GangScheduling.flavor(scheduler);
    SchedulingPolicy policy = job.schedulingPolicy();
    int minMember = minMember(job);

    SortedMap<String, String> minResources = GangScheduling.givenMinResources(policy);
    if (minResources == null && minMember != 0) {
      minResources =
          !jobSet(job)
              ? MinResources.compute(job.launcher(), job.worker(), minMember)
              : job.workerReplicas() > 0
                  ? MinResources.of(job.worker(), Math.min(minMember, job.workerReplicas()))
                  : MinResources.of(job.launcher(), 1);
    }

    String queue = null;
    String priorityClass = null;
    if (flavor == Flavor.VOLCANO) {
      queue = nonEmpty(policy == null ? null : policy.queue());
      if (queue == null && job.metadata().getAnnotations() != null) {
        queue = nonEmpty(job.metadata().getAnnotations().get(GangScheduling.QUEUE_ANNOTATION));
      }
      // mpi-operator calculatePriorityClassName: the policy's, else the launcher's, else the
      // workers'.
      priorityClass = nonEmpty(policy == null ? null : policy.priorityClass());
      if (priorityClass == null) {
        priorityClass = priorityClassName(job.launcher());
      }
      if (priorityClass == null) {
        priorityClass = priorityClassName(job.worker());
      }
    }
    // mpi-operator v0.8.2 pkg/controller/podgroup.go newPodGroup (scheduler-plugins): the
    // timeout is 0 unless the policy sets one.
    return Optional.of(
        GangScheduling.plan(scheduler, policy, minMember, queue, priorityClass, minResources, 0));
  }

  /** A replica template's {@code priorityClassName}, or {@code null}. */
  public static String priorityClassName(ReplicaSpec spec) {
    if (spec == null || spec.template() == null || spec.template().getSpec() == null) {
      return null;
    }
    return nonEmpty(spec.template().getSpec().getPriorityClassName());
  }

  private static String nonEmpty(String s) {
    return s == null || s.isEmpty() ? null : s;
  }
}
