package dev.jobc.sidecar.dgl;

import dev.jobc.sidecar.base.PodWatch;
import dev.jobc.sidecar.base.Pods;
import dev.jobc.sidecar.base.Termination;
import dev.jobc.sidecar.client.ClusterApi;
import io.fabric8.kubernetes.api.model.Pod;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Waits, through one {@link PodWatch}, until every named pod is Ready (condition {@code
 * Ready=True}), Running (phase Running and every container started, or one named container running)
 * or Succeeded. A Failed pod ends the wait at once.
 *
 * <p>Upstream's watcher-loop counted phase Running as ready, hung forever on a Failed pod and
 * exited at once on an empty list read before kubelet had updated its ConfigMap; kubectl-delivery
 * read its list from the hostfile. Here the list is explicit and the wait has a deadline.
 */
final class PodWait {
  /** What the pods must reach. */
  enum Goal {
    READY,
    RUNNING,
    SUCCEEDED
  }

  /** How a wait ended: {@code ok}, or why not; the pods as last seen. */
  record Outcome(boolean ok, String message, Map<String, Pod> pods) {}

  private PodWait() {}

  /**
   * Waits for {@code names}, watching the pods with {@code labels}, or with none the one pod named
   * (several names need labels).
   */
  static Outcome await(
      ClusterApi client,
      String namespace,
      Map<String, String> labels,
      List<String> names,
      Goal goal,
      String container,
      Duration timeout,
      Termination termination)
      throws InterruptedException {
    CompletableFuture<Outcome> done = new CompletableFuture<>();
    var last = new java.util.concurrent.atomic.AtomicReference<Map<String, Pod>>(Map.of());
    java.util.function.Consumer<Map<String, Pod>> listener =
        pods -> {
          last.set(pods);
          Outcome o = evaluate(pods, names, goal, container);
          if (o != null) {
            done.complete(o);
          }
        };
    // The job's pods by label, or the one pod by name: never the whole namespace.
    try (PodWatch watch =
        labels.isEmpty()
            ? PodWatch.named(client, namespace, names.get(0), listener)
            : new PodWatch(client, namespace, labels, listener)) {
      long deadline = System.nanoTime() + timeout.toNanos();
      while (true) {
        try {
          return done.get(Math.min(200, remainingMillis(deadline)), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
          // Wake up now and then only to notice SIGTERM and the deadline; pod state comes from
          // the watch alone.
          if (termination.stopRequested()) {
            return new Outcome(false, "stopped (SIGTERM) while waiting", last.get());
          }
          if (remainingMillis(deadline) <= 0) {
            return new Outcome(
                false,
                timeoutMessage(last.get(), names, goal, container, timeout, watch),
                last.get());
          }
        } catch (ExecutionException e) {
          throw new IllegalStateException(e.getCause());
        }
      }
    }
  }

  /** The outcome once decided, or {@code null} while still waiting. */
  static Outcome evaluate(Map<String, Pod> pods, List<String> names, Goal goal, String container) {
    boolean all = true;
    for (String name : names) {
      Pod p = pods.get(name);
      if (p == null) {
        all = false;
        continue;
      }
      if ("Failed".equals(Pods.phase(p))) {
        return new Outcome(false, "pod " + name + " failed", pods);
      }
      all &= reached(p, goal, container);
    }
    return all ? new Outcome(true, "", pods) : null;
  }

  private static boolean reached(Pod p, Goal goal, String container) {
    return switch (goal) {
      case READY -> Pods.ready(p);
      case RUNNING -> container == null ? Pods.running(p) : Pods.containerRunning(p, container);
      case SUCCEEDED -> "Succeeded".equals(Pods.phase(p));
    };
  }

  private static String timeoutMessage(
      Map<String, Pod> pods,
      List<String> names,
      Goal goal,
      String container,
      Duration timeout,
      PodWatch watch) {
    List<String> pending = new ArrayList<>();
    for (String name : names) {
      Pod p = pods.get(name);
      if (p == null || !reached(p, goal, container)) {
        pending.add(p == null ? name + " (not found)" : name + " (" + Pods.phase(p) + ")");
      }
    }
    String m =
        "timed out after "
            + timeout.toString().substring(2).toLowerCase(java.util.Locale.ROOT)
            + " waiting for "
            + switch (goal) {
              case READY -> "Ready";
              case RUNNING -> container == null ? "Running" : "container " + container + " to run";
              case SUCCEEDED -> "Succeeded";
            }
            + ": "
            + String.join(", ", pending);
    Throwable error = watch.lastError();
    return error == null ? m : m + "; last API error: " + PodWatch.describe(error);
  }

  private static long remainingMillis(long deadline) {
    return Math.max(0, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime()));
  }
}
