package dev.jobc.sidecar.base;

import java.time.Instant;
import java.time.temporal.ChronoUnit;

/** One line per event on standard error, time-stamped (kubectl logs shows it). */
public final class Log {
  private Log() {}

  public static void info(String message) {
    System.err.println(Instant.now().truncatedTo(ChronoUnit.MILLIS) + " jobc-sidecar: " + message);
  }
}
