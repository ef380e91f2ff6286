package dev.jobc.sidecar.client;

import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.LongSupplier;

/**
 * The pauses between an informer's attempts, as client-go's reflector takes them: an exponential
 * back-off that starts at 800 ms, doubles up to 30 s, adds up to as much again at random, and
 * starts over once no pause was asked for in 2 minutes (k8s.io/client-go {@code
 * tools/cache/reflector.go}, {@code NewExponentialBackoffManager(800*time.Millisecond,
 * 30*time.Second, 2*time.Minute, 2.0, 1.0, clock)}; k8s.io/apimachinery {@code
 * pkg/util/wait/backoff.go}, {@code Backoff.Step}, {@code Jitter} and {@code
 * exponentialBackoffManagerImpl.getNextBackoff}). Not thread-safe: one per informer.
 */
public final class Backoff {
  /** The back-off's parameters. */
  public record Settings(
      Duration initial, Duration cap, Duration reset, double factor, double jitter) {
    /** client-go's reflector's. */
    public static final Settings CLIENT_GO =
        new Settings(
            Duration.ofMillis(800), Duration.ofSeconds(30), Duration.ofMinutes(2), 2.0, 1.0);
  }

  private final Settings settings;
  private final LongSupplier nanoTime;
  private long duration;
  private boolean capped;
  private long lastStart;
  private boolean started;

  public Backoff(Settings settings, LongSupplier nanoTime) {
    this.settings = settings;
    this.nanoTime = nanoTime;
    this.duration = settings.initial().toNanos();
  }

  /** The next pause. */
  public Duration next() {
    long now = nanoTime.getAsLong();
    // getNextBackoff: a quiet spell longer than the reset duration starts over.
    if (!started || now - lastStart > settings.reset().toNanos()) {
      duration = settings.initial().toNanos();
      capped = false;
    }
    started = true;
    lastStart = now;
    // Step: this pause is the current duration; the next one is factor times it, up to the cap.
    long pause = duration;
    if (!capped) {
      duration = (long) (duration * settings.factor());
      if (duration > settings.cap().toNanos()) {
        duration = settings.cap().toNanos();
        capped = true;
      }
    }
    // Jitter(d, maxFactor): d + rand.Float64()*maxFactor*d.
    if (settings.jitter() > 0) {
      pause += (long) (ThreadLocalRandom.current().nextDouble() * settings.jitter() * pause);
    }
    return Duration.ofNanos(pause);
  }
}
