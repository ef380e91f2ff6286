package dev.jobc.k8s;

import io.fabric8.kubernetes.api.model.Quantity;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Kubernetes quantities read as apimachinery's {@code ParseQuantity} reads them (ASCII digits only,
 * as Go reads them: a Java number parser takes {@code "١"} for 1), within the bounds jobc computes
 * with: at most {@value #MAX_CHARS} characters and a decimal exponent from -{@value #MAX_EXPONENT}
 * to {@value #MAX_EXPONENT}, so that no quantity costs more than a few hundred digits of
 * arithmetic. Every computation on a quantity goes through {@link #value}.
 */
public final class Quantities {
  /** The longest quantity jobc reads. */
  public static final int MAX_CHARS = 100;

  /** The largest decimal exponent, after the suffix, of a quantity jobc reads. */
  public static final int MAX_EXPONENT = 1_000;

  private static final Pattern SYNTAX =
      Pattern.compile(
          "([+-]?(?:[0-9]+(?:\\.[0-9]*)?|\\.[0-9]+))((?:[KMGTPE]i)|[numkMGTPE]|[eE][+-]?[0-9]+)?");

  private static final String DECIMAL = "num kMGTPE";
  private static final BigInteger KIBI = BigInteger.valueOf(1024);

  private Quantities() {}

  /** The exact value of {@code q}, or null when it is no quantity jobc reads (see the class). */
  public static BigDecimal value(Quantity q) {
    return q == null || q.getAmount() == null ? null : value(text(q));
  }

  /** {@code q} as written: amount and format run together; "" for none ({@code cpu:} alone). */
  public static String text(Quantity q) {
    if (q == null) {
      return "";
    }
    return (q.getAmount() == null ? "" : q.getAmount())
        + (q.getFormat() == null ? "" : q.getFormat());
  }

  /** The exact value of {@code text}, or null when it is no quantity jobc reads. */
  public static BigDecimal value(String text) {
    if (text.length() > MAX_CHARS) {
      return null;
    }
    Matcher m = SYNTAX.matcher(text);
    if (!m.matches()) {
      return null;
    }
    BigDecimal number = new BigDecimal(m.group(1));
    String suffix = m.group(2) == null ? "" : m.group(2);
    if (suffix.length() == 2 && suffix.charAt(1) == 'i') {
      int power = "KMGTPE".indexOf(suffix.charAt(0)) + 1;
      return number.multiply(new BigDecimal(KIBI.pow(power)));
    }
    if (suffix.length() <= 1) {
      int power = suffix.isEmpty() ? 3 : DECIMAL.indexOf(suffix.charAt(0));
      return number.scaleByPowerOfTen(3 * (power - 3));
    }
    // An exponent: Go parses it as an int64 (apimachinery suffixHandler.interpret).
    String digits = suffix.substring(1);
    long exponent;
    try {
      exponent = Long.parseLong(digits.startsWith("+") ? digits.substring(1) : digits);
    } catch (NumberFormatException e) {
      return null;
    }
    if (Math.abs(exponent) > MAX_EXPONENT) {
      return null;
    }
    return number.scaleByPowerOfTen((int) exponent);
  }

  /**
   * Why {@code text}, a quantity by its syntax (which the schema checks), is beyond what jobc
   * reads, as the tail of an {@code Invalid value} message; null when it is within.
   */
  public static String beyondBounds(String text) {
    if (value(text) != null || !(text.length() > MAX_CHARS || SYNTAX.matcher(text).matches())) {
      return null;
    }
    return "jobc reads quantities of at most "
        + MAX_CHARS
        + " characters with an exponent from -"
        + MAX_EXPONENT
        + " to "
        + MAX_EXPONENT;
  }
}
