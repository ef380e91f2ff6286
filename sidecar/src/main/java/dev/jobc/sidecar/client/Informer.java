package dev.jobc.sidecar.client;

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
 * One informer on a set of objects of one kind, as client-go's reflector works ({@code
 * k8s.io/client-go/tools/cache/reflector.go}, {@code ListAndWatch}): a list in pages of {@value
 * #LIST_PAGE}, then a watch from that list's resource version, on a thread of its own. Bookmarks
 * and events advance the resource version; a watch the server ends (its {@code timeoutSeconds}
 * passed, or the connection dropped) is opened again from it at once, without a list. The objects
 * are listed again only after {@code 410 Gone} (an answer, an {@code ERROR} event, or an expired
 * {@code continue} token), another error, or a watch that ended within a second without an event
 * (reflector.go's "very short watch"); every such retry, and every refused watch, waits for the
 * next pause of a {@link Backoff} (and at least the server's {@code Retry-After}). It retries for
 * ever, also when the very first list fails: the callers bound their waits themselves and report
 * {@link #lastError}. Not after an {@link Error}, though: an OutOfMemoryError leaves the process in
 * no state to go on, so it ends ({@link #FATAL_EXIT}) and kubelet restarts the container.
 *
 * <p>{@code changed} runs on the informer's thread once the first list is complete (a half-listed
 * set is never shown) and after every change from then on.
 */
public final class Informer<T> implements AutoCloseable {
  /**
   * Objects per list page: a page of realistic pods (about 6 KB of JSON each) is read as a whole,
   * so this bounds the list's share of the heap whatever the job's size ({@link
   * ApiConnection#MAX_BODY} bounds a page of unusually large ones).
   */
  public static final long LIST_PAGE = 100;

  /** The exit code when the process cannot go on (an {@link Error} in the watch). */
  public static final int FATAL_EXIT = 3;

  /** A watch shorter than this without an event failed (reflector.go, {@code handleWatch}). */
  public static final Duration SHORTEST_WATCH = Duration.ofSeconds(1);

  /**
   * Where the objects come from: pages of a list, a watch, and the watch's events. Lambdas of the
   * watch that uses it, not implementations of an interface: {@code SidecarApiCalls} then reads
   * each command's calls exactly (a call through an interface counts every implementation's).
   */
  public record Source<T>(Pages<T> pages, Watches watches, Events<T> events) {}

  /** One page of the list, from a continue token ({@code null} for the first). */
  public interface Pages<T> {
    PodJson.Page<T> page(String continueToken);
  }

  /** A watch from a resource version. */
  public interface Watches {
    ApiConnection.Watch watch(String resourceVersion) throws IOException;
  }

  /** One watch event read from its JSON. */
  public interface Events<T> {
    PodJson.Event<T> event(byte[] json) throws IOException;
  }

  /** How the informer waits between attempts: {@link #WAITED}, or a test's record. */
  public interface Pauses {
    void pause(Duration d) throws InterruptedException;
  }

  /** The pauses the sidecar waits out: the back-off's, or the server's {@code Retry-After}. */
  public static final Pauses WAITED = Informer::sleep;

  private final Source<T> source;
  private final Function<T, String> name;
  private final Runnable changed;
  private final Consumer<String> log;
  private final Backoff backoff;
  private final Pauses pauses;
  private final Map<String, T> objects = new TreeMap<>(); // guarded by objects
  private final Thread reader;
  private volatile boolean closed;
  private volatile ApiConnection.Watch current;
  private volatile Throwable lastError;

  public Informer(
      String thread,
      Backoff.Settings backoff,
      Source<T> source,
      Function<T, String> name,
      Runnable changed,
      Consumer<String> log) {
    this(thread, backoff, WAITED, source, name, changed, log);
  }

  public Informer(
      String thread,
      Backoff.Settings backoff,
      Pauses pauses,
      Source<T> source,
      Function<T, String> name,
      Runnable changed,
      Consumer<String> log) {
    this.source = source;
    this.log = log;
    this.name = name;
    this.changed = changed;
    this.backoff = new Backoff(backoff, System::nanoTime);
    this.pauses = pauses;
    reader = new Thread(this::read, thread);
    reader.setDaemon(true);
  }

  public Informer<T> start() {
    reader.start();
    return this;
  }

  /** Whether {@code t} lets the informer go on: API and I/O errors do, an Error does not. */
  public static boolean retries(Throwable t) {
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
    String version = null;
    while (!closed) {
      try {
        if (version == null) {
          version = list();
        }
        version = watch(version);
      } catch (ApiException e) {
        // reflector.go, watch: a refused watch (429) is retried from the same version after a
        // pause; anything else, 410 Gone above all, lists again after one.
        if (e.code() != 429) {
          version = null;
        }
        failed(e, e.retryAfter());
      } catch (IOException | RuntimeException e) {
        // reflector.go, watch: isWatchErrorRetriable: a refused connection keeps the version.
        if (version == null || !refused(e)) {
          version = null;
        }
        failed(e, null);
      } catch (Error e) {
        lastError = e;
        log.accept("fatal: " + describe(e) + "; exiting");
        Runtime.getRuntime().halt(FATAL_EXIT);
      }
    }
  }

  private static boolean refused(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof java.net.ConnectException) {
        return true;
      }
    }
    return false;
  }

  private void failed(Exception e, Duration retryAfter) throws InterruptedException {
    if (closed) {
      return;
    }
    lastError = e;
    Duration pause = backoff.next();
    if (retryAfter != null && retryAfter.compareTo(pause) > 0) {
      pause = retryAfter; // client-go rest/request.go, checkWait: the server's Retry-After
    }
    log.accept("API error, will retry in " + pause.toMillis() + " ms: " + describe(e));
    pauses.pause(pause);
  }

  private static void sleep(Duration d) throws InterruptedException {
    if (d.toMillis() > 0) {
      Thread.sleep(d.toMillis());
    }
  }

  /**
   * Lists every page; the set replaces the one known; returns the list's resource version. An
   * expired continue token (410) fails the list, which is started again after a pause: client-go's
   * pager would list everything in one answer instead ({@code tools/pager/pager.go}, {@code
   * FullListIfExpired}), which the sidecar's heap cannot promise to hold.
   */
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
   * Watches from {@code version} until the watch ends; returns the last version seen. An ERROR
   * event is thrown as the {@link ApiException} of its Status; a watch that ended within {@link
   * #SHORTEST_WATCH} without an event, as an {@link IOException}.
   */
  private String watch(String version) throws IOException {
    long start = System.nanoTime();
    int events = 0;
    try (ApiConnection.Watch w = source.watches().watch(version)) {
      current = w;
      if (closed) {
        return version;
      }
      try {
        for (byte[] message; (message = w.next()) != null; ) {
          PodJson.Event<T> e = source.events().event(message);
          events++;
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
      } catch (IOException e) {
        // client-go's stream watcher ends a watch whose connection drops or times out as if the
        // server had ended it (apimachinery pkg/watch/streamwatcher.go, receive): again from the
        // version seen, no list.
        if (closed || events > 0 || System.nanoTime() - start >= SHORTEST_WATCH.toNanos()) {
          return version;
        }
        throw e;
      }
      if (!closed && events == 0 && System.nanoTime() - start < SHORTEST_WATCH.toNanos()) {
        throw new IOException("very short watch: it ended within a second without an event");
      }
      lastError = null;
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
  public static <T> T await(
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
  public Map<String, T> snapshot() {
    synchronized (objects) {
      return new TreeMap<>(objects);
    }
  }

  /** The last API error since the last successful list, or {@code null}. */
  public Throwable lastError() {
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
  public static String describe(Throwable t) {
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
