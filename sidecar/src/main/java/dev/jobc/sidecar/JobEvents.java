package dev.jobc.sidecar;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.ObjectReference;
import io.fabric8.kubernetes.api.model.ObjectReferenceBuilder;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

/**
 * Kubernetes Events on the launcher Job (what mpi-operator recorded on the MPIJob). The Job's UID
 * comes from the launcher pod's owner reference, so {@code kubectl describe job} lists them. An
 * Event that cannot be created is logged and otherwise ignored: reporting never fails a job.
 */
final class JobEvents {
  static final String NORMAL = "Normal";
  static final String WARNING = "Warning";

  private final KubernetesClient client;
  private final String namespace;
  private final String jobName;
  private final String podName;
  private volatile ObjectReference job;

  JobEvents(KubernetesClient client, String namespace, String jobName, String podName) {
    this.client = client;
    this.namespace = namespace;
    this.jobName = jobName;
    this.podName = podName;
  }

  /** Takes the Job's identity from the launcher pod's controller reference, once seen. */
  void owner(Pod launcher) {
    if (job != null || launcher.getMetadata().getOwnerReferences() == null) {
      return;
    }
    for (OwnerReference r : launcher.getMetadata().getOwnerReferences()) {
      if ("Job".equals(r.getKind())) {
        job =
            new ObjectReferenceBuilder()
                .withApiVersion(r.getApiVersion())
                .withKind("Job")
                .withName(r.getName())
                .withNamespace(namespace)
                .withUid(r.getUid())
                .build();
      }
    }
  }

  /** Records about {@code target} instead (a DGLJob's launcher is a bare Pod). */
  void about(ObjectReference target) {
    job = target;
  }

  /** Takes the Job's identity from the Job itself. */
  void owner(Job launcherJob) {
    if (job != null || launcherJob.getMetadata().getUid() == null) {
      return;
    }
    job =
        new ObjectReferenceBuilder()
            .withApiVersion("batch/v1")
            .withKind("Job")
            .withName(launcherJob.getMetadata().getName())
            .withNamespace(namespace)
            .withUid(launcherJob.getMetadata().getUid())
            .build();
  }

  void record(String type, String reason, String message) {
    Log.info(reason + ": " + message);
    create(client, namespace, podName, target(), type, reason, message);
  }

  private ObjectReference target() {
    return job != null
        ? job
        : new ObjectReferenceBuilder()
            .withApiVersion("batch/v1")
            .withKind("Job")
            .withName(jobName)
            .withNamespace(namespace)
            .build();
  }

  /**
   * Creates one Event about {@code target}, reported by the pod {@code reporter}; an Event that
   * cannot be created is only logged.
   */
  static void create(
      KubernetesClient client,
      String namespace,
      String reporter,
      ObjectReference target,
      String type,
      String reason,
      String message) {
    create(client, namespace, reporter, target, type, reason, message, false);
  }

  /**
   * Sends an Event with {@code dryRun=All} (nothing is recorded): at start, so that the first real
   * one does not pay for loading and compiling the code it runs.
   */
  void warmUp() {
    create(client, namespace, podName, target(), NORMAL, "WarmUp", "not recorded", true);
  }

  private static void create(
      KubernetesClient client,
      String namespace,
      String reporter,
      ObjectReference target,
      String type,
      String reason,
      String message,
      boolean dryRun) {
    String now = Instant.now().truncatedTo(ChronoUnit.SECONDS).toString();
    try {
      Event event =
          new EventBuilder()
              .withNewMetadata()
              // kubectl's and client-go's naming: <object>.<unique hex>.
              .withName(target.getName() + "." + Long.toHexString(System.nanoTime()))
              .withNamespace(namespace)
              .endMetadata()
              .withInvolvedObject(target)
              .withType(type)
              .withReason(reason)
              .withMessage(message)
              .withFirstTimestamp(now)
              .withLastTimestamp(now)
              .withCount(1)
              .withNewSource()
              .withComponent(ApiClients.USER_AGENT)
              .endSource()
              .withReportingComponent(ApiClients.USER_AGENT)
              .withReportingInstance(reporter)
              .build();
      var resource = client.v1().events().inNamespace(namespace).resource(event);
      if (dryRun) {
        resource.dryRun().create();
      } else {
        resource.create();
      }
    } catch (RuntimeException e) {
      Log.info("could not record the event: " + PodWatch.describe(e));
    }
  }
}
