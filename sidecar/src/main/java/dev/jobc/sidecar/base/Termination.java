package dev.jobc.sidecar.base;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * SIGTERM handling without internal APIs: a shutdown hook that, when the command has not finished
 * by itself, asks it to stop, gives it a bounded time to finish (the clean-up at the end of a
 * launcher), then ends the process with the command's exit code instead of the JVM's 143.
 *
 * <p>That time is the pod's: kubelet sends SIGKILL once the pod's {@code
 * terminationGracePeriodSeconds} (30 by default) have passed. A command that has read its pod sets
 * {@link #grace} from it, less {@link #MARGIN}; until then {@link #GRACE} applies.
 */
public final class Termination {
  /** Before the pod's own setting is known: well inside Kubernetes' default 30 s. */
  static final Duration GRACE = Duration.ofSeconds(20);

  /** Kept back from the pod's grace period: main containers stop first, and the JVM must exit. */
  static final Duration MARGIN = Duration.ofSeconds(5);

  /** How long past {@link #deadline} the hook waits for the command to return. */
  static final Duration EXIT_ALLOWANCE = Duration.ofSeconds(1);

  /** The least grace taken from a pod, so that a tiny setting still lets an Event out. */
  static final Duration LEAST = Duration.ofSeconds(2);

  private final CountDownLatch stop = new CountDownLatch(1);
  private final CountDownLatch finished = new CountDownLatch(1);
  private volatile int exitCode;
  private volatile Duration grace = GRACE;
  private volatile long stoppedAt;

  /** A termination that only {@link #requestStop} triggers (tests). */
  public Termination() {}

  /** Registers the shutdown hook for this process. */
  public static Termination install() {
    Termination t = new Termination();
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  if (t.finished.getCount() == 0) {
                    return; // the command ended by itself and called System.exit
                  }
                  Log.info("SIGTERM: stopping");
                  t.requestStop();
                  try {
                    // A command's last attempt may end right at the deadline: let it report.
                    long left = t.deadline() + EXIT_ALLOWANCE.toNanos() - System.nanoTime();
                    if (t.finished.await(Math.max(0, left), TimeUnit.NANOSECONDS)) {
                      Runtime.getRuntime().halt(t.exitCode);
                    }
                  } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                  }
                },
                "jobc-sidecar-sigterm"));
    return t;
  }

  /**
   * The pod's {@code terminationGracePeriodSeconds} ({@code null}: Kubernetes' default, 30): after
   * SIGTERM the command has that long less {@link #MARGIN}, at least {@link #LEAST}.
   */
  public void podGracePeriod(Long seconds) {
    Duration pod = Duration.ofSeconds(seconds == null ? 30 : seconds);
    Duration g = pod.minus(MARGIN);
    grace = g.compareTo(LEAST) < 0 ? LEAST : g;
  }

  /** How long the command has after a stop request. */
  public Duration grace() {
    return grace;
  }

  public void requestStop() {
    if (stop.getCount() > 0) {
      stoppedAt = System.nanoTime();
      stop.countDown();
    }
  }

  public boolean stopRequested() {
    return stop.getCount() == 0;
  }

  /**
   * The {@link System#nanoTime} by which the command must have finished: none ({@link
   * Long#MAX_VALUE}) until a stop is requested, then the stop plus {@link #grace}.
   */
  long deadline() {
    return stopRequested() ? stoppedAt + grace.toNanos() : Long.MAX_VALUE;
  }

  /** Blocks until a stop is requested. */
  public void awaitStop() throws InterruptedException {
    stop.await();
  }

  /** Blocks until a stop is requested or {@code timeout} has passed; true when stopped. */
  public boolean awaitStop(Duration timeout) throws InterruptedException {
    return stop.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
  }

  /** The command has ended with {@code code}; a pending hook may now end the process. */
  public void finished(int code) {
    exitCode = code;
    finished.countDown();
  }
}
