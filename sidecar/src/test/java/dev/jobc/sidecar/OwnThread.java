package dev.jobc.sidecar;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.Supplier;

/**
 * Runs a sidecar under test on a thread of its own, as the sidecar's {@code main} thread runs it,
 * never on the common fork-join pool.
 *
 * <p>The JDK's HTTP client completes each {@code sendAsync} future on {@code CompletableFuture}'s
 * default executor (java.net.http {@code jdk/internal/net/http/HttpClientImpl.java}, {@code
 * ASYNC_POOL}). On Temurin 25 that is the common pool whatever its parallelism ({@code
 * ForkJoinPool.asyncCommonPool()}); JDK 17 starts a thread per task when the pool's parallelism is
 * 1, as on a 2-core machine. A sidecar parked on the common pool's only worker would therefore wait
 * on JDK 25 for answers that no worker is left to deliver.
 */
public final class OwnThread {
  private static final Executor NEW_THREAD =
      task -> {
        Thread t = new Thread(task, "sidecar-under-test");
        t.setDaemon(true);
        t.start();
      };

  private OwnThread() {}

  /** {@code work}'s result, computed on a new daemon thread. */
  public static <T> CompletableFuture<T> supply(Supplier<T> work) {
    return CompletableFuture.supplyAsync(work, NEW_THREAD);
  }

  /** {@code work}, run on a new daemon thread. */
  public static CompletableFuture<Void> run(Runnable work) {
    return CompletableFuture.runAsync(work, NEW_THREAD);
  }
}
