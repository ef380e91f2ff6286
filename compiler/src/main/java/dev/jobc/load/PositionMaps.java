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
  final Map<String, Position> keys = new HashMap<>();
  final Map<String, Position> values = new HashMap<>();
}
