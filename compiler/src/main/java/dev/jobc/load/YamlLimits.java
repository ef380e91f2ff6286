package dev.jobc.load;

import dev.jobc.model.Budget;

/**
 * Safety limits for {@link YamlLoader}, so that no input can make it hang or run out of memory.
 * Every count is per source (one file, or standard input: a stream of any number of documents),
 * never per document, so that splitting input into documents gains nothing; the run's total is the
 * {@link NodeBudget} its sources share.
 *
 * @param maxSourceChars longest accepted source text, in UTF-16 chars
 * @param maxDepth deepest accepted nesting of mappings and lists (the root container is depth 1; at
 *     most 1,000, since alias expansion copies trees recursively)
 * @param maxNodes most YAML nodes (scalars, mappings, lists, aliases' copies counted node by node)
 *     that one source may make
 * @param maxAliases most aliases ({@code *name}) in one source
 * @param maxAliasNodes most nodes that alias expansion may make in one source (the defence against
 *     "billion laughs" alias bombs)
 * @param maxNumberDigits most digits in one number literal (big numbers cost quadratic time to
 *     parse)
 */
public record YamlLimits(
    int maxSourceChars,
    int maxDepth,
    long maxNodes,
    int maxAliases,
    long maxAliasNodes,
    int maxNumberDigits) {

  /** Upper bound for {@code maxDepth}: alias expansion copies trees recursively. */
  static final int DEPTH_CEILING = 1_000;

  public YamlLimits {
    if (maxSourceChars < 1) {
      throw new IllegalArgumentException("maxSourceChars must be positive: " + maxSourceChars);
    }
    if (maxDepth < 1 || maxDepth > DEPTH_CEILING) {
      throw new IllegalArgumentException(
          "maxDepth must be between 1 and " + DEPTH_CEILING + ": " + maxDepth);
    }
    if (maxNodes < 1) {
      throw new IllegalArgumentException("maxNodes must be positive: " + maxNodes);
    }
    if (maxAliases < 0) {
      throw new IllegalArgumentException("maxAliases must not be negative: " + maxAliases);
    }
    if (maxAliasNodes < 0) {
      throw new IllegalArgumentException("maxAliasNodes must not be negative: " + maxAliasNodes);
    }
    if (maxNumberDigits < 1) {
      throw new IllegalArgumentException("maxNumberDigits must be positive: " + maxNumberDigits);
    }
  }

  /** {@link Budget}'s limits per source, depth 100, 100 digits. */
  public static YamlLimits defaults() {
    return new YamlLimits(
        Budget.SOURCE_CHARS,
        100,
        Budget.SOURCE_NODES,
        Budget.SOURCE_ALIASES,
        Budget.SOURCE_ALIAS_NODES,
        100);
  }
}
