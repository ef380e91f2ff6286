package dev.jobc.io;

import dev.jobc.load.YamlLimits;

/**
 * How much {@link InputFiles} reads, so that no input ({@code /dev/zero}, an endless pipe, a huge
 * file, a huge directory) can make jobc run out of memory or read for ever.
 *
 * @param maxFileChars most characters read from one file or from standard input
 * @param maxTotalChars most characters read from all inputs of one run together
 */
public record InputLimits(int maxFileChars, long maxTotalChars) {
  public InputLimits {
    if (maxFileChars < 1) {
      throw new IllegalArgumentException("maxFileChars must be positive: " + maxFileChars);
    }
    if (maxTotalChars < maxFileChars) {
      throw new IllegalArgumentException(
          "maxTotalChars must be at least maxFileChars: " + maxTotalChars);
    }
  }

  /**
   * 4,000,000 characters per file, the loader's own limit per source (a longer file would be
   * refused anyway), and 8,000,000 in all: the text stays under 16 MB, and compiling that much
   * MPIJob text fits a heap of a few hundred MB.
   */
  public static InputLimits defaults() {
    int perFile = YamlLimits.defaults().maxSourceChars();
    return new InputLimits(perFile, 2L * perFile);
  }
}
