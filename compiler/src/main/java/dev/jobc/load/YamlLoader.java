package dev.jobc.load;

import com.fasterxml.jackson.core.JsonPointer;
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
import java.util.Iterator;
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
    Objects.requireNonNull(source, "source");
    Run run = new Run(source);
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
      return new LoadResult(List.of(), run.diagnostics);
    }
    return new LoadResult(run.documents, run.diagnostics);
  }

  private static int saturatedAdd(int a, int b) {
    long sum = (long) a + b;
    return sum > Integer.MAX_VALUE ? Integer.MAX_VALUE : (int) sum;
  }

  /** One call of {@link #load}: all mutable state lives here. */
  private final class Run {
    final Source source;
    final String text;
    final List<Document> documents = new ArrayList<>();
    final List<Diagnostic> diagnostics = new ArrayList<>();
    final ScalarTyping scalars = new ScalarTyping(limits.maxNumberDigits(), this::fail);
    YamlEventReader events;
    DocumentState doc;

    /** For {@link #pathAt}: the code point offset to locate, or -1; and what is read there. */
    int boundary = -1;

    FieldPath reading = FieldPath.root();

    Run(Source source) {
      this.source = source;
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
        // After a LIMIT, the rest of a document is only skipped; the LIMIT said what is wrong.
        if (doc == null || !doc.aborted) {
          error(
              Code.SYNTAX,
              e.position(),
              e.badCharacter() ? FieldPath.root() : path(),
              e.getMessage());
        }
      }
    }

    /**
     * The field being read at {@code offset}, found by reading the text up to there (as much as any
     * accepted source): for a source that is too long, the field the limit falls in.
     */
    FieldPath pathAt(int offset) {
      int cut = Character.isLowSurrogate(text.charAt(offset)) ? offset - 1 : offset;
      Run prefix = new Run(new Source(source.name(), text.substring(0, cut)));
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
      doc = new DocumentState(events.documents() - 1, text.length());
      Event e = first;
      while (true) {
        if (doc.aborted) {
          if (e instanceof CollectionStartEvent) {
            doc.skipOpen++;
          } else if (e instanceof CollectionEndEvent) {
            doc.skipOpen--;
          }
        } else {
          step(e);
        }
        if (doc.aborted ? doc.skipOpen == 0 : doc.complete) {
          break;
        }
        e = events.next();
        if (e == null) {
          throw new IllegalStateException("YAML event stream ended inside a document");
        }
      }
      DocumentState d = doc;
      doc = null;
      if (!d.aborted && !d.failed && d.root != null && !d.root.isNull()) {
        documents.add(
            new Document(source, d.index, d.root, new SourceIndex(d.rootPosition, d.positions)));
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
        Slot slot = slot();
        reached(event, slot.path, openPath());
        Position at = YamlEventReader.position(scalar);
        JsonNode node = scalars.scalar(scalar, at, slot.path);
        defineAnchor(scalar, node, 0);
        slot.positions.values.put(slot.pointer, at);
        attach(node, at, 0);
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
      frame.merge = merge;
      frame.duplicate = false;
      frame.keyPointer = merge ? null : childPointer(frame, key);
      // A key of this mapping is in its node once its value is read, and its pointer in the key
      // index from here on: one lookup both finds an earlier one and records this one.
      Position first =
          merge ? frame.mergeKeyPosition : frame.positions.keys.putIfAbsent(frame.keyPointer, at);
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
      Slot slot = slot();
      Position at = YamlEventReader.position(event);
      reached(event, slot.path, slot.path);
      if (doc.frames.size() + 1 > limits.maxDepth()) {
        abort(at, slot.path, "nesting is deeper than " + limits.maxDepth() + " levels", 1);
        return;
      }
      boolean map = event instanceof MappingStartEvent;
      String tag = event.getTag();
      if (tag != null
          && !tag.equals("!")
          && !tag.equals(ScalarTyping.YAML_TAG + (map ? "map" : "seq"))) {
        scalars.tagError(tag, at, slot.path, map ? "a mapping" : "a list");
      }
      String anchor = event.getAnchor();
      if (anchor != null) {
        doc.openAnchors.merge(anchor, 1, Integer::sum);
      }
      slot.positions.values.put(slot.pointer, at);
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
      if (frame instanceof MapFrame m) {
        node =
            m.merges == null || m.merges.isEmpty()
                ? m.node
                : m.merges.apply(m.node, m.pointer, m.positions);
      } else {
        node = ((ListFrame) frame).node;
      }
      if (frame.anchor != null) {
        doc.openAnchors.computeIfPresent(frame.anchor, (k, n) -> n == 1 ? null : n - 1);
        doc.anchors.put(frame.anchor, new Anchor(node, frame.height));
      }
      attach(node, frame.position, frame.height);
    }

    void alias(String name, Event event) {
      Slot slot = slot();
      Position at = YamlEventReader.position(event);
      reached(event, slot.path, openPath());
      Anchor anchor = doc.anchors.get(name);
      if (doc.openAnchors.containsKey(name)) {
        fail(Code.SYNTAX, at, slot.path, "alias *" + name + " refers to a node that contains it");
        attach(NullNode.getInstance(), at, 0);
        return;
      }
      if (anchor == null) {
        fail(Code.SYNTAX, at, slot.path, "unknown alias *" + name + "; define &" + name + " first");
        attach(NullNode.getInstance(), at, 0);
        return;
      }
      long remaining = (long) limits.maxAliasNodes() - doc.aliasNodes;
      long size = countNodes(anchor.node, remaining + 1);
      if (size > remaining) {
        abort(
            at,
            slot.path,
            "alias expansion exceeds "
                + limits.maxAliasNodes()
                + " nodes; YAML alias bombs are rejected",
            0);
        return;
      }
      if (doc.frames.size() + anchor.height > limits.maxDepth()) {
        abort(at, slot.path, "nesting is deeper than " + limits.maxDepth() + " levels", 0);
        return;
      }
      doc.aliasNodes += size;
      JsonNode copy = anchor.node.deepCopy();
      indexCopy(copy, slot.pointer, slot.positions, at);
      attach(copy, at, anchor.height);
    }

    /** Adds a finished node to its parent, or makes it the document's root. */
    void attach(JsonNode node, Position at, int height) {
      Frame parent = doc.frames.peek();
      if (parent == null) {
        doc.root = node;
        doc.rootPosition = at;
        doc.complete = true;
        return;
      }
      parent.height = Math.max(parent.height, height + 1);
      if (parent instanceof ListFrame l) {
        l.node.add(node);
        return;
      }
      MapFrame m = (MapFrame) parent;
      if (m.duplicate) {
        // The first value stays (its positions are the ones indexed).
      } else if (m.merge) {
        if (!m.merges.add(node, m.mergeValueSlot.positions)) {
          fail(Code.SYNTAX, at, m.path, MergeKeys.BAD_VALUE);
        }
      } else {
        m.node.set(m.key, node);
      }
      m.key = null;
      m.merge = false;
      m.duplicate = false;
    }

    /** Where the next value goes: its pointer, the index it is recorded in, and its field path. */
    Slot slot() {
      Frame parent = doc.frames.peek();
      if (parent == null) {
        return new Slot("", doc.positions, FieldPath.root());
      }
      if (parent instanceof ListFrame l) {
        String pointer = parent.pointer + "/" + l.node.size();
        return new Slot(
            pointer, parent.positions, l.mergeList ? l.path : l.path.index(l.node.size()));
      }
      MapFrame m = (MapFrame) parent;
      if (m.duplicate) {
        // Parsed for its diagnostics, then dropped: index it nowhere that matters.
        return new Slot("", new PositionMaps(), childPath(m, m.key));
      }
      if (m.merge) {
        // A merge value is indexed apart (pointers relative to it) and remapped once merged.
        Slot s = new Slot("", new PositionMaps(), m.path);
        m.mergeValueSlot = s;
        return s;
      }
      return new Slot(m.keyPointer, parent.positions, childPath(m, m.key));
    }

    void defineAnchor(NodeEvent event, JsonNode node, int height) {
      if (event.getAnchor() != null) {
        doc.anchors.put(event.getAnchor(), new Anchor(node, height));
      }
    }

    // --- diagnostics -------------------------------------------------------------------------

    /** Reports an error that leaves the document incomplete: the rest of it is only skipped. */
    void abort(Position at, FieldPath path, String message, int opened) {
      error(Code.LIMIT, at, path, message);
      doc.aborted = true;
      doc.skipOpen = doc.frames.size() + opened;
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

  /** Indexes a copy made by alias expansion: every node in it is at the alias. */
  private static void indexCopy(JsonNode node, String pointer, PositionMaps index, Position at) {
    index.values.put(pointer, at);
    if (node.isObject()) {
      Iterator<String> names = node.fieldNames();
      while (names.hasNext()) {
        String name = names.next();
        String child = pointer + segment(name);
        index.keys.put(child, at);
        indexCopy(node.get(name), child, index, at);
      }
    } else if (node.isArray()) {
      for (int i = 0; i < node.size(); i++) {
        indexCopy(node.get(i), pointer + "/" + i, index, at);
      }
    }
  }

  /** Field path of entry {@code key} of a mapping, with FieldPath.fromPointer's key/field rule. */
  private static FieldPath childPath(MapFrame frame, String key) {
    return frame.keysAreMapKeys ? frame.path.key(key) : frame.path.child(key);
  }

  private static String childPointer(MapFrame frame, String key) {
    // One concatenation for the usual key (runs once per key read).
    return plainSegment(key) ? frame.pointer + "/" + key : frame.pointer + segment(key);
  }

  /**
   * {@code key} as one JSON pointer segment, {@code "/" + key}; JsonPointer escapes the rare key
   * with '~' or '/' (concatenation, not JsonPointer, for the rest: this runs once per key read).
   */
  private static String segment(String key) {
    return plainSegment(key) ? "/" + key : JsonPointer.empty().appendProperty(key).toString();
  }

  /** Whether {@code key} needs no escape in a JSON pointer: no '~' and no '/'. */
  private static boolean plainSegment(String key) {
    for (int i = 0; i < key.length(); i++) {
      char c = key.charAt(i);
      if (c == '~' || c == '/') {
        return false;
      }
    }
    return true;
  }

  // --- state -----------------------------------------------------------------------------------

  private record Slot(String pointer, PositionMaps positions, FieldPath path) {}

  private record Anchor(JsonNode node, int height) {}

  private abstract static class Frame {
    final String pointer;
    final PositionMaps positions;
    final FieldPath path;
    final Position position;
    final String anchor;
    int height = 1;

    Frame(Slot slot, Position position, String anchor) {
      this.pointer = slot.pointer();
      this.positions = slot.positions();
      this.path = slot.path();
      this.position = position;
      this.anchor = anchor;
    }
  }

  private static final class MapFrame extends Frame {
    final ObjectNode node;

    /** Whether the keys of this mapping print as {@code field[key]} (see {@link #childPath}). */
    final boolean keysAreMapKeys;

    String key;

    /** The pointer of {@link #key}'s entry; null for a merge key. */
    String keyPointer;

    boolean merge;
    boolean duplicate;
    Position mergeKeyPosition;
    MergeKeys merges;
    Slot mergeValueSlot;

    MapFrame(Slot slot, Position position, String anchor, ObjectNode node) {
      super(slot, position, anchor);
      this.node = node;
      this.keysAreMapKeys =
          path.last() instanceof FieldPath.Field f && FieldPath.MAP_FIELDS.contains(f.name());
    }
  }

  private static final class ListFrame extends Frame {
    final ArrayNode node;
    final boolean mergeList;

    ListFrame(Slot slot, Position position, String anchor, ArrayNode node, boolean mergeList) {
      super(slot, position, anchor);
      this.node = node;
      this.mergeList = mergeList;
    }
  }

  private static final class DocumentState {
    final int index;
    final PositionMaps positions;
    final Deque<Frame> frames = new ArrayDeque<>();
    final Map<String, Anchor> anchors = new HashMap<>();
    final Map<String, Integer> openAnchors = new HashMap<>();
    long aliasNodes;
    JsonNode root;
    Position rootPosition = Position.UNKNOWN;
    boolean complete;
    boolean failed;
    boolean aborted;
    int skipOpen;

    DocumentState(int index, int textLength) {
      this.index = index;
      // About one node per 16 characters of YAML: sized so that the index is rarely rehashed.
      this.positions = new PositionMaps(Math.min(Math.max(textLength / 16, 16), 1024));
    }
  }
}
