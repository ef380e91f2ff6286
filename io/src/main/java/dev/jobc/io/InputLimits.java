package dev.jobc.io;

import dev.jobc.model.Budget;

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
   * {@link Budget#SOURCE_CHARS} per file (the loader's own limit), {@link Budget#RUN_CHARS} in all.
   */
  public static InputLimits defaults() {
    return new InputLimits(Budget.SOURCE_CHARS, Budget.RUN_CHARS);
  }
}
