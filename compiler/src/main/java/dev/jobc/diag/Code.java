package dev.jobc.diag;

/**
 * What kind of problem a diagnostic reports. The first five follow Kubernetes' {@code
 * field.ErrorType} vocabulary, so rules ported from upstream validation keep their type.
 */
public enum Code {
  /** A required field is missing ({@code field.Required}). */
  REQUIRED("Required value"),
  /** A field has a value that is not allowed ({@code field.Invalid}). */
  INVALID("Invalid value"),
  /** A value outside a closed set ({@code field.NotSupported}). */
  NOT_SUPPORTED("Unsupported value"),
  /** A field that must not be set in this context ({@code field.Forbidden}). */
  FORBIDDEN("Forbidden"),
  /** Two things that must be unique are not ({@code field.Duplicate}). */
  DUPLICATE("Duplicate value"),
  /** A field the schema does not know. */
  UNKNOWN_FIELD("Unknown field"),
  /** A value of the wrong JSON type, or other schema violations. */
  SCHEMA("Schema violation"),
  /** The text is not well-formed YAML. */
  SYNTAX("Syntax error"),
  /** An input exceeds a safety limit (size, nesting, alias expansion, number size). */
  LIMIT("Limit exceeded"),
  /** An input could not be read. */
  IO("I/O error"),
  /** Anything else worth saying that is not an error of the input (warnings). */
  NOTE("Note"),
  /** A defect in jobc itself; please report it. */
  INTERNAL("Internal error");

  private final String title;

  Code(String title) {
    this.title = title;
  }

  /** Human title, used by tools that show a code next to the message (KRM results). */
  public String title() {
    return title;
  }
}
