package dev.jobc.load;

/**
 * Safety limits for {@link YamlLoader}, so that no input can make it hang or run out of memory.
 *
 * @param maxSourceChars longest accepted source text, in UTF-16 chars
 * @param maxDepth deepest accepted nesting of mappings and lists (the root container is depth 1; at
 *     most 1,000, since alias expansion copies trees recursively)
 * @param maxAliasNodes most nodes that alias expansion may produce in one document (the defence
 *     against "billion laughs" alias bombs)
 * @param maxNumberDigits most digits in one number literal (big numbers cost quadratic time to
 *     parse)
 */
public record YamlLimits(int maxSourceChars, int maxDepth, int maxAliasNodes, int maxNumberDigits) {

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
    if (maxAliasNodes < 0) {
      throw new IllegalArgumentException("maxAliasNodes must not be negative: " + maxAliasNodes);
    }
    if (maxNumberDigits < 1) {
      throw new IllegalArgumentException("maxNumberDigits must be positive: " + maxNumberDigits);
    }
  }

  /** 4,000,000 chars, depth 100, 10,000 alias nodes, 100 digits. */
  public static YamlLimits defaults() {
    return new YamlLimits(4_000_000, 100, 10_000, 100);
  }
}
