package dev.jobc.fuzz;

import dev.jobc.model.Budget;
import java.lang.management.ManagementFactory;

/**
 * Holds each execution of a fuzz target to jobc's memory ceiling, {@link Budget#HEAP_MIB}: the fuzz
 * JVM runs with that heap (fuzz/pom.xml), so an input whose compile needs more is an
 * OutOfMemoryError, a finding; and one execution may allocate at most {@link #ALLOWANCE} bytes, all
 * threads together, so that work out of bounds (a quadratic blow-up the collector keeps up with) is
 * a finding too. The allowance is 16 times the heap because Jazzer's instrumentation allocates on
 * every hooked string comparison: a 100,000-character key over 100,000 list items allocates 84 MiB
 * in a plain JVM and 5.7 GiB instrumented. The committed input tfjob-5000-replicas is the finding
 * this held on main before jobc's budgets: an OutOfMemoryError building TF_CONFIG.
 */
final class MemoryCeiling {
  static final long ALLOWANCE = 16L * Budget.HEAP_MIB * 1024 * 1024;

  private static final com.sun.management.ThreadMXBean THREADS =
      (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

  private MemoryCeiling() {}

  /**
   * Runs {@code body}; throws when the JVM's threads allocated more than {@code allowance} bytes
   * while it ran.
   */
  static void hold(long allowance, TargetRuns.Body body) throws Exception {
    long before = allocated();
    body.run();
    long used = allocated() - before;
    if (used > allowance) {
      throw new AssertionError(
          "allocated "
              + used / (1024 * 1024)
              + " MiB, more than the "
              + allowance / (1024 * 1024)
              + " MiB one execution may (see MemoryCeiling)");
    }
  }

  /**
   * Runs {@code body} as an execution of {@code target}, held to {@link #ALLOWANCE} from its second
   * execution on: the first loads, links and compiles jobc's classes and its schemas, which
   * allocate on their own, once per JVM.
   */
  static void hold(String target, TargetRuns.Body body) throws Exception {
    if (WARM.add(target)) {
      body.run();
      return;
    }
    hold(ALLOWANCE, body);
  }

  private static final java.util.Set<String> WARM =
      java.util.concurrent.ConcurrentHashMap.newKeySet();

  /** Bytes allocated so far by the live threads (the compile's pool threads live on). */
  private static long allocated() {
    long total = 0;
    for (long bytes : THREADS.getThreadAllocatedBytes(THREADS.getAllThreadIds())) {
      total += Math.max(bytes, 0);
    }
    return total;
  }
}
