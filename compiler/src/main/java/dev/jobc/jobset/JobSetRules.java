package dev.jobc.jobset;

import static dev.jobc.diag.Finding.error;

import dev.jobc.conventions.JobSetNames;
import dev.jobc.conventions.MpiLabels;
import dev.jobc.diag.Code;
import dev.jobc.diag.FieldPath;
import dev.jobc.diag.Finding;
import dev.jobc.diag.Quoting;
import dev.jobc.options.CompileOptions;
import dev.jobc.options.OptionTable;
import dev.jobc.options.Target;
import java.util.List;
import java.util.Map;

/**
 * What the JobSet webhook (kubernetes-sigs/jobset v0.12.0, {@code pkg/webhooks/jobset_webhook.go}
 * {@code ValidateCreate}) and Kueue would refuse about the JobSet a job becomes, found before
 * anything is applied, at the job's own field and with upstream's wording.
 */
public final class JobSetRules {
  /** The longest DNS-1035 label, which every child Job name and pod name must be. */
  static final int NAME_MAX = 63;

  /**
   * What the webhook adds to the longest pod host name to stand for the random suffix of the pod's
   * name ({@code "-abcde"}).
   */
  static final String POD_SUFFIX = "-abcde";

  private static final FieldPath NAME = FieldPath.of("metadata", "name");

  private JobSetRules() {}

  /**
   * One replicated Job's shape, as the rules need it.
   *
   * @param name the replicated Job's name
   * @param pods the most pods its one child Job may run ({@code completions}), which the longest
   *     pod name ends with
   * @param indexed whether it is an Indexed Job, whose pods the webhook checks names for
   */
  public record Shape(String name, int pods, boolean indexed) {}

  /**
   * Checks the child Job and pod names of a JobSet {@code jobSet} of {@code count} replicated Jobs,
   * of which {@code longest} are those with the longest names (all of them, or one per kind when
   * they are many), and (with a Kueue queue name among the job's {@code labels}) their number
   * against Kueue's limit.
   */
  public static void check(
      String jobSet,
      List<Shape> longest,
      long count,
      Map<String, String> labels,
      CompileOptions options,
      List<Finding> out) {
    for (Shape shape : longest) {
      // Each replicated Job has one child Job, index 0, which is also the longest.
      String job = JobSetNames.job(jobSet, shape.name(), 0);
      if (job.length() > NAME_MAX) {
        out.add(
            invalid(
                job,
                "JobSet name is too long, job names generated for this JobSet will exceed 63"
                    + " characters"));
      } else if (shape.indexed()) {
        String pod = JobSetNames.host(jobSet, shape.name(), 0, shape.pods() - 1) + POD_SUFFIX;
        if (pod.length() > NAME_MAX) {
          out.add(
              invalid(
                  pod,
                  "JobSet name is too long, pod names generated for this JobSet will exceed 63"
                      + " characters"));
        }
      }
    }
    int limit = options.get(OptionTable.KUEUE_MAX_POD_SETS);
    if (labels != null && labels.containsKey(MpiLabels.KUEUE_QUEUE_NAME) && count > limit) {
      // kueue pkg/controller/jobs/jobset (PodSets): one pod set per replicated Job; the Workload
      // API allows 8 up to v0.17, 10 in v0.18.0, 18 in v0.19 (MaxItems of spec.podSets).
      out.add(
          error(
              Code.FORBIDDEN,
              FieldPath.of("metadata", "labels").key(MpiLabels.KUEUE_QUEUE_NAME),
              "Forbidden: Kueue admits the JobSet as one Workload with a pod set per replicated"
                  + " Job: "
                  + count
                  + " here, more than the limit of "
                  + limit
                  + " (--kueue-max-pod-sets: 8 up to Kueue v0.17, 10 in v0.18, 18 in v0.19);"
                  + " remove the label, or raise the limit if your Kueue allows more"));
    }
  }

  /**
   * A queued JobSet's {@code spec.suspend} is Kueue's, so jobc renders none ({@link
   * JobSet#resource}): Kueue's webhook suspends the JobSet at creation (kueue v0.19.2 {@code
   * pkg/controller/jobs/jobset/jobset_webhook.go} {@code Default}, {@code
   * jobframework.ApplyDefaultForSuspend}) and admission resumes it ({@code
   * pkg/controller/jobframework/reconciler.go} {@code startJob}, {@code jobset_controller.go}
   * {@code RunWithPodSetsInfo}). A {@code suspend: true} in Git would suspend the admitted job
   * again at every re-apply, and Kueue would resume it: a warning at {@code path} says so.
   */
  public static void queuedSuspend(
      Map<String, String> labels, boolean suspend, FieldPath path, List<Finding> out) {
    if (suspend && queued(labels)) {
      out.add(
          Finding.warning(
              path,
              "a JobSet with a kueue.x-k8s.io/queue-name is suspended by Kueue until admitted, and"
                  + " Kueue owns its spec.suspend: jobc renders none, so that a re-apply of Git"
                  + " never suspends the admitted job again; to hold a queued job, deactivate its"
                  + " Workload (spec.active: false) or stop its LocalQueue (docs/jobset.md#kueue)"));
    }
  }

  /** Whether {@code labels} name a Kueue queue. */
  public static boolean queued(Map<String, String> labels) {
    return labels != null && labels.containsKey(MpiLabels.KUEUE_QUEUE_NAME);
  }

  /**
   * Refuses the JobSet target for a job of {@code kind}, which does not render as a JobSet, with
   * {@code reason}: a located error at the job's {@code kind}, so that nothing is rendered in a
   * target the user did not choose.
   */
  public static void refuse(CompileOptions options, String kind, String reason, List<Finding> out) {
    if (options.get(OptionTable.TARGET) == Target.JOB_SET) {
      out.add(
          error(
              Code.NOT_SUPPORTED,
              FieldPath.of("kind"),
              "Unsupported value: "
                  + Quoting.quote(kind)
                  + ": target jobset: "
                  + reason
                  + "; render this job with --target plain (or jobc.dev/target: plain)"));
    }
  }

  private static Finding invalid(String value, String detail) {
    return error(Code.INVALID, NAME, "Invalid value: " + Quoting.quote(value) + ": " + detail);
  }
}
