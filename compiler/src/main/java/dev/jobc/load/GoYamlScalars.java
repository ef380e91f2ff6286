package dev.jobc.load;

import java.math.BigInteger;

/**
 * How kubectl's YAML reader (sigs.k8s.io/yaml on go-yaml) resolves a plain scalar: null, bool, int,
 * float or string. The one copy of these rules: {@link YamlLoader} types plain scalars with it, and
 * {@code render.YamlWriter} quotes every string it would resolve to something else.
 *
 * <p>Words follow go-yaml v3's resolve.go (YAML 1.2 core schema): YAML 1.1's {@code
 * yes/no/on/off/y/n} are strings. Numbers follow its integer rule (Go's {@code strconv.ParseInt(s,
 * 0, 64)} after removing underscores: {@code 0x1F}, {@code 0o17}, {@code 0b1}, and {@code 017} is
 * octal) and its {@code yamlStyleFloat} rule. Stateless.
 */
public final class GoYamlScalars {

  /** What a plain scalar resolves to. */
  public enum Type {
    NULL,
    BOOL,
    INT,
    FLOAT,
    /** {@code .inf}, {@code -.Inf}, {@code .nan}...: floats that JSON cannot hold. */
    NON_FINITE,
    STRING
  }

  /**
   * An integer literal: its sign, radix and digits (without prefix and underscores).
   *
   * @param digits at least one digit of {@code radix}
   */
  public record IntegerLiteral(boolean negative, int radix, String digits) {
    public BigInteger value() {
      BigInteger b = new BigInteger(digits, radix);
      return negative ? b.negate() : b;
    }
  }

  private GoYamlScalars() {}

  /** What the plain scalar {@code text} resolves to. */
  public static Type resolve(String text) {
    // Every null and boolean word has at most 5 characters: most scalars skip both lookups.
    if (text.length() <= 5) {
      if (isNull(text)) {
        return Type.NULL;
      }
      if (isBoolean(text)) {
        return Type.BOOL;
      }
    }
    if (!startsLikeNumber(text)) {
      return Type.STRING;
    }
    if (text.length() <= 5 && isNonFinite(text)) { // the longest word is 5 characters
      return Type.NON_FINITE;
    }
    String s = withoutUnderscores(text);
    if (integer(s) != null) {
      return Type.INT;
    }
    return isFloat(s) ? Type.FLOAT : Type.STRING;
  }

  // The word sets are switches: every scalar read or written is looked up in them.

  public static boolean isNull(String text) {
    return switch (text) {
      case "", "~", "null", "Null", "NULL" -> true;
      default -> false;
    };
  }

  public static boolean isBoolean(String text) {
    return switch (text) {
      case "true", "True", "TRUE", "false", "False", "FALSE" -> true;
      default -> false;
    };
  }

  /** True for the true words; meaningful only when {@link #isBoolean} holds. */
  public static boolean isTrue(String text) {
    return switch (text) {
      case "true", "True", "TRUE" -> true;
      default -> false;
    };
  }

  public static boolean isNonFinite(String text) {
    return switch (text) {
      case ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF", "-.inf", "-.Inf", "-.INF" -> true;
      case ".nan", ".NaN", ".NAN" -> true;
      default -> false;
    };
  }

  /** Whether {@code text} starts like a number (a sign, a dot or a digit); others never are. */
  public static boolean startsLikeNumber(String text) {
    if (text.isEmpty()) {
      return false;
    }
    char c = text.charAt(0);
    return c == '+' || c == '-' || c == '.' || (c >= '0' && c <= '9');
  }

  /** go-yaml removes underscores before reading a number ({@code 1_000} is 1000). */
  public static String withoutUnderscores(String text) {
    return text.indexOf('_') >= 0 ? text.replace("_", "") : text;
  }

  /**
   * The integer that {@code s} (underscores removed) spells in Go's {@code ParseInt(s, 0, 64)}
   * syntax, or null: an optional sign, then {@code 0x}, {@code 0o}, {@code 0b} or a leading {@code
   * 0} (octal) before the digits. Unlike Go, any number of digits is accepted.
   */
  public static IntegerLiteral integer(String s) {
    int len = s.length();
    int i = 0;
    boolean negative = false;
    if (len > 0 && (s.charAt(0) == '+' || s.charAt(0) == '-')) {
      negative = s.charAt(0) == '-';
      i = 1;
    }
    if (i >= len) {
      return null;
    }
    int radix = 10;
    int start = i;
    if (s.charAt(i) == '0' && i + 1 < len) {
      switch (s.charAt(i + 1)) {
        case 'x', 'X' -> {
          radix = 16;
          start = i + 2;
        }
        case 'o', 'O' -> {
          radix = 8;
          start = i + 2;
        }
        case 'b', 'B' -> {
          radix = 2;
          start = i + 2;
        }
        default -> {
          radix = 8;
          start = i + 1;
        }
      }
    }
    return allDigits(s, start, radix)
        ? new IntegerLiteral(negative, radix, s.substring(start))
        : null;
  }

  /**
   * go-yaml's {@code yamlStyleFloat} on {@code s} (underscores removed): {@code
   * [-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?}. This also matches {@code 08}, which is no
   * octal integer and so reads as the float 8.
   */
  public static boolean isFloat(String s) {
    int i = 0;
    int n = s.length();
    if (i < n && (s.charAt(i) == '+' || s.charAt(i) == '-')) {
      i++;
    }
    int intDigits = 0;
    while (i < n && isDigit(s.charAt(i))) {
      i++;
      intDigits++;
    }
    int fracDigits = 0;
    if (i < n && s.charAt(i) == '.') {
      i++;
      while (i < n && isDigit(s.charAt(i))) {
        i++;
        fracDigits++;
      }
    }
    if (intDigits + fracDigits == 0) {
      return false;
    }
    if (i < n && (s.charAt(i) == 'e' || s.charAt(i) == 'E')) {
      i++;
      if (i < n && (s.charAt(i) == '+' || s.charAt(i) == '-')) {
        i++;
      }
      int expDigits = 0;
      while (i < n && isDigit(s.charAt(i))) {
        i++;
        expDigits++;
      }
      if (expDigits == 0) {
        return false;
      }
    }
    return i == n;
  }

  /** The number of decimal digits in {@code s}, for the digit limit of a float. */
  public static int decimalDigits(String s) {
    int digits = 0;
    for (int k = 0; k < s.length(); k++) {
      digits += isDigit(s.charAt(k)) ? 1 : 0;
    }
    return digits;
  }

  private static boolean allDigits(String s, int start, int radix) {
    if (start >= s.length()) {
      return false;
    }
    for (int i = start; i < s.length(); i++) {
      // Character.digit also accepts non-ASCII digits and letters; Go takes ASCII only.
      if (s.charAt(i) > 'f' || Character.digit(s.charAt(i), radix) < 0) {
        return false;
      }
    }
    return true;
  }

  private static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }
}
