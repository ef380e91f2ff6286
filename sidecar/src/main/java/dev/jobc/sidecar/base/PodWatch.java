package dev.jobc.sidecar.base;

import dev.jobc.sidecar.client.ClusterApi;
import dev.jobc.sidecar.client.Informer;
import dev.jobc.sidecar.client.PodJson;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * An {@link Informer} on a set of pods whose listener runs on a thread of its own.
 *
 * <p>Bounded by the job, not by the namespace or the pods' size: the watch selects the job's pods
 * (by labels, or one pod by name); a list comes in pages of {@value #LIST_PAGE} pods; each pod is
 * read straight into its {@linkplain ReducedPods reduced} form ({@link PodJson}). The listener gets
 * the whole current set, by name, once the first list has completed and again after changes; it is
 * handed the latest set when it is free again: a burst of changes (thousands of workers turning
 * Ready) costs one pass over the set per pass the listener can make, not one per change.
 *
 * <p>This replaces mpi-operator's kubectl-delivery and DGL's watcher-loop, which ran an informer
 * too but then polled their own state every 500 ms.
 */
public final class PodWatch implements AutoCloseable {
  /** Pods per list page ({@link Informer#LIST_PAGE}). */
  public static final long LIST_PAGE = Informer.LIST_PAGE;

  /** The exit code when the process cannot go on ({@link Informer#FATAL_EXIT}). */
  static final int FATAL_EXIT = Informer.FATAL_EXIT;

  private final Informer<Pod> informer;
  private final Consumer<Map<String, Pod>> listener;
  private final Thread delivery;
  private final Object changes = new Object();
  private boolean changed; // guarded by changes
  private boolean closed; // guarded by changes

  /** Starts watching the one pod {@code name} of {@code namespace}. */
  public static PodWatch named(
      ClusterApi api, String namespace, String name, Consumer<Map<String, Pod>> listener) {
    return new PodWatch(api, namespace, ClusterApi.nameSelector(name), listener);
  }

  /**
   * Starts watching pods of {@code namespace} with every label of {@code labels}; {@code listener}
   * gets the pods by name after every change.
   */
  public PodWatch(
      ClusterApi api,
      String namespace,
      Map<String, String> labels,
      Consumer<Map<String, Pod>> listener) {
    this(api, namespace, ClusterApi.labelSelector(labels), listener);
  }

  private PodWatch(
      ClusterApi api, String namespace, String selector, Consumer<Map<String, Pod>> listener) {
    this.listener = listener;
    delivery = new Thread(this::deliver, "jobc-pod-watch");
    delivery.setDaemon(true);
    delivery.start();
    informer =
        new Informer<>(
            "jobc-pod-watch-reader",
            api.connection().backoff(),
            new Informer.Source<>(
                cont -> api.listPodsPage(namespace, selector, cont),
                version -> api.watchPods(namespace, selector, version),
                json -> PodJson.event(json, PodJson::pod)),
            p -> p.getMetadata().getName(),
            this::signal,
            Log::info);
    informer.start();
  }

  /**
   * Waits up to {@code nanos} until the Pod {@code name} meets {@code condition} ({@code null}: it
   * does not exist) and returns it as it was then ({@link Informer#await}).
   */
  public static Pod await(
      ClusterApi api, String namespace, String name, Predicate<Pod> condition, long nanos)
      throws InterruptedException {
    return Informer.await(
        "Pod " + name, name, changes -> named(api, namespace, name, changes), condition, nanos);
  }

  /** Whether the watch goes on after {@code t}: after API and I/O errors, never after an Error. */
  static boolean retries(Throwable t) {
    return Informer.retries(t);
  }

  private void signal() {
    synchronized (changes) {
      changed = true;
      changes.notifyAll();
    }
  }

  /** The delivery thread: the latest set to the listener, once per batch of changes. */
  private void deliver() {
    while (true) {
      synchronized (changes) {
        while (!changed && !closed) {
          try {
            changes.wait();
          } catch (InterruptedException e) {
            return;
          }
        }
        if (closed) {
          return;
        }
        changed = false;
      }
      try {
        listener.accept(snapshot());
      } catch (RuntimeException e) {
        Log.info("handling the pods failed: " + describe(e));
      }
    }
  }

  /** The pods known now, by name. */
  Map<String, Pod> snapshot() {
    return informer.snapshot();
  }

  /** The last API error since the last successful list, or {@code null}. */
  public Throwable lastError() {
    return informer.lastError();
  }

  /**
   * Stops the watch; a listener call under way completes first (it may be releasing the workers),
   * and none starts after.
   */
  @Override
  public void close() {
    informer.close();
    synchronized (changes) {
      closed = true;
      changes.notifyAll();
    }
    if (Thread.currentThread() != delivery) {
      try {
        delivery.join();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /** A one-line description of {@code t} and its root cause ({@link Informer#describe}). */
  public static String describe(Throwable t) {
    return Informer.describe(t);
  }
}
