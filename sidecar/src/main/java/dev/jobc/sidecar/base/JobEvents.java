package dev.jobc.sidecar.base;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import dev.jobc.sidecar.client.ClusterApi;
import io.fabric8.kubernetes.api.model.ObjectReference;
import io.fabric8.kubernetes.api.model.ObjectReferenceBuilder;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import java.io.IOException;
import java.io.StringWriter;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

/**
 * Kubernetes Events on the launcher Job (what mpi-operator recorded on the MPIJob). The Job's UID
 * comes from the launcher pod's owner reference, so {@code kubectl describe job} lists them. An
 * Event that cannot be created is logged and otherwise ignored: reporting never fails a job.
 */
public final class JobEvents {
  private static final JsonFactory JSON = new JsonFactory();

  public static final String NORMAL = "Normal";
  public static final String WARNING = "Warning";

  private final ClusterApi client;
  private final String namespace;
  private final String jobName;
  private final String podName;
  private volatile ObjectReference job;

  public JobEvents(ClusterApi client, String namespace, String jobName, String podName) {
    this.client = client;
    this.namespace = namespace;
    this.jobName = jobName;
    this.podName = podName;
  }

  /** Takes the Job's identity from the launcher pod's controller reference, once seen. */
  public void owner(Pod launcher) {
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
  public void about(ObjectReference target) {
    job = target;
  }

  /** Takes the Job's identity from the Job itself. */
  public void owner(Job launcherJob) {
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

  public void record(String type, String reason, String message) {
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
  public static void create(
      ClusterApi client,
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
  public void warmUp() {
    create(client, namespace, podName, target(), NORMAL, "WarmUp", "not recorded", true);
  }

  private static void field(JsonGenerator g, String name, String value) throws IOException {
    if (value != null) {
      g.writeStringField(name, value);
    }
  }

  private static void create(
      ClusterApi client,
      String namespace,
      String reporter,
      ObjectReference target,
      String type,
      String reason,
      String message,
      boolean dryRun) {
    String now = Instant.now().truncatedTo(ChronoUnit.SECONDS).toString();
    try {
      StringWriter json = new StringWriter();
      try (JsonGenerator g = JSON.createGenerator(json)) {
        g.writeStartObject();
        g.writeStringField("apiVersion", "v1");
        g.writeStringField("kind", "Event");
        g.writeObjectFieldStart("metadata");
        // kubectl's and client-go's naming: <object>.<unique hex>.
        g.writeStringField("name", target.getName() + "." + Long.toHexString(System.nanoTime()));
        g.writeStringField("namespace", namespace);
        g.writeEndObject();
        g.writeObjectFieldStart("involvedObject");
        field(g, "apiVersion", target.getApiVersion());
        field(g, "kind", target.getKind());
        field(g, "name", target.getName());
        field(g, "namespace", target.getNamespace());
        field(g, "uid", target.getUid());
        g.writeEndObject();
        g.writeStringField("type", type);
        g.writeStringField("reason", reason);
        g.writeStringField("message", message);
        g.writeStringField("firstTimestamp", now);
        g.writeStringField("lastTimestamp", now);
        g.writeNumberField("count", 1);
        g.writeObjectFieldStart("source");
        g.writeStringField("component", ApiClients.USER_AGENT);
        g.writeEndObject();
        g.writeStringField("reportingComponent", ApiClients.USER_AGENT);
        g.writeStringField("reportingInstance", reporter);
        g.writeEndObject();
      }
      client.createEvent(namespace, json.toString(), dryRun);
    } catch (IOException e) {
      Log.info("could not record the event: " + PodWatch.describe(e));
    } catch (RuntimeException e) {
      Log.info("could not record the event: " + PodWatch.describe(e));
    }
  }
}
