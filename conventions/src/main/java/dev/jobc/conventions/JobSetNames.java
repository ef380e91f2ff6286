package dev.jobc.conventions;

/**
 * The names and labels a JobSet's controller gives what it creates (kubernetes-sigs/jobset v0.12.0,
 * {@code pkg/util/placement/placement.go} {@code GenJobName}, {@code GenPodName}; {@code
 * pkg/controllers/jobset_controller.go} {@code labelAndAnnotateObject}), which the compiler writes
 * into hostfiles and scripts and the sidecar matches pods by: child Job {@code
 * <jobset>-<replicatedJob>-<jobIndex>}, pod host name {@code <job>-<completionIndex>} (the Job
 * controller's host name for an Indexed Job's pod), under the JobSet's subdomain. Pod names carry a
 * random suffix on top, so nothing may address a pod by a name computed here.
 */
public final class JobSetNames {
  /** The JobSet API's group and version. */
  public static final String API_VERSION = "jobset.x-k8s.io/v1alpha2";

  public static final String KIND = "JobSet";

  /** Label (and annotation) on every child Job and pod: the JobSet's name. */
  public static final String JOBSET_NAME = "jobset.sigs.k8s.io/jobset-name";

  /** Label on every child Job and pod: the replicated Job's name. */
  public static final String REPLICATED_JOB_NAME = "jobset.sigs.k8s.io/replicatedjob-name";

  /** Label on every child Job and pod: the child Job's index within its replicated Job. */
  public static final String JOB_INDEX = "jobset.sigs.k8s.io/job-index";

  /**
   * Label the Job controller puts on an Indexed Job's pods (Kubernetes 1.28 and later): the pod's
   * completion index.
   */
  public static final String COMPLETION_INDEX = "batch.kubernetes.io/job-completion-index";

  private JobSetNames() {}

  /** {@code GenJobName}: {@code <jobset>-<replicatedJob>-<jobIndex>}. */
  public static String job(String jobSet, String replicatedJob, int jobIndex) {
    return jobSet + "-" + replicatedJob + "-" + jobIndex;
  }

  /**
   * {@code GenPodName}: the host name of an Indexed child Job's pod, {@code
   * <jobset>-<replicatedJob>-<jobIndex>-<completionIndex>}.
   */
  public static String host(String jobSet, String replicatedJob, int jobIndex, int index) {
    return job(jobSet, replicatedJob, jobIndex) + "-" + index;
  }
}
