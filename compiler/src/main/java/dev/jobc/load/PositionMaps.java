package dev.jobc.load;

import dev.jobc.diag.Position;
import java.util.HashMap;
import java.util.Map;

/**
 * The two halves of a {@link SourceIndex} while they are being filled: JSON pointer → position of a
 * mapping entry's key, and of any node. One per document, plus one per merge value (indexed
 * relative to itself until {@link MergeKeys} moves the winning entries into their mapping's).
 */
final class PositionMaps {
  final Map<String, Position> keys;
  final Map<String, Position> values;

  PositionMaps() {
    keys = new HashMap<>();
    values = new HashMap<>();
  }

  /** Maps that hold about {@code expectedNodes} nodes without growing. */
  PositionMaps(int expectedNodes) {
    int capacity = (int) (expectedNodes / 0.75f) + 1;
    keys = new HashMap<>(capacity);
    values = new HashMap<>(capacity);
  }
}
