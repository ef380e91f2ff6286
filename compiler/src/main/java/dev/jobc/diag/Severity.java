package dev.jobc.diag;

/** How bad a diagnostic is; errors stop the compilation, warnings and notes do not. */
public enum Severity {
  ERROR("error"),
  WARNING("warning"),
  /** What jobc did that the user may want to know, no problem of the input (a file left out). */
  NOTE("note");

  private final String label;

  Severity(String label) {
    this.label = label;
  }

  /** The word printed after the position, as javac and google-java-format do. */
  public String label() {
    return label;
  }
}
