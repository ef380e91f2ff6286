package dev.jobc.diag;

import java.util.Objects;

/**
 * A diagnostic before it has a file and position: what validators and planners produce, since they
 * work on bound records that no longer know where they came from. The pipeline locates it through
 * the document's {@code SourceIndex}.
 */
public record Finding(Severity severity, Code code, FieldPath path, String message) {
  public Finding {
    Objects.requireNonNull(severity, "severity");
    Objects.requireNonNull(code, "code");
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(message, "message");
    Origins.record();
  }

  public static Finding error(Code code, FieldPath path, String message) {
    return new Finding(Severity.ERROR, code, path, message);
  }

  public static Finding warning(FieldPath path, String message) {
    return new Finding(Severity.WARNING, Code.NOTE, path, message);
  }

  public boolean isError() {
    return severity == Severity.ERROR;
  }
}
