package dev.jobc.mpi;

import static dev.jobc.diag.Finding.error;
import static dev.jobc.diag.Finding.warning;

import dev.jobc.diag.Code;
import dev.jobc.diag.FieldPath;
import dev.jobc.diag.Finding;
import dev.jobc.diag.Quoting;
import dev.jobc.k8s.GangPlan.Flavor;
import dev.jobc.k8s.GangScheduling;
import dev.jobc.k8s.Quantities;
import dev.jobc.model.ReplicaSpec;
import dev.jobc.model.SchedulingPolicy;
import dev.jobc.validate.FieldRules;
import io.fabric8.kubernetes.api.model.Quantity;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Checks {@code runPolicy.schedulingPolicy} against the job's gang scheduler (the {@value
 * GangScheduling#SCHEDULER_ANNOTATION} annotation's value is checked where annotations are
 * applied). Upstream validates none of it: a negative {@code minAvailable} or timeout reaches the
 * scheduler, and settings the chosen scheduler ignores are dropped silently. jobc rejects the
 * impossible values and warns about the ignored ones.
 */
final class GangValidator {
  private static final FieldPath POLICY = MpiPaths.RUN_POLICY.child("schedulingPolicy");

  private GangValidator() {}

  static void validate(MpiJobModel job, List<Finding> out) {
    Map<String, String> annotations =
        job.metadata() == null ? null : job.metadata().getAnnotations();
    // An invalid annotation value is reported where the jobc.dev annotations are applied.
    String annotated =
        annotations == null ? null : annotations.get(GangScheduling.SCHEDULER_ANNOTATION);
    SchedulingPolicy policy = job.schedulingPolicy();
    if (policy != null) {
      FieldRules.nonNegative(POLICY.child("minAvailable"), policy.minAvailable(), out);
      FieldRules.nonNegative(
          POLICY.child("scheduleTimeoutSeconds"), policy.scheduleTimeoutSeconds(), out);
      if (policy.minResources() != null) {
        policy.minResources().forEach((name, q) -> nonNegative(name, q, out));
      }
    }
    String scheduler = GangPlanner.scheduler(job);
    if (scheduler == null) {
      if (policy != null) {
        out.add(
            warning(
                POLICY,
                annotated != null && annotated.isEmpty()
                    ? "ignored: the empty "
                        + GangScheduling.SCHEDULER_ANNOTATION
                        + " annotation turns gang scheduling off for this job"
                    : "ignored: no gang scheduler is set; pass --gang-scheduler volcano,"
                        + " scheduler-plugins or a scheduler name, or annotate the job with "
                        + GangScheduling.SCHEDULER_ANNOTATION));
      }
      return;
    }
    Flavor flavor = GangScheduling.flavor(scheduler);
    String schedulerName = GangScheduling.schedulerName(scheduler);
    warnAboutSchedulerName(job, MpiJob.LAUNCHER, job.launcher(), schedulerName, out);
    warnAboutSchedulerName(job, MpiJob.WORKER, job.worker(), schedulerName, out);
    if (policy == null) {
      return;
    }
    int pods = (job.launcher() == null ? 0 : 1) + job.workerReplicas();
    Integer minAvailable = policy.minAvailable();
    if (minAvailable != null && minAvailable == 0) {
      out.add(
          warning(
              POLICY.child("minAvailable"),
              "0 makes the PodGroup require nothing, so the pods are not gang-scheduled; leave"
                  + " minAvailable out for workers + 1 ("
                  + (job.workerReplicas() + 1)
                  + ")"));
    } else if (minAvailable != null
        && GangPlanner.jobSet(job)
        && minAvailable > GangPlanner.startingPods(job)) {
      out.add(
          error(
              Code.INVALID,
              POLICY.child("minAvailable"),
              "Invalid value: "
                  + minAvailable
                  + ": must be at most the "
                  + GangPlanner.startingPods(job)
                  + " pods the JobSet starts with: in target jobset the launcher is created only"
                  + " once every worker is Ready, so a gang that counts it is never complete"));
    } else if (minAvailable != null && minAvailable > pods) {
      out.add(
          warning(
              POLICY.child("minAvailable"),
              minAvailable
                  + " is more than the job's "
                  + pods
                  + " pods (launcher and workers): the gang can never be complete and every pod"
                  + " stays Pending"));
    }
    if (flavor == Flavor.VOLCANO) {
      if (policy.scheduleTimeoutSeconds() != null) {
        out.add(
            warning(
                POLICY.child("scheduleTimeoutSeconds"),
                "ignored: Volcano PodGroups have no schedule timeout (scheduler-plugins only)"));
      }
    } else {
      if (nonEmpty(policy.queue())) {
        out.add(
            warning(
                POLICY.child("queue"),
                "ignored: queue is a Volcano setting; scheduler-plugins PodGroups have none"));
      }
      if (nonEmpty(policy.priorityClass())) {
        out.add(
            warning(
                POLICY.child("priorityClass"),
                "ignored: scheduler-plugins PodGroups have no priority class; the pods' own"
                    + " priorityClassName applies"));
      }
    }
    warnAboutPriorityOrder(job, policy, pods, out);
  }

  /** mpi-operator v2 replaces any other scheduler name too, with only a log line to show for it. */
  private static void warnAboutSchedulerName(
      MpiJobModel job, String type, ReplicaSpec spec, String schedulerName, List<Finding> out) {
    if (spec == null || spec.template() == null || spec.template().getSpec() == null) {
      return;
    }
    String given = spec.template().getSpec().getSchedulerName();
    if (nonEmpty(given) && !given.equals(schedulerName)) {
      FieldPath path =
          job.paths().replica(type).child("template").child("spec").child("schedulerName");
      if (out.stream().anyMatch(f -> f.path().equals(path))) {
        return; // v1alpha1: one template serves both roles
      }
      out.add(
          warning(
              path,
              Quoting.quote(given)
                  + " is replaced by "
                  + Quoting.quote(schedulerName)
                  + ": every pod of the gang must be scheduled by the gang scheduler"));
    }
  }

  /**
   * Upstream picks which pods {@code minResources} counts by live PriorityClass values; jobc keeps
   * the launcher and cuts workers. Say so when the classes differ and the choice matters.
   */
  private static void warnAboutPriorityOrder(
      MpiJobModel job, SchedulingPolicy policy, int pods, List<Finding> out) {
    Integer minAvailable = policy.minAvailable();
    if (policy.minResources() != null
        || minAvailable == null
        || minAvailable <= 0
        || minAvailable >= pods
        || job.worker() == null) {
      return;
    }
    String launcherClass = GangPlanner.priorityClassName(job.launcher());
    String workerClass = GangPlanner.priorityClassName(job.worker());
    if (Objects.equals(launcherClass, workerClass)) {
      return;
    }
    out.add(
        warning(
            POLICY.child("minAvailable"),
            "minResources counts the launcher and "
                + (minAvailable - 1)
                + " of "
                + job.workerReplicas()
                + " workers; mpi-operator would rank launcher and workers by the values of their"
                + " PriorityClasses ("
                + quoted(launcherClass)
                + ", "
                + quoted(workerClass)
                + "), which are not known when rendering; set schedulingPolicy.minResources to"
                + " decide"));
  }

  private static void nonNegative(String name, Quantity q, List<Finding> out) {
    if (q == null) {
      return;
    }
    BigDecimal amount = Quantities.value(q);
    if (amount == null) {
      String beyond = Quantities.beyondBounds(Quantities.text(q));
      if (beyond != null) { // bad syntax is the schema's to report
        out.add(
            error(
                Code.INVALID,
                POLICY.child("minResources").key(name),
                "Invalid value: " + Quoting.quote(Quantities.text(q)) + ": " + beyond));
      }
      return;
    }
    if (amount.compareTo(BigDecimal.ZERO) < 0) {
      out.add(
          error(
              Code.INVALID,
              POLICY.child("minResources").key(name),
              "Invalid value: "
                  + Quoting.quote(q.toString())
                  + ": must be greater than or equal to 0"));
    }
  }

  private static String quoted(String s) {
    return s == null ? "none" : Quoting.quote(s);
  }

  private static boolean nonEmpty(String s) {
    return s != null && !s.isEmpty();
  }
}
