package dev.jobc.model;

import dev.jobc.diag.Diagnostic;
import java.util.List;

/**
 * What a compilation produced: the objects in output order (empty when there is any error) and
 * every diagnostic, errors and warnings, in {@link Diagnostic#ORDER}.
 */
public record CompileResult(List<OutputObject> objects, List<Diagnostic> diagnostics) {
  public CompileResult {
    objects = List.copyOf(objects);
    diagnostics = List.copyOf(diagnostics);
  }

  /** True when no diagnostic is an error. */
  public boolean ok() {
    return diagnostics.stream().noneMatch(Diagnostic::isError);
  }

  /**
   * The objects as one YAML stream: documents separated by {@code ---} lines, empty when there are
   * none.
   */
  public String yaml() {
    StringBuilder out = new StringBuilder();
    for (OutputObject o : objects) {
      if (out.length() > 0) {
        out.append("---\n");
      }
      out.append(o.yaml());
    }
    return out.toString();
  }
}
