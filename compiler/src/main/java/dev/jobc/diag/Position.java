package dev.jobc.diag;

/** A 1-based line and column in a source file; {@link #UNKNOWN} when there is none. */
public record Position(int line, int column) {
  public static final Position UNKNOWN = new Position(-1, -1);

  public Position {
    if (!(line == -1 && column == -1) && (line < 1 || column < 1)) {
      throw new IllegalArgumentException("1-based position expected: " + line + ":" + column);
    }
  }

  public boolean known() {
    return line > 0;
  }
}
