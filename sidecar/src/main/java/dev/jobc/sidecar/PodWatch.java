package dev.jobc.sidecar;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodList;
import io.fabric8.kubernetes.api.model.WatchEvent;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.FilterWatchListDeletable;
import io.fabric8.kubernetes.client.dsl.PodResource;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * One informer on a set of pods: a list, then a watch from that list's resource version. fabric8
 * reconnects a dropped watch from the last resource version seen (no list) and lists again only
 * after {@code 410 Gone} or a failed list or watch, with exponential back-off; so there is at most
 * one list per (re)connect and no polling. The listener gets the whole current set, by name, once
 * the first list has completed and again after changes.
 *
 * <p>Bounded by the job, not by the namespace or the pods' size: the watch selects the job's pods
 * (by labels, or one pod by name); a list comes in pages of {@value #LIST_PAGE} pods; the store
 * keeps each pod {@linkplain ReducedPods reduced}. The listener runs on a thread of its own and is
 * handed the latest set when it is free again: a burst of changes (thousands of workers turning
 * Ready) costs one pass over the set per pass the listener can make, not one per change.
 *
 * <p>This replaces mpi-operator's kubectl-delivery and DGL's watcher-loop, which ran an informer
 * too but then polled their own state every 500 ms.
 */
final class PodWatch implements AutoCloseable {
  /**
   * Pods per list page: a page of realistic pods (about 6 KB of JSON each) is read and parsed as a
   * whole, so this bounds the list's share of the heap whatever the job's size.
   */
  static final long LIST_PAGE = 100;

  private final SharedIndexInformer<Pod> informer;
  private final Consumer<Map<String, Pod>> listener;
  private final Thread delivery;
  private final Object changes = new Object();
  private boolean changed; // guarded by changes
  private boolean closed; // guarded by changes
  private volatile Throwable lastError;
  private volatile boolean listed;

  /** Starts watching the one pod {@code name} of {@code namespace}. */
  static PodWatch named(
      KubernetesClient client, String namespace, String name, Consumer<Map<String, Pod>> listener) {
    return new PodWatch(
        client, client.pods().inNamespace(namespace).withField("metadata.name", name), listener);
  }

  /**
   * Starts watching pods of {@code namespace} with every label of {@code labels}; {@code listener}
   * gets the pods by name after every change.
   */
  PodWatch(
      KubernetesClient client,
      String namespace,
      Map<String, String> labels,
      Consumer<Map<String, Pod>> listener) {
    this(client, selected(client, namespace, labels), listener);
  }

  private static FilterWatchListDeletable<Pod, PodList, PodResource> selected(
      KubernetesClient client, String namespace, Map<String, String> labels) {
    if (labels.isEmpty()) {
      throw new IllegalArgumentException("a pod watch needs a label selector");
    }
    return client.pods().inNamespace(namespace).withLabels(labels);
  }

  private PodWatch(
      KubernetesClient client,
      FilterWatchListDeletable<Pod, PodList, PodResource> pods,
      Consumer<Map<String, Pod>> listener) {
    this.listener = listener;
    informer = pods.withLimit(LIST_PAGE).runnableInformer(0);
    informer.itemStore(new ReducedPods.Store());
    // One namespace: its index would only hold every key a second time.
    informer.removeNamespaceIndex();
    warmUp(client);
    // Retry forever, also when the very first list fails (fabric8 gives up then by default):
    // the callers bound the wait themselves and report the last error. Not after an Error,
    // though: an OutOfMemoryError leaves the process in no state to go on.
    informer.exceptionHandler(
        (started, t) -> {
          lastError = t;
          if (!retries(t)) {
            Log.info("fatal: " + describe(t) + "; exiting");
            Runtime.getRuntime().halt(FATAL_EXIT);
          }
          Log.info("API error, will retry: " + describe(t));
          return true;
        });
    informer.addEventHandler(
        new ResourceEventHandler<Pod>() {
          @Override
          public void onList(String resourceVersion, boolean remainedEmpty) {
            listed = true;
            lastError = null;
            signal();
          }

          @Override
          public void onAdd(Pod pod) {
            changed();
          }

          @Override
          public void onUpdate(Pod before, Pod after) {
            changed();
          }

          @Override
          public void onDelete(Pod pod, boolean finalStateUnknown) {
            changed();
          }

          private void changed() {
            // During a list the store fills item by item; the listener sees the set once the
            // list is complete (onList), never a half-listed one.
            if (listed) {
              signal();
            }
          }
        });
    delivery = new Thread(this::deliver, "jobc-pod-watch");
    delivery.setDaemon(true);
    delivery.start();
    informer.start();
  }

  /** The exit code when the process cannot go on (an {@link Error} in the watch). */
  static final int FATAL_EXIT = 3;

  /** Whether the watch goes on after {@code t}: after API and I/O errors, never after an Error. */
  static boolean retries(Throwable t) {
    return !(t instanceof Error);
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

  /**
   * Reads one watch event before the watch starts: fabric8 reads a watch event's object by its kind
   * ({@link ApiClients#serialization}), and Jackson builds its reader of a pod's model on first
   * use, which would otherwise delay the first change the watch reports.
   */
  private static void warmUp(KubernetesClient client) {
    client
        .getKubernetesSerialization()
        .unmarshal(
            "{\"type\":\"ADDED\",\"object\":{\"apiVersion\":\"v1\",\"kind\":\"Pod\"}}",
            WatchEvent.class);
  }

  /** The pods known now, by name. */
  Map<String, Pod> snapshot() {
    Map<String, Pod> out = new TreeMap<>();
    for (Pod p : informer.getStore().list()) {
      out.put(p.getMetadata().getName(), p);
    }
    return out;
  }

  /** The last API error since the last successful list, or {@code null}. */
  Throwable lastError() {
    return lastError;
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

  static String describe(Throwable t) {
    Throwable root = t;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    String m = t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
    if (root != t && root.getMessage() != null && !m.contains(root.getMessage())) {
      m += ": " + root.getMessage();
    }
    int nl = m.indexOf('\n');
    return nl < 0 ? m : m.substring(0, nl);
  }
}
