package dev.jobc.sidecar;

import static java.nio.file.StandardWatchEventKinds.ENTRY_CREATE;
import static java.nio.file.StandardWatchEventKinds.ENTRY_DELETE;
import static java.nio.file.StandardWatchEventKinds.ENTRY_MODIFY;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.ClosedWatchServiceException;
import java.nio.file.Path;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * Waits for a condition with a generous deadline; tests assert outcomes, never durations.
 *
 * <p>A condition is checked again only when something it can read has changed: whatever a test's
 * conditions read signals {@link #changed()} after each change. The stand-in API does after every
 * request it answers and every watch it opens or closes; {@link #watching} does at every file event
 * of the directories the sidecar writes. Nothing sleeps or polls.
 */
public final class Eventually {
  public static final Duration DEADLINE = Duration.ofSeconds(20);

  private static final Object CHANGES = new Object();
  private static long version; // guarded by CHANGES

  private Eventually() {}

  /** Something a condition may read has changed: every waiter checks its condition again. */
  public static void changed() {
    synchronized (CHANGES) {
      version++;
      CHANGES.notifyAll();
    }
  }

  /**
   * Signals {@link #changed()} at each event (a file created, written, renamed into place or
   * deleted) in these directories until closed.
   */
  public static FileEvents watching(Path... directories) {
    try {
      WatchService events = directories[0].getFileSystem().newWatchService();
      for (Path d : directories) {
        d.register(events, ENTRY_CREATE, ENTRY_MODIFY, ENTRY_DELETE);
      }
      Thread signaller =
          new Thread(
              () -> {
                try {
                  while (true) {
                    WatchKey key = events.take();
                    key.pollEvents();
                    key.reset();
                    changed();
                  }
                } catch (ClosedWatchServiceException | InterruptedException e) {
                  // closed: the test has ended
                }
              },
              "eventually-file-events");
      signaller.setDaemon(true);
      signaller.start();
      return () -> {
        try {
          events.close();
          signaller.join();
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new AssertionError("interrupted", e);
        }
      };
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A directory watch of {@link #watching}; closing it ends the watch. */
  public interface FileEvents {
    void close();
  }

  public static void until(String what, BooleanSupplier condition) {
    until(what, DEADLINE, condition);
  }

  /** As {@link #until(String, BooleanSupplier)}, with a deadline of its own (benchmarks). */
  public static void until(String what, Duration deadline, BooleanSupplier condition) {
    long end = System.nanoTime() + deadline.toNanos();
    while (true) {
      long seen = version();
      if (condition.getAsBoolean()) {
        return;
      }
      if (!awaitChange(seen, end)) {
        // No second look: a condition that became true without a signal means a change source
        // this class does not hear of, and that should fail rather than wait out every deadline.
        throw new AssertionError("not within " + deadline + " of changes: " + what);
      }
    }
  }

  /** Waits until {@code value} equals {@code expected}; the failure shows the last value. */
  public static <T> void equals(String what, T expected, Supplier<T> value) {
    long end = System.nanoTime() + DEADLINE.toNanos();
    while (true) {
      long seen = version();
      T last = value.get();
      if (expected.equals(last)) {
        return;
      }
      if (!awaitChange(seen, end)) {
        throw new AssertionError(
            "not within " + DEADLINE + ": " + what + "\nexpected: " + expected + "\nlast: " + last);
      }
    }
  }

  private static long version() {
    synchronized (CHANGES) {
      return version;
    }
  }

  /** Waits for a change after {@code seen}; false when the deadline passes first. */
  private static boolean awaitChange(long seen, long end) {
    synchronized (CHANGES) {
      while (version == seen) {
        long left = end - System.nanoTime();
        if (left <= 0) {
          return false;
        }
        try {
          CHANGES.wait(Math.max(1, left / 1_000_000));
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new AssertionError("interrupted", e);
        }
      }
      return true;
    }
  }
}
