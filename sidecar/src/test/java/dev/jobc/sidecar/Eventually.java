package dev.jobc.sidecar;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * Waits for a condition with a generous deadline, waking on {@link Changes} rather than on a clock;
 * tests assert outcomes, never durations.
 */
final class Eventually {
  static final Duration DEADLINE = Duration.ofSeconds(20);

  private Eventually() {}

  /**
   * How long to wait for an event before checking again anyway: a missed event (an unwatched
   * directory, an inotify overflow) can only make a test slower, never let it pass wrongly.
   */
  static final long RECHECK_NANOS = TimeUnit.MILLISECONDS.toNanos(200);

  static void until(String what, BooleanSupplier condition) {
    long end = System.nanoTime() + DEADLINE.toNanos();
    while (true) {
      long seen = Changes.ALL.count();
      if (condition.getAsBoolean()) {
        return;
      }
      if (System.nanoTime() > end) {
        throw new AssertionError("not within " + DEADLINE + ": " + what);
      }
      awaitChange(seen);
    }
  }

  /** Waits until {@code value} equals {@code expected}; the failure shows the last value. */
  static <T> void equals(String what, T expected, Supplier<T> value) {
    long end = System.nanoTime() + DEADLINE.toNanos();
    while (true) {
      long seen = Changes.ALL.count();
      T last = value.get();
      if (expected.equals(last)) {
        return;
      }
      if (System.nanoTime() > end) {
        throw new AssertionError(
            "not within " + DEADLINE + ": " + what + "\nexpected: " + expected + "\nlast: " + last);
      }
      awaitChange(seen);
    }
  }

  private static void awaitChange(long seen) {
    try {
      Changes.ALL.awaitAfter(seen, RECHECK_NANOS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted", e);
    }
  }
}
