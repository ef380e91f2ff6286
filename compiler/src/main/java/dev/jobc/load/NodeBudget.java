package dev.jobc.load;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The YAML nodes a run may still make, shared by the sources it loads (on several threads): {@link
 * YamlLoader} takes every node it makes from it, aliases' copies included, and stops a source when
 * it runs out. Thread-safe.
 */
public final class NodeBudget {
  private final long total;
  private final AtomicLong left;

  public NodeBudget(long total) {
    this(total, total);
  }

  /**
   * What is {@code left} of a run's budget of {@code total} nodes (the total is what a source that
   * runs out reports).
   */
  public NodeBudget(long total, long left) {
    if (left < 0 || left > total) {
      throw new IllegalArgumentException("left must be from 0 to " + total + ": " + left);
    }
    this.total = total;
    this.left = new AtomicLong(left);
  }

  /** A budget no source runs out of. */
  public static NodeBudget unlimited() {
    return new NodeBudget(Long.MAX_VALUE);
  }

  /** The nodes the run started with. */
  public long total() {
    return total;
  }

  /** The nodes not yet taken. */
  public long left() {
    return Math.max(0, left.get());
  }

  /** Takes {@code n} nodes; false, and the budget spent, when fewer than {@code n} are left. */
  boolean take(long n) {
    return left.addAndGet(-n) >= 0;
  }
}
