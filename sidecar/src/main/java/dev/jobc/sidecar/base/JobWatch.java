package dev.jobc.sidecar.base;

import dev.jobc.sidecar.client.ClusterApi;
import dev.jobc.sidecar.client.Informer;
import dev.jobc.sidecar.client.JobJson;
import dev.jobc.sidecar.client.PodJson;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * An {@link Informer} on a set of Jobs: every change hands the whole current set, by name, to the
 * listener, on the informer's single thread, once the first list has completed.
 */
public final class JobWatch implements AutoCloseable {
  private final Informer<Job> informer;

  /** Starts watching the Jobs of {@code namespace} with every label of {@code labels}. */
  public static JobWatch labelled(
      ClusterApi api,
      String namespace,
      Map<String, String> labels,
      Consumer<Map<String, Job>> listener) {
    return new JobWatch(api, namespace, ClusterApi.labelSelector(labels), listener);
  }

  /** Starts watching the one Job {@code name} of {@code namespace}. */
  public static JobWatch named(
      ClusterApi api, String namespace, String name, Consumer<Map<String, Job>> listener) {
    return new JobWatch(api, namespace, ClusterApi.nameSelector(name), listener);
  }

  private JobWatch(
      ClusterApi api, String namespace, String selector, Consumer<Map<String, Job>> listener) {
    informer =
        new Informer<>(
            "jobc-job-watch",
            api.connection().backoff(),
            new Informer.Source<>(
                cont -> api.listJobsPage(namespace, selector, cont),
                version -> api.watchJobs(namespace, selector, version),
                json -> PodJson.event(json, JobJson::job)),
            j -> j.getMetadata().getName(),
            () -> listener.accept(this.snapshot()),
            Log::info);
    informer.start();
  }

  /**
   * Waits up to {@code nanos} until the Job {@code name} meets {@code condition} ({@code null}: it
   * does not exist) and returns it as it was then ({@link Informer#await}).
   */
  public static Job await(
      ClusterApi api, String namespace, String name, Predicate<Job> condition, long nanos)
      throws InterruptedException {
    return Informer.await(
        "Job " + name, name, changes -> named(api, namespace, name, changes), condition, nanos);
  }

  /** The Jobs known now, by name. */
  public Map<String, Job> snapshot() {
    return informer.snapshot();
  }

  @Override
  public void close() {
    informer.close();
  }
}
