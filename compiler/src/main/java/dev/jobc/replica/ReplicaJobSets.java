package dev.jobc.replica;

import dev.jobc.conventions.JobSetNames;
import dev.jobc.conventions.MpiLabels;
import dev.jobc.conventions.ReplicaLabels;
import dev.jobc.jobset.JobSet;
import dev.jobc.jobset.JobSetRules;
import dev.jobc.jobset.ReplicatedJob;
import dev.jobc.k8s.Metadata;
import dev.jobc.model.RunPolicy;
import dev.jobc.options.CompileOptions;
import dev.jobc.options.OptionTable;
import dev.jobc.options.Target;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServicePort;
import io.fabric8.kubernetes.api.model.batch.v1.JobSpec;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A job of the family (TFJob too) in the JobSet target: one replicated Job per replica, named
 * {@code <type>-<index>}, whose one child Job {@code <job>-<type>-<index>-0} carries the replica's
 * pod as the plain target's Job does (same template, restart budget and exit-code rule). One per
 * replica, not per type: each pod's environment (TF_CONFIG's task, PyTorch's {@code RANK}, ...)
 * holds literal per-replica values, byte-equal to the plain target's, which one template shared by
 * a type's pods could only give through the completion index and {@code $(VAR)} expansion, and not
 * at all where a value is computed from the index. The child Jobs are {@code NonIndexed}, as the
 * plain target's are, so the Job controller adds no {@code JOB_COMPLETION_INDEX} to the pods'
 * environment (the webhook would default them to Indexed). Upstream's host names {@code
 * <job>-<type>-<i>} stay: the headless Service of each replica selects the JobSet's pod of its
 * replicated Job by the labels the JobSet controller puts on it, and the pod template names that
 * host and Service ({@link ReplicaPodTemplates#hostname}), which the JobSet leaves alone with its
 * DNS host names off.
 */
public final class ReplicaJobSets {
  /** The child Jobs' {@code completionMode}: no index, no {@code JOB_COMPLETION_INDEX}. */
  static final String NON_INDEXED = "NonIndexed";

  private ReplicaJobSets() {}

  /** Whether {@code options} choose the JobSet target. */
  public static boolean chosen(CompileOptions options) {
    return options.get(OptionTable.TARGET) == Target.JOB_SET;
  }

  /** The replicated Job of replica {@code index} of {@code lowerType}: {@code <type>-<index>}. */
  public static String replicatedJob(String lowerType, int index) {
    return lowerType + "-" + index;
  }

  /**
   * One replica as a replicated Job.
   *
   * @param lowerType the replica type in names
   * @param restartPolicy the replica's restart policy as defaulted
   * @param template the replica's pod, as {@link ReplicaPodTemplates} makes it for a Job
   * @param decides whether the replica is one of those whose success completes the job
   */
  public record Member(
      String lowerType,
      int index,
      String restartPolicy,
      PodTemplateSpec template,
      boolean decides) {
    String name() {
      return replicatedJob(lowerType, index);
    }
  }

  /**
   * The JobSet {@code name}: {@code members} in order; success once the deciding members' Jobs have
   * all succeeded, or with {@code anySucceeds} the first of them; failure, as without a failure
   * policy the controller decides it, once any child Job has failed (run out of its restart budget,
   * failed by the exit-code rule or past its deadline), as a replica failing for good fails the job
   * upstream. {@code runPolicy.suspend} and {@code ttlSecondsAfterFinished} become the JobSet's;
   * {@code activeDeadlineSeconds} stays on each child Job, which JobSet has no field for.
   *
   * @param labels the JobSet's labels: the operator's job labels; the job's Kueue labels go on it
   *     alone
   * @param jobAnnotations the job's annotations: those Kueue reads go on the JobSet ({@link
   *     JobSet#annotations})
   */
  public static JobSet jobSet(
      String name,
      String namespace,
      Map<String, String> labels,
      Map<String, String> kueueLabels,
      Map<String, String> jobAnnotations,
      String container,
      RunPolicy run,
      List<Member> members,
      boolean anySucceeds,
      CompileOptions options) {
    List<ReplicatedJob> jobs = new ArrayList<>(members.size());
    List<String> targets = new ArrayList<>();
    for (Member m : members) {
      JobSpec spec =
          ReplicaJobGenerator.spec(m.restartPolicy(), container, run, m.template(), false);
      spec.setCompletionMode(NON_INDEXED);
      jobs.add(ReplicatedJob.of(m.name(), spec));
      if (m.decides()) {
        targets.add(m.name());
      }
    }
    Map<String, String> all = new LinkedHashMap<>(labels);
    all.put(MpiLabels.MANAGED_BY, MpiLabels.JOBC);
    all.putAll(kueueLabels);
    return new JobSet(
        name,
        namespace,
        all,
        JobSet.annotations(Metadata.objectAnnotations(options), jobAnnotations),
        jobs,
        false,
        false,
        targets,
        Boolean.TRUE.equals(run.suspend()),
        run.ttlSecondsAfterFinished(),
        anySucceeds);
  }

  /**
   * The headless Service {@code <job>-<type>-<i>} of one replica (labelled as the plain target's,
   * by {@code labels}), selecting the one pod of the JobSet {@code job}'s replicated Job {@code
   * <type>-<i>}.
   */
  public static Service service(
      String job,
      String namespace,
      String lowerType,
      int index,
      Map<String, String> labels,
      List<ServicePort> ports,
      CompileOptions options) {
    Map<String, String> selector = new LinkedHashMap<>();
    selector.put(JobSetNames.JOBSET_NAME, job);
    selector.put(JobSetNames.REPLICATED_JOB_NAME, replicatedJob(lowerType, index));
    return ReplicaServiceGenerator.service(
        ReplicaLabels.replica(job, lowerType, index), namespace, labels, selector, ports, options);
  }

  /**
   * The shape of the JobSet's replicated Jobs for {@link JobSetRules#check}: the last replica of
   * each type has the longest name.
   *
   * @param counts each type's replicas, by type in names
   */
  public static List<JobSetRules.Shape> shapes(Map<String, Integer> counts) {
    List<JobSetRules.Shape> out = new ArrayList<>();
    counts.forEach(
        (type, count) -> {
          if (count > 0) {
            out.add(new JobSetRules.Shape(replicatedJob(type, count - 1), 1, false));
          }
        });
    return out;
  }
}
