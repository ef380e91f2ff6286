package dev.jobc.sidecar.base;

import dev.jobc.sidecar.client.ApiConnection;
import dev.jobc.sidecar.client.ApiException;
import java.time.Duration;
import java.util.concurrent.CancellationException;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * One change to the API, attempted again after a failure until it is done or a deadline passes: the
 * API server may be restarting, overloaded or briefly unreachable, and the change (releasing or
 * starting the workers) is the reason the sidecar exists; mpi-operator's controller retried until
 * it succeeded. Pauses double from {@link #FIRST_PAUSE} to {@link #LONGEST_PAUSE}. The deadline is
 * the earlier of the caller's and the process' own ({@link Termination#deadline}), so that after
 * SIGTERM the attempts end while the pod's grace period lasts. An answer that says the object does
 * not exist (404) ends the attempts at once: no retry makes it appear; so does a {@link
 * CancellationException} from the attempt (the caller's own reason to stop).
 */
public final class Attempts {
  public static final Duration FIRST_PAUSE = Duration.ofMillis(250);
  public static final Duration LONGEST_PAUSE = Duration.ofSeconds(30);

  private Attempts() {}

  /**
   * Runs {@code attempt} until it returns, {@code longest} has passed, or {@code termination}'s
   * deadline would pass during the next pause; returns its result or throws its last failure.
   */
  public static <T> T until(
      String what, Duration longest, Termination termination, Supplier<T> attempt)
      throws InterruptedException {
    long end = System.nanoTime() + longest.toNanos();
    Duration pause = FIRST_PAUSE;
    for (int n = 1; ; n++) {
      try {
        // A blocked read ends by the deadline too, not only the pauses between attempts.
        return ApiConnection.by(Math.min(end, termination.deadline()), attempt);
      } catch (RuntimeException e) {
        long left = Math.min(end, termination.deadline()) - System.nanoTime();
        if (notFound(e) || e instanceof CancellationException || left < FIRST_PAUSE.toNanos()) {
          Log.info(what + ": attempt " + n + " failed, giving up: " + PodWatch.describe(e));
          throw e;
        }
        Duration wait = pause.toNanos() < left ? pause : Duration.ofNanos(left / 2);
        Log.info(
            what
                + ": attempt "
                + n
                + " failed, again in "
                + Durations.format(wait)
                + ": "
                + PodWatch.describe(e));
        pause(wait, termination);
        pause = pause.multipliedBy(2);
        if (pause.compareTo(LONGEST_PAUSE) > 0) {
          pause = LONGEST_PAUSE;
        }
      }
    }
  }

  /** Waits {@code wait}, or less when a stop request brings the deadline closer. */
  private static void pause(Duration wait, Termination termination) throws InterruptedException {
    long until = System.nanoTime() + wait.toNanos();
    if (!termination.stopRequested()) {
      termination.awaitStop(wait);
    }
    long left = Math.min(until, termination.deadline()) - System.nanoTime();
    if (left > 0) {
      TimeUnit.NANOSECONDS.sleep(left);
    }
  }

  /** Whether {@code e} is the API's 404. */
  static boolean notFound(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof ApiException k && k.code() == 404) {
        return true;
      }
    }
    return false;
  }
}
