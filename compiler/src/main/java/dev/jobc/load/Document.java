package dev.jobc.load;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jobc.model.Source;
import java.util.Objects;

/**
 * One YAML document of a source: its tree and where each node came from. {@code index} is the
 * 0-based position of the document in the stream.
 */
public record Document(Source source, int index, JsonNode root, SourceIndex positions) {
  public Document {
    Objects.requireNonNull(source, "source");
    Objects.requireNonNull(root, "root");
    Objects.requireNonNull(positions, "positions");
  }
}
