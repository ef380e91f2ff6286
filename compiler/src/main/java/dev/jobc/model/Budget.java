package dev.jobc.model;

/**
 * The memory ceiling every launcher of jobc sets, and the input limits that follow from it: every
 * size that grows with the input is checked against one of these before the work that it would
 * cost, so that any input ends in a located error or a correct render within the ceiling.
 *
 * <p>Each limit's worst input was measured with {@code bench/limits-bench.sh} (bench/README.md,
 * "Limits"); the fuzz targets run with this heap and hold each execution to an allocation allowance
 * (fuzz module, {@code MemoryCeiling}).
 */
public final class Budget {
  private Budget() {}

  /**
   * The largest heap of a jobc process ({@code -Xmx512m}): {@code bin/jobc}, the container images'
   * {@code jobc}, and so the Argo CD plugin and the KRM function. {@code HeapCeilingIT} holds every
   * launcher to it.
   */
  public static final int HEAP_MIB = 512;

  /** Characters read from one file or standard input. */
  public static final int SOURCE_CHARS = 4_000_000;

  /** Characters read from all inputs of a run together. */
  public static final long RUN_CHARS = 2L * SOURCE_CHARS;

  /** YAML nodes one source may make, aliases' copies included. */
  public static final long SOURCE_NODES = 500_000;

  /** YAML nodes all sources of a run may make together. */
  public static final long RUN_NODES = 2 * SOURCE_NODES;

  /** Aliases ({@code *name}) in one source. */
  public static final int SOURCE_ALIASES = 10_000;

  /** Nodes alias expansion may make in one source. */
  public static final long SOURCE_ALIAS_NODES = 100_000;

  /**
   * Characters of YAML one run may render, all objects together: planned jobs' estimates are held
   * to it before anything is generated, and written objects as they are written.
   */
  public static final long RUN_OUTPUT_CHARS = 32L * 1024 * 1024;
}
