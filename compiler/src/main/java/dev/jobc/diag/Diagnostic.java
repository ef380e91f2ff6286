package dev.jobc.diag;

import java.util.Comparator;
import java.util.Objects;

/**
 * One message about the input, printed as {@code file:line:col: error: field.path: message}.
 *
 * <p>{@code line} and {@code column} are 1-based; {@code -1} means unknown, and the position is
 * then left out of the printed form rather than printed as {@code -1}. {@code path} is the field
 * path in upstream spelling ({@code spec.mpiReplicaSpecs[Launcher].replicas}) or empty when the
 * message is about the document as a whole.
 */
public record Diagnostic(
    Severity severity, Code code, String file, int line, int column, String path, String message) {

  /**
   * Output order: by file, then position, then path and message (stable across runs). Written out
   * rather than chained from {@code Comparator.comparing}, whose links each spin a class at first
   * use (see {@code render.Ordering}).
   */
  public static final Comparator<Diagnostic> ORDER = Diagnostic::compare;

  private static int compare(Diagnostic a, Diagnostic b) {
    int c = a.file.compareTo(b.file);
    if (c == 0) {
      c = Integer.compare(a.line, b.line);
    }
    if (c == 0) {
      c = Integer.compare(a.column, b.column);
    }
    if (c == 0) {
      c = a.path.compareTo(b.path);
    }
    return c != 0 ? c : a.message.compareTo(b.message);
  }

  public Diagnostic {
    Objects.requireNonNull(severity, "severity");
    Objects.requireNonNull(code, "code");
    Objects.requireNonNull(file, "file");
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(message, "message");
    if (line < -1 || line == 0 || column < -1 || column == 0) {
      throw new IllegalArgumentException(
          "line and column are 1-based or -1: " + line + ":" + column);
    }
    if (line == -1 && column != -1) {
      throw new IllegalArgumentException("a column needs a line");
    }
    Origins.record();
  }

  public static Diagnostic error(Code code, String file, Position at, FieldPath path, String msg) {
    return new Diagnostic(Severity.ERROR, code, file, at.line(), at.column(), path.toString(), msg);
  }

  public static Diagnostic warning(
      Code code, String file, Position at, FieldPath path, String msg) {
    return new Diagnostic(
        Severity.WARNING, code, file, at.line(), at.column(), path.toString(), msg);
  }

  public boolean isError() {
    return severity == Severity.ERROR;
  }

  /**
   * {@code file:line:col: error: path: message}, the form javac and gcc use; always one line. The
   * file name is {@linkplain Quoting#fileName quoted} when it could be misread, and hidden
   * characters in the path and message are {@linkplain Quoting#oneLine escaped}, so that no input
   * can print a second line or a forged diagnostic.
   */
  public String format() {
    StringBuilder out = new StringBuilder(Quoting.fileName(file));
    if (line > 0) {
      out.append(':').append(line);
      if (column > 0) {
        out.append(':').append(column);
      }
    }
    out.append(": ").append(severity.label()).append(": ");
    if (!path.isEmpty()) {
      out.append(Quoting.oneLine(path)).append(": ");
    }
    return out.append(Quoting.oneLine(message)).toString();
  }

  @Override
  public String toString() {
    return format();
  }
}
