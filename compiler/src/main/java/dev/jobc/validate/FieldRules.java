package dev.jobc.validate;

import static dev.jobc.diag.Finding.error;

import dev.jobc.diag.Code;
import dev.jobc.diag.FieldPath;
import dev.jobc.diag.Finding;
import dev.jobc.diag.Quoting;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Checks of one field's value that every kind's validator makes, worded as the API server words
 * them ({@code field.NotSupported}, {@code validation.ValidateNonnegativeField}). A field left out
 * ({@code null}) passes: whether it may be left out is the schema's and the defaults' business.
 */
public final class FieldRules {
  private FieldRules() {}

  /** {@code value} must be one of {@code allowed}. */
  public static void oneOf(FieldPath path, String value, List<String> allowed, List<Finding> out) {
    if (value != null && !allowed.contains(value)) {
      out.add(notSupported(path, value, allowed));
    }
  }

  /** The finding for {@code value}, not one of {@code allowed}. */
  public static Finding notSupported(FieldPath path, String value, List<String> allowed) {
    return error(
        Code.NOT_SUPPORTED,
        path,
        "Unsupported value: "
            + Quoting.quote(value)
            + ": supported values: "
            + allowed.stream().map(Quoting::quote).collect(Collectors.joining(", ")));
  }

  /** {@code value} must not be negative. */
  public static void nonNegative(FieldPath path, Number value, List<Finding> out) {
    if (value != null && value.longValue() < 0) {
      out.add(atLeast(path, value, 0));
    }
  }

  /** The finding for {@code value}, below {@code min}. */
  public static Finding atLeast(FieldPath path, Number value, long min) {
    return error(
        Code.INVALID,
        path,
        "Invalid value: " + value + ": must be greater than or equal to " + min);
  }
}
