package dev.jobc.sidecar;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.WatchEvent;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.Informable;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * One informer on a set of objects of one kind: a list, then a watch from that list's resource
 * version. fabric8 reconnects a dropped watch from the last resource version seen (no list) and
 * lists again only after {@code 410 Gone} or a failed list or watch, with exponential back-off; so
 * there is at most one list per (re)connect and no polling. Every change hands the whole current
 * set to the listener, on the informer's single event thread, once the first list has completed.
 *
 * <p>This replaces mpi-operator's kubectl-delivery and DGL's watcher-loop, which ran an informer
 * too but then polled their own state every 500 ms.
 */
class ObjectWatch<T extends HasMetadata> implements AutoCloseable {
  private final SharedIndexInformer<T> informer;
  private volatile Throwable lastError;
  private volatile boolean listed;

  /**
   * Starts watching what {@code objects} selects; {@code listener} gets the objects by name after
   * every change.
   */
  ObjectWatch(KubernetesClient client, Informable<T> objects, Consumer<Map<String, T>> listener) {
    informer = objects.runnableInformer(0);
    warmUp(client);
    // Retry forever, also when the very first list fails (fabric8 gives up then by default):
    // the callers bound the wait themselves and report the last error.
    informer.exceptionHandler(
        (started, t) -> {
          lastError = t;
          Log.info("API error, will retry: " + PodWatch.describe(t));
          return true;
        });
    informer.addEventHandler(
        new ResourceEventHandler<T>() {
          @Override
          public void onList(String resourceVersion, boolean remainedEmpty) {
            listed = true;
            lastError = null;
            listener.accept(snapshot());
          }

          @Override
          public void onAdd(T object) {
            changed();
          }

          @Override
          public void onUpdate(T before, T after) {
            changed();
          }

          @Override
          public void onDelete(T object, boolean finalStateUnknown) {
            changed();
          }

          private void changed() {
            // During a list the store fills item by item; the listener sees the set once the
            // list is complete (onList), never a half-listed one.
            if (listed) {
              listener.accept(snapshot());
            }
          }
        });
    informer.start();
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

  /** The objects known now, by name. */
  Map<String, T> snapshot() {
    Map<String, T> out = new TreeMap<>();
    for (T o : informer.getStore().list()) {
      out.put(o.getMetadata().getName(), o);
    }
    return out;
  }

  /** The last API error since the last successful list, or {@code null}. */
  Throwable lastError() {
    return lastError;
  }

  @Override
  public void close() {
    informer.close();
  }
}
