package dev.jobc.sidecar;

import java.time.Instant;
import java.time.temporal.ChronoUnit;

/** One line per event on standard error, time-stamped (kubectl logs shows it). */
final class Log {
  private Log() {}

  static void info(String message) {
    System.err.println(Instant.now().truncatedTo(ChronoUnit.MILLIS) + " jobc-sidecar: " + message);
  }
}
