package dev.jobc.cli;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The documentation's copy-paste snippets, so that tests run exactly what users copy. A snippet is
 * the fenced block right after a line {@code <!-- snippet: NAME -->}, on any page of {@link
 * DocPages} (README.md or docs/). A snippet may be shown on several pages (the README shows one per
 * channel, its channel page again): every copy must be the same text.
 */
final class DocSnippets {
  private static final String PREFIX = "snippet:";

  private DocSnippets() {}

  /** The body of snippet {@code name} of the repository's documentation, ending in a newline. */
  static String get(String name) {
    return get(DocPages.read(), name);
  }

  /** The body of snippet {@code name} of {@code docs}, ending in a newline. */
  static String get(DocPages docs, String name) {
    List<DocPages.Block> copies = all(docs).get(name);
    if (copies == null) {
      throw new AssertionError(
          "no fenced block after <!-- snippet: " + name + " --> in README.md or docs/");
    }
    for (DocPages.Block copy : copies) {
      if (!copy.body().equals(copies.get(0).body())) {
        throw new AssertionError(
            "snippet "
                + name
                + " differs between "
                + copies.get(0).at()
                + " and "
                + copy.at()
                + "; every copy must be the same");
      }
    }
    return copies.get(0).body();
  }

  /** Every snippet by name, each with its copies in page order. */
  static Map<String, List<DocPages.Block>> all(DocPages docs) {
    Map<String, List<DocPages.Block>> all = new TreeMap<>();
    for (DocPages.Block block : docs.blocks()) {
      if (block.marker() != null && block.marker().startsWith(PREFIX)) {
        String name = block.marker().substring(PREFIX.length()).strip();
        all.computeIfAbsent(name, n -> new java.util.ArrayList<>()).add(block);
      }
    }
    return all;
  }
}
