package dev.jobc.sidecar;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * SIGTERM handling without internal APIs: a shutdown hook that, when the command has not finished
 * by itself, asks it to stop, gives it a bounded time to finish (the clean-up at the end of a
 * launcher), then ends the process with the command's exit code instead of the JVM's 143.
 */
final class Termination {
  /** Well inside Kubernetes' default 30 s grace period. */
  static final Duration GRACE = Duration.ofSeconds(20);

  private final CountDownLatch stop = new CountDownLatch(1);
  private final CountDownLatch finished = new CountDownLatch(1);
  private volatile int exitCode;

  /** A termination that only {@link #requestStop} triggers (tests). */
  Termination() {}

  /** Registers the shutdown hook for this process. */
  static Termination install() {
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
                    if (t.finished.await(GRACE.toMillis(), TimeUnit.MILLISECONDS)) {
                      Runtime.getRuntime().halt(t.exitCode);
                    }
                  } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                  }
                },
                "jobc-sidecar-sigterm"));
    return t;
  }

  void requestStop() {
    stop.countDown();
  }

  boolean stopRequested() {
    return stop.getCount() == 0;
  }

  /** Blocks until a stop is requested. */
  void awaitStop() throws InterruptedException {
    stop.await();
  }

  /** Blocks until a stop is requested or {@code timeout} has passed; true when stopped. */
  boolean awaitStop(Duration timeout) throws InterruptedException {
    return stop.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
  }

  /** The command has ended with {@code code}; a pending hook may now end the process. */
  void finished(int code) {
    exitCode = code;
    finished.countDown();
  }
}
