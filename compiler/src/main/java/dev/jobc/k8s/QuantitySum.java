package dev.jobc.k8s;

import io.fabric8.kubernetes.api.model.Quantity;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;

/**
 * A sum of Kubernetes quantities with apimachinery's semantics: exact decimal arithmetic, the
 * result keeps the format (binary SI, decimal SI, decimal exponent) of the first non-zero addend,
 * and it prints in the canonical form the API server stores ({@code 21}, {@code 42Gi}, {@code
 * 1500m}, {@code 2k}), so a rendered value never drifts from what the cluster shows.
 */
public final class QuantitySum {
  /** apimachinery {@code resource.Format}. */
  enum Format {
    BINARY_SI,
    DECIMAL_SI,
    DECIMAL_EXPONENT;

    /** The format of a fabric8 quantity's suffix ({@code Gi}, {@code m}, {@code e3}, ...). */
    static Format of(String suffix) {
      if (suffix == null || suffix.isEmpty()) {
        return DECIMAL_SI;
      }
      if (suffix.length() == 2 && suffix.charAt(1) == 'i') {
        return BINARY_SI;
      }
      // "E" alone is exa; "e3", "E3" are exponents.
      char first = suffix.charAt(0);
      return (first == 'e' || first == 'E') && suffix.length() > 1 ? DECIMAL_EXPONENT : DECIMAL_SI;
    }
  }

  private static final String[] DECIMAL_SUFFIXES = {
    "n", "u", "m", "", "k", "M", "G", "T", "P", "E"
  };
  private static final String[] BINARY_SUFFIXES = {"", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"};
  private static final BigInteger KIBI = BigInteger.valueOf(1024);

  private BigDecimal value = BigDecimal.ZERO;
  private Format format;

  /** Adds {@code quantity × times}. */
  public QuantitySum add(Quantity quantity, long times) {
    BigDecimal addend = amount(quantity).multiply(BigDecimal.valueOf(times));
    // apimachinery Quantity.Add: a zero receiver takes the addend's format.
    if (format == null || value.signum() == 0) {
      format = Format.of(quantity.getFormat());
    }
    value = value.add(addend);
    return this;
  }

  /** The canonical text of the sum, as apimachinery's {@code Quantity.String()} prints it. */
  @Override
  public String toString() {
    return canonical(value, format == null ? Format.DECIMAL_SI : format);
  }

  /**
   * The canonical text of one quantity ({@code 1.5Gi} → {@code 1536Mi}, {@code 1000} → {@code 1k}).
   */
  public static String canonical(Quantity quantity) {
    return new QuantitySum().add(quantity, 1).toString();
  }

  /**
   * The exact value of a quantity ({@link Quantities#value}). Not fabric8's {@code
   * getNumericalAmount}, which goes through {@code double} and loses digits from {@code Ei} on.
   *
   * @throws IllegalArgumentException when it is no quantity jobc reads (validation reports it)
   */
  static BigDecimal amount(Quantity quantity) {
    BigDecimal value = Quantities.value(quantity);
    if (value == null) {
      throw new IllegalArgumentException("not a quantity jobc reads: " + quantity);
    }
    return value;
  }

  static String canonical(BigDecimal amount, Format format) {
    // apimachinery keeps nano precision and rounds anything finer away from zero.
    BigDecimal v = amount.setScale(9, RoundingMode.UP).stripTrailingZeros();
    if (v.signum() == 0) {
      return "0";
    }
    if (format == Format.BINARY_SI
        && v.abs().compareTo(BigDecimal.valueOf(1024)) >= 0
        && v.scale() <= 0) {
      // CanonicalizeBytes: whole numbers of at least 1024 print in powers of 1024.
      BigInteger n = v.toBigIntegerExact();
      int power = 0;
      while (power < BINARY_SUFFIXES.length - 1 && n.mod(KIBI).signum() == 0) {
        n = n.divide(KIBI);
        power++;
      }
      return n + BINARY_SUFFIXES[power];
    }
    // Decimal: the mantissa without trailing zeros, the exponent lowered to a multiple of 3.
    BigInteger mantissa = v.unscaledValue();
    int exponent = -v.scale();
    int floor = Math.floorDiv(exponent, 3) * 3;
    if (format != Format.DECIMAL_EXPONENT) {
      floor = Math.min(floor, 18); // E is the largest decimal SI suffix
    }
    mantissa = mantissa.multiply(BigInteger.TEN.pow(exponent - floor));
    if (format == Format.DECIMAL_EXPONENT) {
      return floor == 0 ? mantissa.toString() : mantissa + "e" + floor;
    }
    return mantissa + DECIMAL_SUFFIXES[floor / 3 + 3];
  }
}
