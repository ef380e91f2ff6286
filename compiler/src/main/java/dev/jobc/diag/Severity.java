package dev.jobc.diag;

/** How bad a diagnostic is; errors stop the compilation, warnings do not. */
public enum Severity {
  ERROR("error"),
  WARNING("warning");

  private final String label;

  Severity(String label) {
    this.label = label;
  }

  /** The word printed after the position, as javac and google-java-format do. */
  public String label() {
    return label;
  }
}
