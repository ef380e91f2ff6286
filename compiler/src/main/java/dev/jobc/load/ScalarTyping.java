package dev.jobc.load;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.BigIntegerNode;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.LongNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.jobc.diag.Code;
import dev.jobc.diag.FieldPath;
import dev.jobc.diag.Position;
import dev.jobc.diag.Quoting;
import java.math.BigInteger;
import java.util.Locale;
import java.util.Set;
import org.yaml.snakeyaml.events.ScalarEvent;

/**
 * Types one scalar event as a JSON node: explicit tags first, then quoting, then {@link
 * GoYamlScalars} for plain scalars, within the number digit limit. Jackson's YAML parser types
 * scalars by YAML 1.1 ({@code yes} is true, {@code 0o17} a string), so this is jobc's own.
 */
final class ScalarTyping {
  static final String YAML_TAG = "tag:yaml.org,2002:";

  private static final Set<String> JSON_TAGS =
      Set.of("map", "seq", "str", "int", "float", "bool", "null");

  /** Where problems go; returns the placeholder node for the scalar. */
  interface Problems {
    JsonNode fail(Code code, Position at, FieldPath path, String message);
  }

  private final int maxNumberDigits;
  private final Problems problems;

  ScalarTyping(int maxNumberDigits, Problems problems) {
    this.maxNumberDigits = maxNumberDigits;
    this.problems = problems;
  }

  /** The node for scalar {@code e} at {@code at}, or a placeholder after reporting a problem. */
  JsonNode scalar(ScalarEvent e, Position at, FieldPath path) {
    String value = e.getValue();
    int surrogate = unpairedSurrogate(value);
    if (surrogate >= 0) {
      // Only an escape (backslash, u, d800) makes one; no encoding can write it, and the output
      // would silently hold "?" instead.
      return problems.fail(
          Code.SYNTAX,
          at,
          path,
          String.format(
              Locale.ROOT,
              "\\u%04x is half of a UTF-16 surrogate pair, not a character; write the character"
                  + " itself, or its code point as \\UXXXXXXXX",
              (int) value.charAt(surrogate)));
    }
    String tag = e.getTag();
    if (tag == null) {
      return e.isPlain() ? plain(value, at, path) : TextNode.valueOf(value);
    }
    if (tag.equals("!")) {
      // The non-specific tag: "!" forces a plain scalar to be a string (YAML 1.2 §6.9.1).
      return TextNode.valueOf(value);
    }
    if (!tag.startsWith(YAML_TAG)) {
      return tagError(tag, at, path, "a scalar");
    }
    switch (tag.substring(YAML_TAG.length())) {
      case "str":
        return TextNode.valueOf(value);
      case "null":
        if (GoYamlScalars.isNull(value)) {
          return NullNode.getInstance();
        }
        break;
      case "bool":
        if (GoYamlScalars.isBoolean(value)) {
          return BooleanNode.valueOf(GoYamlScalars.isTrue(value));
        }
        break;
      case "int":
        {
          JsonNode n = number(value, at, path);
          if (n != null && (n.isIntegralNumber() || n.isNull())) {
            return n;
          }
          break;
        }
      case "float":
        {
          JsonNode n = number(value, at, path);
          if (n != null && n.isIntegralNumber()) {
            return DoubleNode.valueOf(n.doubleValue());
          }
          if (n != null) {
            return n;
          }
          break;
        }
      default:
        return tagError(tag, at, path, "a scalar");
    }
    return problems.fail(
        Code.SYNTAX,
        at,
        path,
        Quoting.quote(abbreviate(value)) + " cannot be read as " + shortTag(tag));
  }

  /** Reports a tag that jobc does not accept on {@code what} (a scalar, a mapping, a list). */
  JsonNode tagError(String tag, Position at, FieldPath path, String what) {
    String shown = shortTag(tag);
    String message =
        tag.startsWith(YAML_TAG) && JSON_TAGS.contains(tag.substring(YAML_TAG.length()))
            ? "tag " + shown + " cannot be used on " + what
            : "YAML tags are not supported: "
                + shown
                + " (only !!str, !!int, !!float, !!bool, !!null, !!map and !!seq are accepted)";
    return problems.fail(Code.SYNTAX, at, path, message);
  }

  /** A plain (unquoted, untagged) scalar, resolved as go-yaml does. */
  private JsonNode plain(String value, Position at, FieldPath path) {
    if (GoYamlScalars.isNull(value)) {
      return NullNode.getInstance();
    }
    if (GoYamlScalars.isBoolean(value)) {
      return BooleanNode.valueOf(GoYamlScalars.isTrue(value));
    }
    if (GoYamlScalars.startsLikeNumber(value)) {
      JsonNode n = number(value, at, path);
      if (n != null) {
        return n;
      }
    }
    return TextNode.valueOf(value);
  }

  /**
   * A number by {@link GoYamlScalars}' syntax: null when the text is none, a NullNode after
   * reporting a problem. Unlike go-yaml, integers beyond 64 bits stay exact (BigIntegerNode).
   */
  private JsonNode number(String value, Position at, FieldPath path) {
    if (GoYamlScalars.isNonFinite(value)) {
      // go-yaml reads these as ±Inf/NaN, which kubectl then fails to convert to JSON.
      return problems.fail(
          Code.INVALID,
          at,
          path,
          value + " is not a JSON number; quote it if it is meant as a string");
    }
    String s = GoYamlScalars.withoutUnderscores(value);
    GoYamlScalars.IntegerLiteral integer = GoYamlScalars.integer(s);
    if (integer != null) {
      if (integer.digits().length() > maxNumberDigits) {
        return tooLong(at, path);
      }
      return integerNode(integer.value());
    }
    if (GoYamlScalars.isFloat(s)) {
      if (GoYamlScalars.decimalDigits(s) > maxNumberDigits) {
        return tooLong(at, path);
      }
      double d = Double.parseDouble(s);
      if (Double.isInfinite(d)) {
        return problems.fail(Code.INVALID, at, path, "number " + value + " is out of range");
      }
      if (d == 0 && nonZeroMantissa(s)) {
        // go-yaml reads it as 0 (below the smallest float64), and so does the cluster: a
        // quantity "1e-1000" written unquoted would silently ask for nothing.
        return problems.fail(
            Code.INVALID,
            at,
            path,
            "number "
                + value
                + " is too small to tell from 0 and would be read as 0; write 0, or quote it if it"
                + " is meant as a string (a quantity such as \"1e-9\")");
      }
      return DoubleNode.valueOf(d);
    }
    return null;
  }

  /** Whether a float literal's digits before its exponent are not all zeros. */
  private static boolean nonZeroMantissa(String s) {
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == 'e' || c == 'E') {
        return false;
      }
      if (c >= '1' && c <= '9') {
        return true;
      }
    }
    return false;
  }

  private JsonNode tooLong(Position at, FieldPath path) {
    return problems.fail(
        Code.LIMIT, at, path, "number has more than " + maxNumberDigits + " digits");
  }

  private static JsonNode integerNode(BigInteger b) {
    if (b.bitLength() < 32) {
      return IntNode.valueOf(b.intValue());
    }
    return b.bitLength() < 64 ? LongNode.valueOf(b.longValue()) : BigIntegerNode.valueOf(b);
  }

  /** The index of the first surrogate that is not part of a pair, or -1. */
  private static int unpairedSurrogate(String s) {
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (Character.isHighSurrogate(c)
          && i + 1 < s.length()
          && Character.isLowSurrogate(s.charAt(i + 1))) {
        i++;
      } else if (Character.isSurrogate(c)) {
        return i;
      }
    }
    return -1;
  }

  private static String abbreviate(String s) {
    return s.length() <= 40 ? s : s.substring(0, 40) + "...";
  }

  private static String shortTag(String tag) {
    return tag.startsWith(YAML_TAG) ? "!!" + tag.substring(YAML_TAG.length()) : tag;
  }
}
