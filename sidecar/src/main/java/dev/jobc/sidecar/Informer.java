package dev.jobc.sidecar;

import java.io.IOException;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * One informer on a set of objects of one kind, as client-go's and fabric8's work: a list, then a
 * watch from that list's resource version, on a thread of its own. A dropped watch is opened again
 * from the last resource version seen (no list); the objects are listed again only after {@code 410
 * Gone} or a failed list or watch, after a pause that doubles from the connection's reconnect
 * interval up to {@value #LONGEST_PAUSE_FACTOR} times it. So there is at most one list per
 * (re)connect and no polling. It retries forever, also when the very first list fails: the callers
 * bound their waits themselves and report {@link #lastError}. Not after an {@link Error}, though:
 * an OutOfMemoryError leaves the process in no state to go on, so it ends ({@link #FATAL_EXIT}) and
 * kubelet restarts the container.
 *
 * <p>{@code changed} runs on the informer's thread once the first list is complete (a half-listed
 * set is never shown) and after every change from then on.
 */
final class Informer<T> implements AutoCloseable {
  /**
   * Objects per list page: a page of realistic pods (about 6 KB of JSON each) is read as a whole,
   * so this bounds the list's share of the heap whatever the job's size.
   */
  static final long LIST_PAGE = 100;

  /** The exit code when the process cannot go on (an {@link Error} in the watch). */
  static final int FATAL_EXIT = 3;

  /** The longest pause between attempts, as a multiple of the reconnect interval (fabric8's). */
  static final int LONGEST_PAUSE_FACTOR = 32;

  /**
   * Where the objects come from: pages of a list, a watch, and the watch's events. Lambdas of the
   * watch that uses it, not implementations of an interface: {@code SidecarApiCalls} then reads
   * each command's calls exactly (a call through an interface counts every implementation's).
   */
  record Source<T>(Pages<T> pages, Watches watches, Events<T> events) {}

  /** One page of the list, from a continue token ({@code null} for the first). */
  interface Pages<T> {
    PodJson.Page<T> page(String continueToken);
  }

  /** A watch from a resource version. */
  interface Watches {
    ApiConnection.Watch watch(String resourceVersion) throws IOException;
  }

  /** One watch event read from its JSON. */
  interface Events<T> {
    PodJson.Event<T> event(byte[] json) throws IOException;
  }

  private final Source<T> source;
  private final Function<T, String> name;
  private final Runnable changed;
  private final Duration first;
  private final Map<String, T> objects = new TreeMap<>(); // guarded by objects
  private final Thread reader;
  private volatile boolean closed;
  private volatile ApiConnection.Watch current;
  private volatile Throwable lastError;

  Informer(
      String thread,
      Duration reconnect,
      Source<T> source,
      Function<T, String> name,
      Runnable changed) {
    this.source = source;
    this.name = name;
    this.changed = changed;
    this.first = reconnect;
    reader = new Thread(this::read, thread);
    reader.setDaemon(true);
  }

  Informer<T> start() {
    reader.start();
    return this;
  }

  /** Whether {@code t} lets the informer go on: API and I/O errors do, an Error does not. */
  static boolean retries(Throwable t) {
    return !(t instanceof Error);
  }

  private void read() {
    try {
      readUntilClosed();
    } catch (InterruptedException e) {
      // closed
    }
  }

  private void readUntilClosed() throws InterruptedException {
    Duration pause = first;
    String version = null;
    while (!closed) {
      try {
        if (version == null) {
          version = list();
          pause = first;
        }
        version = watch(version);
        if (!closed) {
          sleep(first); // dropped: again from the last version seen, without a list
        }
      } catch (ApiException e) {
        version = null;
        if (e.code() == 410) {
          sleep(first); // too old: list again
        } else {
          pause = failed(e, pause);
        }
      } catch (IOException | RuntimeException e) {
        version = null;
        pause = failed(e, pause);
      } catch (Error e) {
        lastError = e;
        Log.info("fatal: " + describe(e) + "; exiting");
        Runtime.getRuntime().halt(FATAL_EXIT);
      }
    }
  }

  private Duration failed(Exception e, Duration pause) throws InterruptedException {
    if (closed) {
      return pause;
    }
    lastError = e;
    Log.info("API error, will retry: " + describe(e));
    sleep(pause);
    Duration next = pause.multipliedBy(2);
    Duration longest = first.multipliedBy(LONGEST_PAUSE_FACTOR);
    return next.compareTo(longest) > 0 ? longest : next;
  }

  private static void sleep(Duration d) throws InterruptedException {
    if (d.toMillis() > 0) {
      Thread.sleep(d.toMillis());
    }
  }

  /** Lists every page; the set replaces the one known; returns the list's resource version. */
  private String list() {
    Map<String, T> all = new TreeMap<>();
    String cont = null;
    String version;
    do {
      PodJson.Page<T> page = source.pages().page(cont);
      for (T o : page.items()) {
        all.put(name.apply(o), o);
      }
      version = page.resourceVersion();
      cont = page.continueToken();
    } while (cont != null && !closed);
    synchronized (objects) {
      objects.clear();
      objects.putAll(all);
    }
    lastError = null;
    changed.run();
    return version;
  }

  /**
   * Watches from {@code version} until the server ends the watch; returns the last version seen. An
   * ERROR event is thrown as the {@link ApiException} of its Status.
   */
  private String watch(String version) throws IOException {
    try (ApiConnection.Watch w = source.watches().watch(version)) {
      current = w;
      if (closed) {
        return version;
      }
      for (byte[] message; (message = w.next()) != null; ) {
        PodJson.Event<T> e = source.events().event(message);
        switch (e.type()) {
          case "ADDED", "MODIFIED" -> {
            synchronized (objects) {
              objects.put(name.apply(e.object()), e.object());
            }
            changed.run();
          }
          case "DELETED" -> {
            synchronized (objects) {
              objects.remove(name.apply(e.object()));
            }
            changed.run();
          }
          case "BOOKMARK" -> {}
          case "ERROR" ->
              throw new ApiException(e.code(), "watch ended: " + e.code() + " " + e.message());
          default -> throw new IOException("a watch event of unknown type " + e.type());
        }
        String seen = e.object() == null ? null : version(e.object());
        if (seen != null) {
          version = seen;
        }
      }
      return version;
    } catch (IOException | RuntimeException e) {
      if (closed) {
        return version; // closing the watch ends the read
      }
      throw e;
    } finally {
      current = null;
    }
  }

  private static String version(Object o) {
    if (o instanceof io.fabric8.kubernetes.api.model.HasMetadata h && h.getMetadata() != null) {
      return h.getMetadata().getResourceVersion();
    }
    return null;
  }

  /**
   * Waits up to {@code nanos} until the object {@code name} meets {@code condition} ({@code null}:
   * it does not exist) in a watch {@code open} starts with a listener, and returns it as it was
   * then; throws {@link IllegalStateException} when the time is up (what fabric8's {@code
   * waitUntilCondition} did).
   */
  @SuppressWarnings("try") // the watch is open for as long as the wait lasts
  static <T> T await(
      String what,
      String name,
      Function<Consumer<Map<String, T>>, AutoCloseable> open,
      Predicate<T> condition,
      long nanos)
      throws InterruptedException {
    CompletableFuture<T> met = new CompletableFuture<>();
    Consumer<Map<String, T>> changes =
        now -> {
          T o = now.get(name);
          if (condition.test(o)) {
            met.complete(o);
          }
        };
    try (AutoCloseable watch = open.apply(changes)) {
      return met.get(nanos, TimeUnit.NANOSECONDS);
    } catch (ExecutionException e) {
      throw new IllegalStateException(e.getCause());
    } catch (TimeoutException e) {
      throw new IllegalStateException(what + " did not meet the condition in time");
    } catch (InterruptedException | RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new IllegalStateException("closing the watch failed: " + e, e);
    }
  }

  /** The objects known now, by name. */
  Map<String, T> snapshot() {
    synchronized (objects) {
      return new TreeMap<>(objects);
    }
  }

  /** The last API error since the last successful list, or {@code null}. */
  Throwable lastError() {
    return lastError;
  }

  /** Stops the informer: its watch is closed and no change is reported after it. */
  @Override
  public void close() {
    closed = true;
    ApiConnection.Watch w = current;
    if (w != null) {
      w.close();
    }
    reader.interrupt();
  }

  /** A one-line description of {@code t} and its root cause. */
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
