package dev.jobc.diag;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The source lines through which findings and diagnostics were made, for the golden coverage test
 * ({@code GoldenCoverageTest}), which holds every rule of the code to a golden case. Off unless the
 * JVM starts with {@code -Djobc.diag.origins=true}: a render then pays one constant test per
 * finding and no stack walk.
 */
public final class Origins {
  private static final boolean RECORDING = Boolean.getBoolean("jobc.diag.origins");

  /** {@code package/File.java:line} of every jobc frame on the stack of a finding's making. */
  private static final Set<String> LINES = ConcurrentHashMap.newKeySet();

  private Origins() {}

  /** Called as a finding or diagnostic is made. */
  static void record() {
    if (RECORDING) {
      StackWalker.getInstance()
          .forEach(
              frame -> {
                String type = frame.getClassName();
                if (type.startsWith("dev.jobc.") && frame.getFileName() != null) {
                  LINES.add(
                      type.substring(0, type.lastIndexOf('.')).replace('.', '/')
                          + "/"
                          + frame.getFileName()
                          + ":"
                          + frame.getLineNumber());
                }
              });
    }
  }

  /** Whether this JVM records (it started with {@code -Djobc.diag.origins=true}). */
  public static boolean recording() {
    return RECORDING;
  }

  /** Forgets what was recorded so far. */
  public static void clear() {
    LINES.clear();
  }

  /** Every line recorded since the start or the last {@link #clear}. */
  public static Set<String> lines() {
    return Set.copyOf(LINES);
  }
}
