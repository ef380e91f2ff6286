package dev.jobc.sidecar.replicas;

import dev.jobc.sidecar.ApiStandIn;
import dev.jobc.sidecar.base.Pods;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.JobCondition;
import io.fabric8.kubernetes.api.model.batch.v1.JobConditionBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.JobStatus;
import io.fabric8.kubernetes.client.dsl.NonDeletingOperation;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * What Kubernetes' Job controller ({@code pkg/controller/job/job_controller.go}, {@code syncJob})
 * does to the stand-in API's Jobs, once per {@link #sync}, when the test asks: nothing runs by
 * itself, so a test decides when the controller acts and no outcome depends on timing.
 *
 * <ul>
 *   <li>a finished Job ({@code Complete} or {@code Failed}) is left alone;
 *   <li>a suspended one has its active pods deleted without counting them ({@code deleteJobPods}
 *       removes their tracking finalizer first) and gets condition {@code Suspended}; a deleted pod
 *       is reported Failed (exit 143: the main process ended by the SIGTERM of the kubelet's {@code
 *       killContainer}, {@code pkg/kubelet/kuberuntime/kuberuntime_container.go}) before it goes;
 *   <li>a failed pod whose exit code a {@code podFailurePolicy} rule with {@code FailJob} matches
 *       fails it ({@code PodFailurePolicy}; {@code pkg/controller/job/pod_failure_policy.go},
 *       {@code matchPodFailurePolicy}); failed pods beyond {@code backoffLimit} (default 6), or
 *       with restart policy OnFailure the restarts of its running pods reaching it ({@code
 *       pastBackoffLimitOnFailure}), fail it ({@code BackoffLimitExceeded}); so does its {@code
 *       activeDeadlineSeconds} when the Job has been active as long ({@link #activeSeconds}, {@code
 *       DeadlineExceeded}); its active pods are then deleted;
 *   <li>a succeeded pod completes it;
 *   <li>otherwise, without an active pod, it creates one from the template, running at once (the
 *       scheduler's and kubelet's part): the Job runs. {@link #created} lists them.
 * </ul>
 */
final class JobControllerStandIn {
  static final String JOB_NAME_LABEL = "batch.kubernetes.io/job-name";

  /** What keeps a Job's pod until the Job controller has counted it. */
  static final String TRACKING_FINALIZER = "batch.kubernetes.io/job-tracking";

  private final ApiStandIn api;

  /** How long every started Job has been active, for {@code activeDeadlineSeconds}. */
  volatile int activeSeconds = 60;

  /** The pods created, in order. */
  final List<String> created = new CopyOnWriteArrayList<>();

  JobControllerStandIn(ApiStandIn api) {
    this.api = api;
  }

  /** One sync of every Job. */
  void sync() {
    for (Job job : api.admin.batch().v1().jobs().inNamespace(ApiStandIn.NS).list().getItems()) {
      sync(job);
    }
  }

  /** The pods of {@code job}, by name. */
  Map<String, Pod> pods(String job) {
    Map<String, Pod> out = new LinkedHashMap<>();
    for (Pod p :
        api.admin
            .pods()
            .inNamespace(ApiStandIn.NS)
            .withLabel(JOB_NAME_LABEL, job)
            .list()
            .getItems()) {
      out.put(p.getMetadata().getName(), p);
    }
    return out;
  }

  /** The one active pod of {@code job}. */
  String activePod(String job) {
    return pods(job).values().stream()
        .filter(JobControllerStandIn::active)
        .map(p -> p.getMetadata().getName())
        .findFirst()
        .orElseThrow(() -> new AssertionError("no active pod of Job " + job));
  }

  private void sync(Job job) {
    if (finished(job)) {
      return;
    }
    String name = job.getMetadata().getName();
    Map<String, Pod> pods = pods(name);
    List<Pod> active = pods.values().stream().filter(JobControllerStandIn::active).toList();
    if (Boolean.TRUE.equals(job.getSpec().getSuspend())) {
      active.forEach(p -> delete(p));
      setStatus(name, condition("Suspended", "JobSuspended"), 0);
      return;
    }
    int limit = job.getSpec().getBackoffLimit() == null ? 6 : job.getSpec().getBackoffLimit();
    int failed = 0;
    String failReason = null;
    for (Pod p : pods.values()) {
      if (!"Failed".equals(Pods.phase(p))) {
        continue;
      }
      String action = ReplicaStates.failurePolicyAction(job.getSpec().getPodFailurePolicy(), p);
      if ("FailJob".equals(action)) {
        failReason = "PodFailurePolicy";
      }
      if (!"Ignore".equals(action)) {
        failed++;
      }
    }
    if (failReason == null && failed > limit) {
      failReason = "BackoffLimitExceeded";
    }
    if (failReason == null
        && "OnFailure".equals(job.getSpec().getTemplate().getSpec().getRestartPolicy())) {
      int restarts = 0;
      for (Pod p : active) {
        restarts += ReplicaStates.restarts(p);
      }
      if (limit == 0 ? restarts > 0 : restarts >= limit) {
        failReason = "BackoffLimitExceeded";
      }
    }
    if (failReason == null
        && job.getSpec().getActiveDeadlineSeconds() != null
        && job.getSpec().getActiveDeadlineSeconds() <= activeSeconds) {
      failReason = "DeadlineExceeded";
    }
    if (failReason != null) {
      active.forEach(p -> delete(p));
      setStatus(name, condition("Failed", failReason), failed);
      return;
    }
    if (pods.values().stream().anyMatch(p -> "Succeeded".equals(Pods.phase(p)))) {
      setStatus(name, condition("Complete", null), failed);
      return;
    }
    if (active.isEmpty()) {
      create(job, pods.size() + 1);
    }
    setStatus(name, null, failed);
  }

  private void create(Job job, int attempt) {
    String name = job.getMetadata().getName() + "-p" + attempt;
    var template = job.getSpec().getTemplate();
    Map<String, String> labels = new LinkedHashMap<>();
    if (template.getMetadata() != null && template.getMetadata().getLabels() != null) {
      labels.putAll(template.getMetadata().getLabels());
    }
    labels.put(JOB_NAME_LABEL, job.getMetadata().getName());
    Pod pod =
        new PodBuilder()
            .withMetadata(
                new ObjectMetaBuilder()
                    .withName(name)
                    .withNamespace(ApiStandIn.NS)
                    .withLabels(labels)
                    .withFinalizers(TRACKING_FINALIZER)
                    .withOwnerReferences(
                        new OwnerReferenceBuilder()
                            .withApiVersion("batch/v1")
                            .withKind("Job")
                            .withName(job.getMetadata().getName())
                            .withUid(job.getMetadata().getUid())
                            .withController(true)
                            .build())
                    .build())
            .withSpec(template.getSpec())
            .build();
    pod = ApiStandIn.everyContainer(pod, "Running", c -> ApiStandIn.running(c, 0));
    api.admin
        .pods()
        .inNamespace(ApiStandIn.NS)
        .resource(pod)
        .createOr(NonDeletingOperation::update);
    created.add(name);
  }

  /**
   * Deletes a pod as it goes in a cluster: its Job's tracking finalizer keeps it while it is marked
   * for deletion, the kubelet stops its containers (SIGTERM, exit 143) and reports it Failed, and
   * once the finalizer is gone so is the pod.
   */
  private void delete(Pod p) {
    String name = p.getMetadata().getName();
    api.delete(name);
    api.editPod(
        name, pod -> ApiStandIn.everyContainer(pod, "Failed", c -> ApiStandIn.terminated(c, 143)));
    api.editPod(
        name, pod -> new PodBuilder(pod).editMetadata().withFinalizers().endMetadata().build());
  }

  private void setStatus(String job, JobCondition condition, int failed) {
    // Again on a conflict: the sidecar may have patched the Job since it was read.
    ApiStandIn.retrying(() -> editStatus(job, condition, failed));
  }

  private void editStatus(String job, JobCondition condition, int failed) {
    api.admin
        .batch()
        .v1()
        .jobs()
        .inNamespace(ApiStandIn.NS)
        .withName(job)
        .edit(
            j -> {
              JobStatus status = j.getStatus() == null ? new JobStatus() : j.getStatus();
              List<JobCondition> conditions =
                  new ArrayList<>(
                      status.getConditions() == null ? List.of() : status.getConditions());
              if (condition != null) {
                conditions.removeIf(c -> c.getType().equals(condition.getType()));
                conditions.add(condition);
              }
              return new JobBuilder(j)
                  .editOrNewStatus()
                  .withConditions(conditions)
                  .withFailed(failed)
                  .endStatus()
                  .build();
            });
  }

  private static JobCondition condition(String type, String reason) {
    return new JobConditionBuilder().withType(type).withStatus("True").withReason(reason).build();
  }

  static boolean finished(Job job) {
    if (job.getStatus() == null || job.getStatus().getConditions() == null) {
      return false;
    }
    return job.getStatus().getConditions().stream()
        .anyMatch(
            c ->
                "True".equals(c.getStatus())
                    && ("Complete".equals(c.getType()) || "Failed".equals(c.getType())));
  }

  static boolean active(Pod p) {
    String phase = Pods.phase(p);
    return !"Succeeded".equals(phase) && !"Failed".equals(phase);
  }

  /** The condition of {@code type} with status True, or {@code null}. */
  static JobCondition conditionOf(Job job, String type) {
    if (job == null || job.getStatus() == null || job.getStatus().getConditions() == null) {
      return null;
    }
    return job.getStatus().getConditions().stream()
        .filter(c -> type.equals(c.getType()) && "True".equals(c.getStatus()))
        .findFirst()
        .orElse(null);
  }
}
