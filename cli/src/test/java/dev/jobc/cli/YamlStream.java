package dev.jobc.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jobc.diag.Diagnostic;
import dev.jobc.load.Document;
import dev.jobc.load.LoadResult;
import dev.jobc.load.YamlLimits;
import dev.jobc.load.YamlLoader;
import dev.jobc.model.Source;
import java.util.List;

/** Parses tool output as a YAML (or JSON) stream, as Argo CD and kubectl do. */
final class YamlStream {
  private YamlStream() {}

  /** Every document, failing the test when the text does not load. */
  static List<JsonNode> parse(String text) {
    LoadResult loaded = new YamlLoader(YamlLimits.defaults()).load(new Source("output", text));
    if (!loaded.ok()) {
      throw new AssertionError(
          "output is not a YAML stream: "
              + loaded.diagnostics().stream().map(Diagnostic::format).toList()
              + "\n"
              + text);
    }
    return loaded.documents().stream().map(Document::root).toList();
  }

  /** {@code Kind/name} of each object, in stream order. */
  static List<String> ids(String text) {
    return parse(text).stream()
        .map(d -> d.path("kind").asText() + "/" + d.path("metadata").path("name").asText())
        .toList();
  }
}
