package dev.jobc.mpi;

import dev.jobc.k8s.MinResources;
import dev.jobc.k8s.QuantitySum;
import dev.jobc.model.ReplicaSpec;
import dev.jobc.model.SchedulingPolicy;
import dev.jobc.mpi.GangPlan.Flavor;
import dev.jobc.options.OptionTable;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Decides gang scheduling for a valid MPIJob, matching mpi-operator v2 ({@code
 * pkg/controller/podgroup.go}) except where cluster state would be needed (see {@link
 * MinResources}). Pure.
 */
public final class GangPlanner {
  /** Per-job choice of gang scheduler; wins over {@code --gang-scheduler}, empty turns it off. */
  public static final String SCHEDULER_ANNOTATION = "jobc.dev/gang-scheduler";

  /** Volcano's queue annotation on the MPIJob (volcano {@code QueueNameAnnotationKey}). */
  public static final String QUEUE_ANNOTATION = "scheduling.volcano.sh/queue-name";

  /** Pod annotation naming the Volcano PodGroup (volcano {@code KubeGroupNameAnnotationKey}). */
  public static final String VOLCANO_GROUP_ANNOTATION = "scheduling.k8s.io/group-name";

  /** Pod label naming the scheduler-plugins PodGroup (scheduler-plugins {@code PodGroupLabel}). */
  public static final String POD_GROUP_LABEL = "scheduling.x-k8s.io/pod-group";

  public static final String VOLCANO = "volcano";
  public static final String SCHEDULER_PLUGINS = "scheduler-plugins";

  /**
   * The scheduler name the scheduler-plugins Helm chart deploys as a second scheduler, and the
   * value Kubeflow's documentation has mpi-operator users pass to {@code --gang-scheduling}.
   */
  public static final String SCHEDULER_PLUGINS_SCHEDULER = "scheduler-plugins-scheduler";

  private GangPlanner() {}

  /**
   * The job's gang scheduler: the {@value #SCHEDULER_ANNOTATION} annotation when present (empty
   * meaning none), else {@code --gang-scheduler}; {@code null} for none. The annotation is already
   * applied to the model's options.
   */
  public static String scheduler(MpiJobModel job) {
    return job.options().get(OptionTable.GANG_SCHEDULER);
  }

  /** mpi-operator v2: {@code volcano} is Volcano; any other name is scheduler-plugins. */
  public static Flavor flavor(String scheduler) {
    return VOLCANO.equals(scheduler) ? Flavor.VOLCANO : Flavor.SCHEDULER_PLUGINS;
  }

  /**
   * The pods' {@code schedulerName}: {@code volcano}; {@value #SCHEDULER_PLUGINS_SCHEDULER} for the
   * alias {@value #SCHEDULER_PLUGINS}; otherwise the name itself, as mpi-operator uses its flag.
   */
  public static String schedulerName(String scheduler) {
    return SCHEDULER_PLUGINS.equals(scheduler) ? SCHEDULER_PLUGINS_SCHEDULER : scheduler;
  }

  /**
   * {@code schedulingPolicy.minAvailable}, else workers + 1 (mpi-operator calculateMinAvailable).
   */
  public static int minMember(MpiJobModel job) {
    SchedulingPolicy policy = job.schedulingPolicy();
    if (policy != null && policy.minAvailable() != null) {
      return policy.minAvailable();
    }
    return job.workerReplicas() + 1;
  }

  /** The gang plan, or empty when the job has no gang scheduler. */
  public static Optional<GangPlan> plan(MpiJobModel job) {
    String scheduler = scheduler(job);
    if (scheduler == null) {
      return Optional.empty();
    }
    Flavor flavor = flavor(scheduler);
    SchedulingPolicy policy = job.schedulingPolicy();
    int minMember = minMember(job);

    SortedMap<String, String> minResources;
    if (policy != null && policy.minResources() != null) {
      // Given values are passed on, printed as the API server would store them.
      SortedMap<String, String> given = new TreeMap<>();
      policy.minResources().forEach((k, v) -> given.put(k, QuantitySum.canonical(v)));
      minResources = given;
    } else if (minMember == 0) {
      minResources = null;
    } else {
      minResources = MinResources.compute(job.launcher(), job.worker(), minMember);
    }
    if (minResources != null && minResources.isEmpty()) {
      minResources = null;
    }

    String queue = null;
    String priorityClass = null;
    if (flavor == Flavor.VOLCANO) {
      queue = nonEmpty(policy == null ? null : policy.queue());
      if (queue == null && job.metadata().getAnnotations() != null) {
        queue = nonEmpty(job.metadata().getAnnotations().get(QUEUE_ANNOTATION));
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
    int timeout =
        policy == null || policy.scheduleTimeoutSeconds() == null
            ? 0
            : policy.scheduleTimeoutSeconds();
    return Optional.of(
        new GangPlan(
            flavor,
            schedulerName(scheduler),
            minMember,
            queue,
            priorityClass,
            timeout,
            minResources));
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
