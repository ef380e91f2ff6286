package dev.jobc.load;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jobc.diag.Code;
import dev.jobc.diag.Diagnostic;
import dev.jobc.diag.FieldPath;
import dev.jobc.diag.Position;
import dev.jobc.diag.Quoting;
import dev.jobc.model.Source;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.yaml.snakeyaml.events.AliasEvent;
import org.yaml.snakeyaml.events.CollectionEndEvent;
import org.yaml.snakeyaml.events.CollectionStartEvent;
import org.yaml.snakeyaml.events.Event;
import org.yaml.snakeyaml.events.MappingStartEvent;
import org.yaml.snakeyaml.events.NodeEvent;
import org.yaml.snakeyaml.events.ScalarEvent;

/**
 * Reads YAML text into documents of Jackson trees, each with a {@link SourceIndex} of where its
 * keys and values are; the only class in jobc that composes YAML. Immutable and thread-safe.
 *
 * <p>Scalars are typed the way kubectl (sigs.k8s.io/yaml on go-yaml v3) types them ({@link
 * GoYamlScalars}): YAML 1.1's {@code yes/no/on/off/y/n} stay strings, as YAML 1.2 says. Every
 * problem, including input built to exhaust memory or time, becomes a {@link Diagnostic}; {@link
 * #load} never throws.
 *
 * <p>The events come from SnakeYAML's parser ({@link YamlEventReader}); composing them into trees
 * is done here because SnakeYAML's Composer shares one node for an anchor and its aliases (losing
 * the alias's position), stops the stream at the first error and has no per-document limits.
 */
public final class YamlLoader {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private final YamlLimits limits;

  public YamlLoader(YamlLimits limits) {
    this.limits = Objects.requireNonNull(limits, "limits");
  }

  /** Reads every document of {@code source}; problems are in the result, never thrown. */
  public LoadResult load(Source source) {
    return load(source, NodeBudget.unlimited());
  }

  /**
   * Reads every document of {@code source}, taking its nodes from {@code budget} (the run's, which
   * other sources share); problems are in the result, never thrown. When the budget runs out the
   * result says so ({@link LoadResult#outOfBudget}) and holds the error at the node where it did.
   */
  public LoadResult load(Source source, NodeBudget budget) {
    Objects.requireNonNull(source, "source");
    Run run = new Run(source, budget);
    try {
      run.readAll();
    } catch (RuntimeException | StackOverflowError e) {
      // no golden case: a defect of the loader (FuzzFindingsTest keeps the fuzzer's ones).
      run.diagnostics.add(
          Diagnostic.error(
              Code.INTERNAL,
              source.name(),
              Position.UNKNOWN,
              FieldPath.root(),
              "internal error while reading YAML (" + e + "); please report it"));
      return new LoadResult(List.of(), run.diagnostics, run.nodes, false);
    }
    return new LoadResult(run.documents, run.diagnostics, run.nodes, run.outOfBudget);
  }

  private static int saturatedAdd(int a, int b) {
    long sum = (long) a + b;
    return sum > Integer.MAX_VALUE ? Integer.MAX_VALUE : (int) sum;
  }

  /** One call of {@link #load}: all mutable state lives here. */
  private final class Run {
    final Source source;
    final NodeBudget budget;
    final String text;
    final List<Document> documents = new ArrayList<>();
    final List<Diagnostic> diagnostics = new ArrayList<>();
    final ScalarTyping scalars = new ScalarTyping(limits.maxNumberDigits(), this::fail);
    YamlEventReader events;
    DocumentState doc;

    /** For {@link #pathAt}: the code point offset to locate, or -1; and what is read there. */
    int boundary = -1;

    FieldPath reading = FieldPath.root();

    /** Nodes made so far, alias copies included; and alias events read. */
    long nodes;

    long aliases;

    long aliasNodes;

    /** Whether the run's budget ran out while reading this source. */
    boolean outOfBudget;

    Run(Source source, NodeBudget budget) {
      this.source = source;
      this.budget = budget;
      // SnakeYAML keeps a BOM read from a String as a character of line 1, shifting its columns.
      String t = source.text();
      this.text = t.startsWith("\uFEFF") ? t.substring(1) : t;
    }

    void readAll() {
      if (text.length() > limits.maxSourceChars()) {
        // no golden case: jobc render refuses a longer file before loading it (io.InputLimits,
        // the same 4,000,000 characters); YamlLoaderTest checks this limit.
        error(
            Code.LIMIT,
            YamlEventReader.offsetPosition(text, limits.maxSourceChars()),
            pathAt(limits.maxSourceChars()),
            "source is longer than " + limits.maxSourceChars() + " characters");
        return;
      }
      events = new YamlEventReader(text, saturatedAdd(limits.maxSourceChars(), 1));
      try {
        for (Event e = events.next(); e != null; e = events.next()) {
          readDocument(e);
        }
      } catch (YamlEventReader.SyntaxError e) {
        error(
            Code.SYNTAX,
            e.position(),
            e.badCharacter() ? FieldPath.root() : path(),
            e.getMessage());
      } catch (Stop e) {
        // A limit was reached and reported: nothing after it is read, not even to the end of its
        // document (scanning on through deep nesting alone takes quadratic time in SnakeYAML).
      }
    }

    /**
     * The field being read at {@code offset}, found by reading the text up to there (as much as any
     * accepted source): for a source that is too long, the field the limit falls in.
     */
    FieldPath pathAt(int offset) {
      int cut = Character.isLowSurrogate(text.charAt(offset)) ? offset - 1 : offset;
      Run prefix =
          new Run(new Source(source.name(), text.substring(0, cut)), NodeBudget.unlimited());
      prefix.boundary = text.codePointCount(0, cut);
      prefix.readAll();
      return prefix.reading;
    }

    /**
     * Follows what is being read, for {@link #pathAt}: once an event starts before {@link
     * #boundary}, {@link #reading} becomes {@code inside} when the event reaches the boundary, else
     * {@code after}.
     */
    void reached(Event event, FieldPath inside, FieldPath after) {
      if (boundary >= 0 && event.getStartMark().getIndex() < boundary) {
        reading = event.getEndMark().getIndex() >= boundary ? inside : after;
      }
    }

    /** The path of the innermost open container: where reading continues after a node. */
    FieldPath openPath() {
      return doc.frames.isEmpty() ? FieldPath.root() : doc.frames.peek().path;
    }

    void readDocument(Event first) throws YamlEventReader.SyntaxError {
      doc = new DocumentState(events.documents() - 1);
      Event e = first;
      while (true) {
        step(e);
        if (doc.complete) {
          break;
        }
        e = events.next();
        if (e == null) {
          throw new IllegalStateException("YAML event stream ended inside a document");
        }
      }
      DocumentState d = doc;
      doc = null;
      if (!d.failed && d.root != null && !d.root.isNull()) {
        documents.add(
            new Document(
                source, d.index, d.root, new SourceIndex(d.rootPosition, d.rootPositions)));
      }
    }

    /** Handles one event of a document that is still being built. */
    void step(Event event) throws YamlEventReader.SyntaxError {
      if (doc.frames.peek() instanceof MapFrame m
          && m.key == null
          && !(event instanceof CollectionEndEvent)) {
        if (!(event instanceof ScalarEvent key)) {
          // JSON keys are strings; go-yaml would accept these, kubectl's JSON would not.
          throw new YamlEventReader.SyntaxError(
              YamlEventReader.position(event),
              false,
              event instanceof AliasEvent
                  ? "aliases cannot be used as mapping keys"
                  : "mapping keys must be scalars (complex keys are not supported)");
        }
        fieldName(key);
      } else if (event instanceof CollectionStartEvent start) {
        startContainer(start);
      } else if (event instanceof CollectionEndEvent) {
        endContainer();
        if (!doc.complete) {
          reached(event, openPath(), openPath());
        }
      } else if (event instanceof AliasEvent alias) {
        alias(alias.getAnchor(), event);
      } else {
        ScalarEvent scalar = (ScalarEvent) event;
        FieldPath slot = slot();
        reached(event, slot, openPath());
        Position at = YamlEventReader.position(scalar);
        count(1, at, slot);
        JsonNode node = scalars.scalar(scalar, at, slot);
        defineAnchor(scalar, node, 0);
        attach(node, at, 0, null);
      }
    }

    void fieldName(ScalarEvent keyEvent) {
      MapFrame frame = (MapFrame) doc.frames.peek();
      Position at = YamlEventReader.position(keyEvent);
      boolean merge = MergeKeys.isMergeKey(keyEvent);
      String key = merge ? MergeKeys.KEY : keyString(keyEvent, at, frame);
      if (boundary >= 0) {
        // A key cut short by the boundary is no name to report; its mapping is.
        reached(keyEvent, frame.path, merge ? frame.path : childPath(frame, key));
      }
      frame.key = key;
      frame.keyAt = at;
      frame.merge = merge;
      frame.duplicate = false;
      // A key of this mapping is in its node once its value is read, and in its set of keys from
      // here on: one lookup both finds an earlier one and records this one.
      Position first = merge ? frame.mergeKeyPosition : frame.keys.putIfAbsent(key, at);
      if (first != null) {
        frame.duplicate = true;
        error(
            Code.DUPLICATE,
            at,
            childPath(frame, key),
            "duplicate key "
                + Quoting.quote(key)
                + (first != null && first.known()
                    ? " (first defined at line " + first.line() + ")"
                    : ""));
      } else if (merge) {
        frame.mergeKeyPosition = at;
        frame.merges = new MergeKeys(frame.node.size());
      }
    }

    /** The string a scalar key stands for: non-string scalars become their string form. */
    String keyString(ScalarEvent keyEvent, Position at, MapFrame frame) {
      JsonNode node = scalars.scalar(keyEvent, at, frame.path);
      defineAnchor(keyEvent, node, 0);
      if (node.isTextual()) {
        return node.textValue();
      }
      if (node.isNull()) {
        return "null";
      }
      if (node.isIntegralNumber()) {
        return node.bigIntegerValue().toString();
      }
      // Booleans print as true/false; floats keep their literal spelling.
      return node.isBoolean() ? node.asText() : keyEvent.getValue();
    }

    void startContainer(CollectionStartEvent event) {
      FieldPath slot = slot();
      Position at = YamlEventReader.position(event);
      reached(event, slot, slot);
      if (doc.frames.size() + 1 > limits.maxDepth()) {
        stop(at, slot, "nesting is deeper than " + limits.maxDepth() + " levels");
      }
      count(1, at, slot);
      boolean map = event instanceof MappingStartEvent;
      String tag = event.getTag();
      if (tag != null
          && !tag.equals("!")
          && !tag.equals(ScalarTyping.YAML_TAG + (map ? "map" : "seq"))) {
        scalars.tagError(tag, at, slot, map ? "a mapping" : "a list");
      }
      String anchor = event.getAnchor();
      if (anchor != null) {
        doc.openAnchors.merge(anchor, 1, Integer::sum);
      }
      Frame parent = doc.frames.peek();
      boolean mergeList = !map && parent instanceof MapFrame m && m.merge;
      doc.frames.push(
          map
              ? new MapFrame(slot, at, anchor, NODES.objectNode())
              : new ListFrame(slot, at, anchor, NODES.arrayNode(), mergeList));
    }

    void endContainer() {
      Frame frame = doc.frames.pop();
      JsonNode node;
      NodePositions positions = frame.positions;
      positions.trim();
      if (frame instanceof MapFrame m && m.merges != null && !m.merges.isEmpty()) {
        positions = NodePositions.mapping();
        node = m.merges.apply(m.node, m.positions, positions);
      } else {
        node = frame instanceof MapFrame m ? m.node : ((ListFrame) frame).node;
      }
      if (frame.anchor != null) {
        doc.openAnchors.computeIfPresent(frame.anchor, (k, n) -> n == 1 ? null : n - 1);
        doc.anchors.put(frame.anchor, new Anchor(node, frame.height));
      }
      attach(node, frame.position, frame.height, positions);
    }

    void alias(String name, Event event) {
      FieldPath slot = slot();
      Position at = YamlEventReader.position(event);
      reached(event, slot, openPath());
      if (++aliases > limits.maxAliases()) {
        stop(
            at,
            slot,
            "more than "
                + limits.maxAliases()
                + " aliases in one source; YAML alias bombs are rejected");
      }
      Anchor anchor = doc.anchors.get(name);
      if (doc.openAnchors.containsKey(name)) {
        fail(Code.SYNTAX, at, slot, "alias *" + name + " refers to a node that contains it");
        attach(NullNode.getInstance(), at, 0, null);
        return;
      }
      if (anchor == null) {
        fail(Code.SYNTAX, at, slot, "unknown alias *" + name + "; define &" + name + " first");
        attach(NullNode.getInstance(), at, 0, null);
        return;
      }
      long remaining = limits.maxAliasNodes() - aliasNodes;
      long size = countNodes(anchor.node, remaining + 1);
      if (size > remaining) {
        stop(
            at,
            slot,
            "alias expansion exceeds "
                + limits.maxAliasNodes()
                + " nodes in one source; YAML alias bombs are rejected");
      }
      if (doc.frames.size() + anchor.height > limits.maxDepth()) {
        stop(at, slot, "nesting is deeper than " + limits.maxDepth() + " levels");
      }
      aliasNodes += size;
      count(size, at, slot);
      JsonNode copy = anchor.node.deepCopy();
      attach(
          copy,
          at,
          anchor.height,
          copy.isContainerNode() ? NodePositions.uniform(NodePositions.pack(at)) : null);
    }

    /**
     * Takes {@code n} nodes from this source's limit and the run's budget, or stops reading with
     * the limit that ran out.
     */
    void count(long n, Position at, FieldPath path) {
      nodes += n;
      if (nodes > limits.maxNodes()) {
        // no golden case: it takes about 1 MB of input (alias copies stop at maxAliasNodes), a
        // seed that would raise libFuzzer's max_len for every fuzz target (GoldenSeeds);
        // BudgetTest.aSourcePastItsOwnNodeLimitStopsThere holds it with smaller limits.
        stop(
            at,
            path,
            "more than "
                + limits.maxNodes()
                + " YAML nodes in one source (aliases expanded); split it into smaller files");
      }
      if (!budget.take(n)) {
        outOfBudget = true;
        // no golden case: a case is one input file, and one source stops at maxNodes above
        // (Budget.SOURCE_NODES), half the run's budget; BudgetTest holds this with smaller limits.
        stop(
            at,
            path,
            "the inputs hold more than "
                + budget.total()
                + " YAML nodes together (aliases expanded), the limit for one run; render fewer"
                + " files at a time");
      }
    }

    /**
     * Adds a finished node to its parent, or makes it the document's root.
     *
     * @param positions the positions of the node's children when it is a container, else null
     */
    void attach(JsonNode node, Position at, int height, NodePositions positions) {
      Frame parent = doc.frames.peek();
      if (parent == null) {
        doc.root = node;
        doc.rootPosition = at;
        doc.rootPositions = positions;
        doc.complete = true;
        return;
      }
      parent.height = Math.max(parent.height, height + 1);
      long valueAt = NodePositions.pack(at);
      if (parent instanceof ListFrame l) {
        l.node.add(node);
        l.positions.add(null, -1L, valueAt, positions);
        return;
      }
      MapFrame m = (MapFrame) parent;
      if (m.duplicate) {
        // The first value stays (its positions are the ones indexed).
      } else if (m.merge) {
        if (!m.merges.add(node, positions)) {
          fail(Code.SYNTAX, at, m.path, MergeKeys.BAD_VALUE);
        }
      } else {
        m.node.set(m.key, node);
        m.positions.add(m.key, NodePositions.pack(m.keyAt), valueAt, positions);
      }
      m.key = null;
      m.merge = false;
      m.duplicate = false;
    }

    /** The field path of the next value. */
    FieldPath slot() {
      Frame parent = doc.frames.peek();
      if (parent == null) {
        return FieldPath.root();
      }
      if (parent instanceof ListFrame l) {
        return l.mergeList ? l.path : l.path.index(l.node.size());
      }
      MapFrame m = (MapFrame) parent;
      return m.merge ? m.path : childPath(m, m.key);
    }

    void defineAnchor(NodeEvent event, JsonNode node, int height) {
      if (event.getAnchor() != null) {
        doc.anchors.put(event.getAnchor(), new Anchor(node, height));
      }
    }

    // --- diagnostics -------------------------------------------------------------------------

    /** Reports a limit reached and stops reading the source: nothing after it is read. */
    void stop(Position at, FieldPath path, String message) {
      error(Code.LIMIT, at, path, message);
      throw new Stop();
    }

    /** Reports an error about one node and returns a placeholder for it. */
    JsonNode fail(Code code, Position at, FieldPath path, String message) {
      error(code, at, path, message);
      if (doc != null) {
        doc.failed = true;
      }
      return NullNode.getInstance();
    }

    void error(Code code, Position at, FieldPath path, String message) {
      diagnostics.add(Diagnostic.error(code, source.name(), at, path, message));
    }

    /**
     * The field path of what was being read, for parse errors: the value of the last key when a
     * mapping has one pending (a tab after {@code metadata:} is in metadata's value), else the
     * innermost open container.
     */
    FieldPath path() {
      if (doc == null || doc.frames.isEmpty()) {
        return FieldPath.root();
      }
      Frame top = doc.frames.peek();
      if (top instanceof MapFrame m && m.key != null && !m.merge) {
        return childPath(m, m.key);
      }
      return top.path;
    }
  }

  // --- helpers ---------------------------------------------------------------------------------

  /** Counts nodes of a tree, stopping once {@code stop} is reached (bounded work for bombs). */
  private static long countNodes(JsonNode node, long stop) {
    long count = 1;
    if (node.isContainerNode()) {
      for (JsonNode child : node) {
        if (count >= stop) {
          return count;
        }
        count += countNodes(child, stop - count);
      }
    }
    return count;
  }

  /** Field path of entry {@code key} of a mapping, with FieldPath.fromPointer's key/field rule. */
  private static FieldPath childPath(MapFrame frame, String key) {
    return frame.keysAreMapKeys ? frame.path.key(key) : frame.path.child(key);
  }

  // --- state -----------------------------------------------------------------------------------

  private record Anchor(JsonNode node, int height) {}

  /** Reading a source stops here: a limit was reached and reported. */
  private static final class Stop extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Stop() {
      super(null, null, false, false);
    }
  }

  private abstract static class Frame {
    /** Where this container's children are, in its order. */
    final NodePositions positions;

    final FieldPath path;
    final Position position;
    final String anchor;
    int height = 1;

    Frame(NodePositions positions, FieldPath path, Position position, String anchor) {
      this.positions = positions;
      this.path = path;
      this.position = position;
      this.anchor = anchor;
    }
  }

  private static final class MapFrame extends Frame {
    final ObjectNode node;

    /** Whether the keys of this mapping print as {@code field[key]} (see {@link #childPath}). */
    final boolean keysAreMapKeys;

    /** Every key read so far, with its position, for duplicates. */
    final Map<String, Position> keys = new HashMap<>();

    String key;
    Position keyAt;
    boolean merge;
    boolean duplicate;
    Position mergeKeyPosition;
    MergeKeys merges;

    MapFrame(FieldPath path, Position position, String anchor, ObjectNode node) {
      super(NodePositions.mapping(), path, position, anchor);
      this.node = node;
      this.keysAreMapKeys =
          path.last() instanceof FieldPath.Field f && FieldPath.MAP_FIELDS.contains(f.name());
    }
  }

  private static final class ListFrame extends Frame {
    final ArrayNode node;
    final boolean mergeList;

    ListFrame(FieldPath path, Position position, String anchor, ArrayNode node, boolean mergeList) {
      super(NodePositions.list(), path, position, anchor);
      this.node = node;
      this.mergeList = mergeList;
    }
  }

  private static final class DocumentState {
    final int index;
    final Deque<Frame> frames = new ArrayDeque<>();
    final Map<String, Anchor> anchors = new HashMap<>();
    final Map<String, Integer> openAnchors = new HashMap<>();
    JsonNode root;
    Position rootPosition = Position.UNKNOWN;
    NodePositions rootPositions;
    boolean complete;
    boolean failed;

    DocumentState(int index) {
      this.index = index;
    }
  }
}
