package dev.jobc.sidecar;

import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/** Waits for a condition with a generous deadline; tests assert outcomes, never durations. */
final class Eventually {
  static final Duration DEADLINE = Duration.ofSeconds(20);

  private Eventually() {}

  static void until(String what, BooleanSupplier condition) {
    long end = System.nanoTime() + DEADLINE.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > end) {
        throw new AssertionError("not within " + DEADLINE + ": " + what);
      }
      Thread.onSpinWait();
      try {
        Thread.sleep(5);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError("interrupted", e);
      }
    }
  }

  /** Waits until {@code value} equals {@code expected}; the failure shows the last value. */
  static <T> void equals(String what, T expected, Supplier<T> value) {
    long end = System.nanoTime() + DEADLINE.toNanos();
    T last = value.get();
    while (!expected.equals(last)) {
      if (System.nanoTime() > end) {
        throw new AssertionError(
            "not within " + DEADLINE + ": " + what + "\nexpected: " + expected + "\nlast: " + last);
      }
      try {
        Thread.sleep(5);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError("interrupted", e);
      }
      last = value.get();
    }
  }
}
