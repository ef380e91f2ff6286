package dev.jobc.load;

import dev.jobc.diag.Diagnostic;
import java.util.List;

/**
 * What {@link YamlLoader#load} read from one source: its non-empty documents in stream order, and
 * every problem found.
 *
 * <p>A document whose reading produced an error is left out of {@code documents}, with one
 * exception: a document with duplicate keys (and no other error) is kept, with the first value of
 * each duplicated key, so that later steps can still report their own errors about it.
 *
 * @param nodes the YAML nodes made, aliases' copies included
 * @param outOfBudget whether reading stopped because the run's {@link NodeBudget} ran out
 */
public record LoadResult(
    List<Document> documents, List<Diagnostic> diagnostics, long nodes, boolean outOfBudget) {
  public LoadResult {
    documents = List.copyOf(documents);
    diagnostics = List.copyOf(diagnostics);
  }

  /** True when no diagnostic is an error. */
  public boolean ok() {
    return diagnostics.stream().noneMatch(Diagnostic::isError);
  }
}
