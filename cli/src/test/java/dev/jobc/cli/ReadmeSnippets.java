package dev.jobc.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The README's copy-paste snippets, so that tests run exactly what users copy. A snippet is the
 * fenced block right after a line {@code <!-- snippet: NAME -->}.
 */
final class ReadmeSnippets {
  private ReadmeSnippets() {}

  /** The body of snippet {@code name}, ending in a newline. */
  static String get(Path readme, String name) {
    List<String> lines;
    try {
      lines = Files.readAllLines(readme, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    String marker = "<!-- snippet: " + name + " -->";
    int at = lines.indexOf(marker);
    if (at < 0 || at + 1 >= lines.size() || !lines.get(at + 1).startsWith("```")) {
      throw new AssertionError(readme + ": no fenced block after " + marker);
    }
    StringBuilder body = new StringBuilder();
    for (int i = at + 2; i < lines.size(); i++) {
      if (lines.get(i).startsWith("```")) {
        return body.toString();
      }
      body.append(lines.get(i)).append('\n');
    }
    throw new AssertionError(readme + ": unterminated block after " + marker);
  }

  /** Snippet {@code name} of the repository's README.md. */
  static String get(String name) {
    return get(ExternalCommand.root().resolve("README.md"), name);
  }
}
