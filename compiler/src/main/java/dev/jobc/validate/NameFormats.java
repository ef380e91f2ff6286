package dev.jobc.validate;

import dev.jobc.options.Dns;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The string formats of apimachinery's {@code pkg/util/validation} (v0.32, Kubernetes 1.32) that
 * pod templates use, returning the same messages so that errors read like the API server's. Each
 * method returns the problems; empty means valid. Lengths are counted in UTF-8 bytes, as Go's
 * {@code len} counts them. The DNS rules are {@link Dns}.
 */
public final class NameFormats {
  private static final String QUALIFIED_NAME_FORMAT = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
  private static final Pattern QUALIFIED_NAME = Pattern.compile(QUALIFIED_NAME_FORMAT);
  private static final String QUALIFIED_NAME_MESSAGE =
      "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an"
          + " alphanumeric character";
  private static final Pattern LABEL_VALUE = Pattern.compile("(" + QUALIFIED_NAME_FORMAT + ")?");
  private static final Pattern PORT_NAME_CHARSET = Pattern.compile("[-a-z0-9]+");
  private static final Pattern HAS_LETTER = Pattern.compile(".*[a-z].*", Pattern.DOTALL);

  /** {@code LabelValueMaxLength} and the name part of a qualified name. */
  public static final int LABEL_VALUE_MAX = 63;

  private NameFormats() {}

  /** {@code IsQualifiedName}: label keys, annotation keys (lower-cased), resource names. */
  public static List<String> qualifiedName(String value) {
    List<String> errs = new ArrayList<>();
    String[] parts = value.split("/", -1);
    String name;
    switch (parts.length) {
      case 1 -> name = parts[0];
      case 2 -> {
        String prefix = parts[0];
        name = parts[1];
        if (prefix.isEmpty()) {
          errs.add("prefix part " + emptyError());
        } else {
          for (String msg : Dns.dns1123Subdomain(prefix)) {
            errs.add("prefix part " + msg);
          }
        }
      }
      default -> {
        errs.add(
            "a qualified name "
                + regexError(
                    QUALIFIED_NAME_MESSAGE, QUALIFIED_NAME_FORMAT, "MyName", "my.name", "123-abc")
                + " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')");
        return errs;
      }
    }
    if (name.isEmpty()) {
      errs.add("name part " + emptyError());
    } else if (bytes(name) > LABEL_VALUE_MAX) {
      errs.add("name part " + maxLenError(LABEL_VALUE_MAX));
    }
    if (!QUALIFIED_NAME.matcher(name).matches()) {
      errs.add(
          "name part "
              + regexError(
                  QUALIFIED_NAME_MESSAGE, QUALIFIED_NAME_FORMAT, "MyName", "my.name", "123-abc"));
    }
    return errs;
  }

  /** {@code IsValidLabelValue}. */
  public static List<String> labelValue(String value) {
    List<String> errs = new ArrayList<>();
    if (bytes(value) > LABEL_VALUE_MAX) {
      errs.add(maxLenError(LABEL_VALUE_MAX));
    }
    if (!LABEL_VALUE.matcher(value).matches()) {
      errs.add(
          regexError(
              "a valid label must be an empty string or consist of alphanumeric characters, '-',"
                  + " '_' or '.', and must start and end with an alphanumeric character",
              "(" + QUALIFIED_NAME_FORMAT + ")?",
              "MyValue",
              "my_value",
              "12345"));
    }
    return errs;
  }

  /** {@code IsValidPortNum}: 1 to 65535. */
  public static List<String> portNumber(long port) {
    return 1 <= port && port <= 65535 ? List.of() : List.of(inclusiveRangeError(1, 65535));
  }

  /** {@code IsValidPortName}: an IANA_SVC_NAME (RFC 6335), lower case only. */
  public static List<String> portName(String port) {
    List<String> errs = new ArrayList<>();
    if (bytes(port) > 15) {
      errs.add(maxLenError(15));
    }
    if (!PORT_NAME_CHARSET.matcher(port).matches()) {
      errs.add("must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)");
    }
    if (!HAS_LETTER.matcher(port).matches()) {
      errs.add("must contain at least one letter (a-z)");
    }
    if (port.contains("--")) {
      errs.add("must not contain consecutive hyphens");
    }
    if (!port.isEmpty() && (port.charAt(0) == '-' || port.charAt(port.length() - 1) == '-')) {
      errs.add("must not begin or end with a hyphen");
    }
    return errs;
  }

  /**
   * {@code IsRelaxedEnvVarName}: printable ASCII other than {@code =}. The API server applies it
   * from Kubernetes 1.32 on (feature RelaxedEnvironmentVariableValidation, on by default; strict
   * {@code IsEnvVarName} before), so jobc refuses only what no supported server accepts.
   */
  public static List<String> envVarName(String value) {
    List<String> errs = new ArrayList<>();
    if (value.isEmpty()) {
      errs.add("environment variable name " + emptyError());
    }
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (c < 0x20 || c > 0x7e || c == '=') {
        errs.add(
            "a valid environment variable name must consist only of printable ASCII characters"
                + " other than '='");
        break;
      }
    }
    return errs;
  }

  /** {@code InclusiveRangeError}. */
  public static String inclusiveRangeError(long lo, long hi) {
    return "must be between " + lo + " and " + hi + ", inclusive";
  }

  static String maxLenError(int length) {
    return "must be no more than " + length + " characters";
  }

  static String emptyError() {
    return "must be non-empty";
  }

  /** {@code RegexError}. */
  static String regexError(String message, String format, String... examples) {
    StringBuilder out = new StringBuilder(message).append(" (e.g. ");
    for (int i = 0; i < examples.length; i++) {
      if (i > 0) {
        out.append(" or ");
      }
      out.append('\'').append(examples[i]).append("', ");
    }
    return out.append("regex used for validation is '").append(format).append("')").toString();
  }

  /** Go's {@code len}: UTF-8 bytes. */
  static int bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8).length;
  }
}
