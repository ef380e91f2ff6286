package dev.jobc.load;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.ObjectCodec;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.core.io.IOContext;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.BigIntegerNode;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.LongNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactoryBuilder;
import com.fasterxml.jackson.dataformat.yaml.YAMLParser;
import dev.jobc.diag.Code;
import dev.jobc.diag.Diagnostic;
import dev.jobc.diag.FieldPath;
import dev.jobc.diag.Position;
import dev.jobc.diag.Quoting;
import dev.jobc.model.Source;
import java.io.IOException;
import java.io.Reader;
import java.io.StringReader;
import java.math.BigInteger;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.events.AliasEvent;
import org.yaml.snakeyaml.events.CollectionStartEvent;
import org.yaml.snakeyaml.events.Event;
import org.yaml.snakeyaml.events.NodeEvent;
import org.yaml.snakeyaml.events.ScalarEvent;
import org.yaml.snakeyaml.reader.ReaderException;

/**
 * Reads YAML text into documents of Jackson trees, each with a {@link SourceIndex} of where its
 * keys and values are; the only class in jobc that parses YAML. Immutable and thread-safe.
 *
 * <p>Scalars are typed the way kubectl (sigs.k8s.io/yaml on go-yaml) types them, with one
 * deliberate difference: YAML 1.1's {@code yes/no/on/off/y/n} stay strings, as YAML 1.2 says. Every
 * problem, including input built to exhaust memory or time, becomes a {@link Diagnostic}; {@link
 * #load} never throws.
 */
public final class YamlLoader {
  private static final String YAML_TAG = "tag:yaml.org,2002:";
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  // YAML 1.2 core schema words, which go-yaml also reads this way. YAML 1.1 adds yes/no/on/off/y/n
  // as booleans (go-yaml v2, hence kubectl, reads them so); jobc keeps them strings like YAML 1.2
  // and render.YamlWriter quotes them, so output means the same to readers of either version.
  private static final Set<String> NULLS = Set.of("", "~", "null", "Null", "NULL");
  private static final Set<String> TRUES = Set.of("true", "True", "TRUE");
  private static final Set<String> FALSES = Set.of("false", "False", "FALSE");
  private static final Set<String> NON_FINITE =
      Set.of(
          ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF", "-.inf", "-.Inf", "-.INF", ".nan",
          ".NaN", ".NAN");

  private final YamlLimits limits;
  private final EventFactory factory;

  public YamlLoader(YamlLimits limits) {
    this.limits = Objects.requireNonNull(limits, "limits");
    // SnakeYAML's own limits guard its reader; nesting and alias limits are enforced by SnakeYAML's
    // Composer only, which Jackson does not use, so this class counts both itself (set anyway as a
    // backstop should Jackson start composing).
    LoaderOptions options = new LoaderOptions();
    options.setCodePointLimit(saturatedAdd(limits.maxSourceChars(), 1));
    options.setNestingDepthLimit(limits.maxDepth());
    options.setMaxAliasesForCollections(Math.max(1, limits.maxAliasNodes()));
    options.setAllowDuplicateKeys(false);
    options.setProcessComments(false);
    // Jackson's nesting check sits above ours, so that ours reports first (with a position) and a
    // too-deep document can still be skipped to reach the next one.
    StreamReadConstraints constraints =
        StreamReadConstraints.builder()
            .maxNestingDepth(limits.maxDepth() + 1_000)
            .maxDocumentLength(saturatedAdd(limits.maxSourceChars(), 1))
            .maxStringLength(saturatedAdd(limits.maxSourceChars(), 1))
            .maxNameLength(saturatedAdd(limits.maxSourceChars(), 1))
            .maxNumberLength(limits.maxNumberDigits() + 16)
            .build();
    this.factory =
        new EventFactory(
            YAMLFactory.builder()
                .loaderOptions(options)
                .streamReadConstraints(constraints)
                // Duplicates are reported here, all of them and with both positions.
                .disable(StreamReadFeature.STRICT_DUPLICATE_DETECTION));
  }

  /** Reads every document of {@code source}; problems are in the result, never thrown. */
  public LoadResult load(Source source) {
    Objects.requireNonNull(source, "source");
    Run run = new Run(source);
    try {
      run.readAll();
    } catch (RuntimeException | StackOverflowError e) {
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
    EventParser parser;
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
        error(
            Code.LIMIT,
            offsetPosition(limits.maxSourceChars()),
            pathAt(limits.maxSourceChars()),
            "source is longer than " + limits.maxSourceChars() + " characters");
        return;
      }
      try (EventParser p = factory.open(text)) {
        parser = p;
        for (JsonToken t = p.nextToken(); t != null; t = p.nextToken()) {
          readDocument(t);
        }
      } catch (IOException e) {
        // After a LIMIT, the rest of a document is only skipped; if even skipping fails (Jackson's
        // own nesting limit on absurdly deep input), the LIMIT already said what is wrong.
        if (doc == null || !doc.aborted) {
          parseError(e);
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

    void readDocument(JsonToken first) throws IOException {
      doc = new DocumentState(parser.documents - 1);
      JsonToken t = first;
      while (true) {
        if (doc.aborted) {
          if (t.isStructStart()) {
            doc.skipOpen++;
          } else if (t.isStructEnd()) {
            doc.skipOpen--;
          }
        } else {
          step(t);
        }
        if (doc.aborted ? doc.skipOpen == 0 : doc.complete) {
          break;
        }
        t = parser.nextToken();
        if (t == null) {
          throw new IllegalStateException("YAML event stream ended inside a document");
        }
      }
      DocumentState d = doc;
      doc = null;
      if (!d.aborted && !d.failed && d.root != null && !d.root.isNull()) {
        Position start = d.rootPosition;
        documents.add(
            new Document(
                source, d.index, d.root, new SourceIndex(start, d.sink.keys, d.sink.values)));
      }
    }

    /** Handles one token of a document that is still being built. */
    void step(JsonToken t) throws IOException {
      Event event = parser.last;
      switch (t) {
        case FIELD_NAME -> fieldName((ScalarEvent) event);
        case START_OBJECT, START_ARRAY -> startContainer(t, (CollectionStartEvent) event);
        case END_OBJECT, END_ARRAY -> {
          endContainer();
          if (!doc.complete) {
            reached(event, openPath(), openPath());
          }
        }
        case VALUE_STRING -> {
          if (parser.isCurrentAlias()) {
            alias(parser.getText(), event);
          } else {
            ScalarEvent scalar = (ScalarEvent) event;
            Slot slot = slot();
            reached(event, slot.path, openPath());
            Position at = position(scalar);
            JsonNode node = scalar(scalar, at, slot.path);
            defineAnchor(scalar, node, 0);
            slot.sink.values.put(slot.pointer, at);
            attach(node, at, 0);
          }
        }
        default -> throw new IllegalStateException("unexpected token " + t + " for " + event);
      }
    }

    void fieldName(ScalarEvent keyEvent) {
      MapFrame frame = (MapFrame) doc.frames.peek();
      Position at = position(keyEvent);
      // go-yaml treats a plain "<<" key as a merge key (YAML 1.1 merge type); quoted it is a key.
      boolean merge =
          keyEvent.isPlain() && keyEvent.getTag() == null && "<<".equals(keyEvent.getValue());
      String key = merge ? "<<" : keyString(keyEvent, at, frame);
      // A key cut short by the boundary is no name to report; its mapping is.
      reached(keyEvent, frame.path, merge ? frame.path : childPath(frame, key));
      frame.key = key;
      frame.merge = merge;
      frame.duplicate = false;
      String pointer = frame.pointer + "/" + escape(key);
      boolean seen = merge ? frame.mergeKeyPosition != null : frame.node.has(key);
      if (seen) {
        Position first = merge ? frame.mergeKeyPosition : frame.sink.keys.get(pointer);
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
        frame.mergeSlot = frame.node.size();
      } else {
        frame.sink.keys.put(pointer, at);
      }
    }

    /** The string a scalar key stands for: non-string scalars become their string form. */
    String keyString(ScalarEvent keyEvent, Position at, MapFrame frame) {
      JsonNode node = scalar(keyEvent, at, frame.path);
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

    void startContainer(JsonToken t, CollectionStartEvent event) {
      Slot slot = slot();
      Position at = position(event);
      reached(event, slot.path, slot.path);
      if (doc.frames.size() + 1 > limits.maxDepth()) {
        abort(at, slot.path, "nesting is deeper than " + limits.maxDepth() + " levels", 1);
        return;
      }
      boolean map = t == JsonToken.START_OBJECT;
      String tag = event.getTag();
      if (tag != null && !tag.equals("!") && !tag.equals(YAML_TAG + (map ? "map" : "seq"))) {
        tagError(tag, at, slot.path, map ? "a mapping" : "a list");
      }
      String anchor = event.getAnchor();
      if (anchor != null) {
        doc.openAnchors.merge(anchor, 1, Integer::sum);
      }
      slot.sink.values.put(slot.pointer, at);
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
        node = m.merges.isEmpty() ? m.node : applyMerges(m);
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
      Position at = position(event);
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
      indexCopy(copy, slot.pointer, slot.sink, at);
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
        addMerge(m, node, at, m.mergeValueSlot);
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
        return new Slot("", doc.sink, FieldPath.root());
      }
      if (parent instanceof ListFrame l) {
        String pointer = parent.pointer + "/" + l.node.size();
        return new Slot(pointer, parent.sink, l.mergeList ? l.path : l.path.index(l.node.size()));
      }
      MapFrame m = (MapFrame) parent;
      if (m.duplicate) {
        // Parsed for its diagnostics, then dropped: index it nowhere that matters.
        return new Slot("", new Sink(), childPath(m, m.key));
      }
      if (m.merge) {
        // A merge value is indexed apart (pointers relative to it) and remapped once merged.
        Slot s = new Slot("", new Sink(), m.path);
        m.mergeValueSlot = s;
        return s;
      }
      return new Slot(parent.pointer + "/" + escape(m.key), parent.sink, childPath(m, m.key));
    }

    // --- merge keys --------------------------------------------------------------------------

    void addMerge(MapFrame m, JsonNode value, Position at, Slot slot) {
      if (value instanceof ObjectNode o) {
        m.merges.add(new MergeValue(List.of(o), false, slot.sink));
        return;
      }
      if (value instanceof ArrayNode a) {
        List<ObjectNode> maps = new ArrayList<>();
        for (JsonNode element : a) {
          if (!(element instanceof ObjectNode o)) {
            maps = null;
            break;
          }
          maps.add(o);
        }
        if (maps != null) {
          m.merges.add(new MergeValue(maps, true, slot.sink));
          return;
        }
      }
      fail(
          Code.SYNTAX,
          at,
          m.path,
          "the value of a merge key \"<<\" must be a mapping or a list of mappings");
    }

    /**
     * Applies {@code <<} as go-yaml does: keys written in the mapping itself win over merged ones,
     * and among merged mappings the earlier one wins. Merged entries take the place of the {@code
     * <<} entry.
     */
    ObjectNode applyMerges(MapFrame m) {
      Map<String, Winner> winners = new LinkedHashMap<>();
      for (MergeValue mv : m.merges) {
        for (int i = 0; i < mv.maps.size(); i++) {
          for (Map.Entry<String, JsonNode> e : mv.maps.get(i).properties()) {
            if (!m.node.has(e.getKey()) && !winners.containsKey(e.getKey())) {
              winners.put(e.getKey(), new Winner(mv, i, e.getValue()));
            }
          }
        }
      }
      ObjectNode merged = NODES.objectNode();
      int i = 0;
      Iterator<Map.Entry<String, JsonNode>> fields = m.node.properties().iterator();
      while (true) {
        if (i == m.mergeSlot) {
          winners.forEach((k, w) -> merged.set(k, w.value));
        }
        if (!fields.hasNext()) {
          break;
        }
        Map.Entry<String, JsonNode> e = fields.next();
        merged.set(e.getKey(), e.getValue());
        i++;
      }
      for (MergeValue mv : m.merges) {
        remap(mv, mv.sink.keys, m.sink.keys, m.pointer, winners);
        remap(mv, mv.sink.values, m.sink.values, m.pointer, winners);
      }
      return merged;
    }

    /** Moves the positions of winning merged entries from their own index into the mapping's. */
    void remap(
        MergeValue mv,
        Map<String, Position> from,
        Map<String, Position> to,
        String base,
        Map<String, Winner> winners) {
      for (Map.Entry<String, Position> e : from.entrySet()) {
        String pointer = e.getKey();
        int element = -1;
        int at = 0;
        if (mv.list) {
          int end = segmentEnd(pointer, 1);
          if (end < 0) {
            continue;
          }
          element = Integer.parseInt(pointer.substring(1, end));
          at = end;
        }
        if (at >= pointer.length()) {
          continue;
        }
        int keyEnd = segmentEnd(pointer, at + 1);
        String escaped = pointer.substring(at + 1, keyEnd < 0 ? pointer.length() : keyEnd);
        Winner w = winners.get(unescape(escaped));
        if (w != null && w.source == mv && w.element == Math.max(element, 0)) {
          to.put(base + pointer.substring(at), e.getValue());
        }
      }
    }

    // --- scalars -----------------------------------------------------------------------------

    /** Types one scalar: explicit tags first, then quoting, then kubectl's plain-scalar rules. */
    JsonNode scalar(ScalarEvent e, Position at, FieldPath path) {
      String value = e.getValue();
      int surrogate = unpairedSurrogate(value);
      if (surrogate >= 0) {
        // Only an escape (backslash, u, d800) makes one; no encoding can write it, and the output
        // would silently hold "?" instead.
        return fail(
            Code.SYNTAX,
            at,
            path,
            String.format(
                Locale.ROOT,
                "\\u%04x is half of a UTF-16 surrogate pair, not a character; write the character"
                    + " itself, or its code point as \\UXXXXXXXX",
                (int) value.charAt(surrogate)));
      }
      String tag = e.getTag();
      if (tag == null) {
        return e.isPlain() ? plain(value, at, path) : TextNode.valueOf(value);
      }
      if (tag.equals("!")) {
        // The non-specific tag: "!" forces a plain scalar to be a string (YAML 1.2 §6.9.1).
        return TextNode.valueOf(value);
      }
      if (!tag.startsWith(YAML_TAG)) {
        return tagError(tag, at, path, "a scalar");
      }
      switch (tag.substring(YAML_TAG.length())) {
        case "str":
          return TextNode.valueOf(value);
        case "null":
          if (NULLS.contains(value)) {
            return NullNode.getInstance();
          }
          break;
        case "bool":
          if (TRUES.contains(value) || FALSES.contains(value)) {
            return BooleanNode.valueOf(TRUES.contains(value));
          }
          break;
        case "int":
          {
            JsonNode n = number(value, at, path);
            if (n != null && n.isIntegralNumber()) {
              return n;
            }
            if (n != null && n.isNull()) {
              return n;
            }
            break;
          }
        case "float":
          {
            JsonNode n = number(value, at, path);
            if (n != null && n.isNumber()) {
              return n.isIntegralNumber() ? DoubleNode.valueOf(n.doubleValue()) : n;
            }
            if (n != null) {
              return n;
            }
            break;
          }
        default:
          return tagError(tag, at, path, "a scalar");
      }
      return fail(
          Code.SYNTAX,
          at,
          path,
          Quoting.quote(abbreviate(value)) + " cannot be read as " + shortTag(tag));
    }

    /** A plain (unquoted, untagged) scalar, typed as go-yaml does (see class comment). */
    JsonNode plain(String value, Position at, FieldPath path) {
      if (NULLS.contains(value)) {
        return NullNode.getInstance();
      }
      if (TRUES.contains(value)) {
        return BooleanNode.TRUE;
      }
      if (FALSES.contains(value)) {
        return BooleanNode.FALSE;
      }
      char c = value.charAt(0);
      if (c == '+' || c == '-' || c == '.' || (c >= '0' && c <= '9')) {
        JsonNode n = number(value, at, path);
        if (n != null) {
          return n;
        }
      }
      return TextNode.valueOf(value);
    }

    /**
     * Reads a number as go-yaml v2 does (Go's {@code strconv.ParseInt(s, 0, 64)} after removing
     * underscores, so {@code 0755} and {@code 0o755} are octal 493 and {@code 0x1F} is 31; else its
     * float syntax). Returns null when the text is not a number, and a NullNode after reporting a
     * problem. Unlike go-yaml, integers beyond 64 bits stay exact (BigIntegerNode).
     */
    JsonNode number(String value, Position at, FieldPath path) {
      if (NON_FINITE.contains(value)) {
        // go-yaml reads these as ±Inf/NaN, which kubectl then fails to convert to JSON.
        return fail(
            Code.INVALID,
            at,
            path,
            value + " is not a JSON number; quote it if it is meant as a string");
      }
      String s = value.indexOf('_') >= 0 ? value.replace("_", "") : value;
      int len = s.length();
      int i = 0;
      boolean negative = false;
      if (len > 0 && (s.charAt(0) == '+' || s.charAt(0) == '-')) {
        negative = s.charAt(0) == '-';
        i = 1;
      }
      if (i >= len) {
        return null;
      }
      int radix = 10;
      int start = i;
      if (s.charAt(i) == '0' && i + 1 < len) {
        switch (s.charAt(i + 1)) {
          case 'x', 'X' -> {
            radix = 16;
            start = i + 2;
          }
          case 'o', 'O' -> {
            radix = 8;
            start = i + 2;
          }
          case 'b', 'B' -> {
            radix = 2;
            start = i + 2;
          }
          default -> {
            radix = 8;
            start = i + 1;
          }
        }
      }
      if (allDigits(s, start, radix)) {
        if (len - start > limits.maxNumberDigits()) {
          return tooLong(at, path);
        }
        BigInteger b = new BigInteger(s.substring(start), radix);
        return integer(negative ? b.negate() : b);
      }
      if (isFloat(s)) {
        int digits = 0;
        for (int k = 0; k < len; k++) {
          char ch = s.charAt(k);
          digits += ch >= '0' && ch <= '9' ? 1 : 0;
        }
        if (digits > limits.maxNumberDigits()) {
          return tooLong(at, path);
        }
        double d = Double.parseDouble(s);
        if (Double.isInfinite(d)) {
          return fail(Code.INVALID, at, path, "number " + value + " is out of range");
        }
        return DoubleNode.valueOf(d);
      }
      return null;
    }

    JsonNode tooLong(Position at, FieldPath path) {
      return fail(
          Code.LIMIT, at, path, "number has more than " + limits.maxNumberDigits() + " digits");
    }

    JsonNode tagError(String tag, Position at, FieldPath path, String what) {
      String shown = shortTag(tag);
      String message =
          tag.startsWith(YAML_TAG)
                  && Set.of("map", "seq", "str", "int", "float", "bool", "null")
                      .contains(tag.substring(YAML_TAG.length()))
              ? "tag " + shown + " cannot be used on " + what
              : "YAML tags are not supported: "
                  + shown
                  + " (only !!str, !!int, !!float, !!bool, !!null, !!map and !!seq are accepted)";
      return fail(Code.SYNTAX, at, path, message);
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

    /** Turns a parser exception into one SYNTAX (or LIMIT) diagnostic with a one-line message. */
    void parseError(IOException e) {
      for (Throwable c = e; c != null; c = c.getCause()) {
        if (c instanceof MarkedYAMLException m) {
          Mark mark = m.getProblemMark() != null ? m.getProblemMark() : m.getContextMark();
          String message = oneLine(m.getProblem());
          if (m.getContext() != null) {
            message += " (" + oneLine(m.getContext()) + ")";
          }
          error(Code.SYNTAX, mark == null ? Position.UNKNOWN : position(mark), path(), message);
          return;
        }
        if (c instanceof ReaderException r) {
          error(
              Code.SYNTAX,
              codePointPosition(r.getPosition()),
              FieldPath.root(),
              String.format(
                  Locale.ROOT,
                  "character U+%04X is not allowed in YAML; escape it in a double-quoted string",
                  r.getCodePoint()));
          return;
        }
      }
      Event last = parser == null ? null : parser.last;
      Position at = last == null ? Position.UNKNOWN : position(last);
      if (e instanceof StreamConstraintsException) {
        error(Code.LIMIT, at, path(), oneLine(originalMessage(e)));
      } else if (doc != null
          && doc.frames.peek() instanceof MapFrame m
          && m.key == null
          && (last instanceof CollectionStartEvent || last instanceof AliasEvent)) {
        // Jackson only accepts scalar keys; go-yaml would accept these, kubectl's JSON would not.
        error(
            Code.SYNTAX,
            at,
            m.path,
            last instanceof AliasEvent
                ? "aliases cannot be used as mapping keys"
                : "mapping keys must be scalars (complex keys are not supported)");
      } else {
        error(Code.SYNTAX, at, path(), oneLine(originalMessage(e)));
      }
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

    Position offsetPosition(int offset) {
      int line = 1;
      int column = 1;
      for (int i = 0; i < offset && i < text.length(); i++) {
        char c = text.charAt(i);
        if (c == '\n' || (c == '\r' && (i + 1 >= text.length() || text.charAt(i + 1) != '\n'))) {
          line++;
          column = 1;
        } else if (c != '\r') {
          column++;
        }
      }
      return new Position(line, column);
    }

    Position codePointPosition(int codePoints) {
      int offset = 0;
      for (int n = 0; n < codePoints && offset < text.length(); n++) {
        offset += Character.charCount(text.codePointAt(offset));
      }
      return offsetPosition(offset);
    }
  }

  // --- helpers ---------------------------------------------------------------------------------

  private static String oneLine(String message) {
    if (message == null) {
      return "malformed YAML";
    }
    // Keep the first line only: SnakeYAML and Jackson append context snippets on further lines.
    int nl = message.indexOf('\n');
    return (nl < 0 ? message : message.substring(0, nl)).strip();
  }

  private static String originalMessage(IOException e) {
    return e instanceof JsonProcessingException j ? j.getOriginalMessage() : e.getMessage();
  }

  /** The index of the first surrogate that is not part of a pair, or -1. */
  private static int unpairedSurrogate(String s) {
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (Character.isHighSurrogate(c)
          && i + 1 < s.length()
          && Character.isLowSurrogate(s.charAt(i + 1))) {
        i++;
      } else if (Character.isSurrogate(c)) {
        return i;
      }
    }
    return -1;
  }

  private static String abbreviate(String s) {
    return s.length() <= 40 ? s : s.substring(0, 40) + "...";
  }

  private static String shortTag(String tag) {
    return tag.startsWith(YAML_TAG) ? "!!" + tag.substring(YAML_TAG.length()) : tag;
  }

  private static Position position(Event event) {
    return position(event.getStartMark());
  }

  private static Position position(Mark mark) {
    return new Position(mark.getLine() + 1, mark.getColumn() + 1);
  }

  private static JsonNode integer(BigInteger b) {
    if (b.bitLength() < 32) {
      return IntNode.valueOf(b.intValue());
    }
    return b.bitLength() < 64 ? LongNode.valueOf(b.longValue()) : BigIntegerNode.valueOf(b);
  }

  private static boolean allDigits(String s, int start, int radix) {
    if (start >= s.length()) {
      return false;
    }
    for (int i = start; i < s.length(); i++) {
      if (Character.digit(s.charAt(i), radix) < 0 || s.charAt(i) > 'f') {
        return false;
      }
    }
    return true;
  }

  /**
   * go-yaml's {@code yamlStyleFloat}: {@code [-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?}.
   */
  static boolean isFloat(String s) {
    int i = 0;
    int n = s.length();
    if (i < n && (s.charAt(i) == '+' || s.charAt(i) == '-')) {
      i++;
    }
    int intDigits = 0;
    while (i < n && isDigit(s.charAt(i))) {
      i++;
      intDigits++;
    }
    int fracDigits = 0;
    if (i < n && s.charAt(i) == '.') {
      i++;
      while (i < n && isDigit(s.charAt(i))) {
        i++;
        fracDigits++;
      }
      if (intDigits == 0 && fracDigits == 0) {
        return false;
      }
    } else if (intDigits == 0) {
      return false;
    }
    if (i < n && (s.charAt(i) == 'e' || s.charAt(i) == 'E')) {
      i++;
      if (i < n && (s.charAt(i) == '+' || s.charAt(i) == '-')) {
        i++;
      }
      int expDigits = 0;
      while (i < n && isDigit(s.charAt(i))) {
        i++;
        expDigits++;
      }
      if (expDigits == 0) {
        return false;
      }
    }
    return i == n;
  }

  private static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }

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
  private static void indexCopy(JsonNode node, String pointer, Sink sink, Position at) {
    sink.values.put(pointer, at);
    if (node.isObject()) {
      Iterator<String> names = node.fieldNames();
      while (names.hasNext()) {
        String name = names.next();
        String child = pointer + "/" + escape(name);
        sink.keys.put(child, at);
        indexCopy(node.get(name), child, sink, at);
      }
    } else if (node.isArray()) {
      for (int i = 0; i < node.size(); i++) {
        indexCopy(node.get(i), pointer + "/" + i, sink, at);
      }
    }
  }

  /** Field path of entry {@code key} of a mapping, with FieldPath.fromPointer's key/field rule. */
  private static FieldPath childPath(Frame frame, String key) {
    List<FieldPath.Segment> segments = frame.path.segments();
    if (!segments.isEmpty()
        && segments.get(segments.size() - 1) instanceof FieldPath.Field f
        && FieldPath.MAP_FIELDS.contains(f.name())) {
      return frame.path.key(key);
    }
    return frame.path.child(key);
  }

  private static String escape(String key) {
    if (key.indexOf('~') < 0 && key.indexOf('/') < 0) {
      return key;
    }
    return key.replace("~", "~0").replace("/", "~1");
  }

  private static String unescape(String segment) {
    if (segment.indexOf('~') < 0) {
      return segment;
    }
    return segment.replace("~1", "/").replace("~0", "~");
  }

  /** End of the pointer segment starting at {@code from}, or -1 when it runs to the end. */
  private static int segmentEnd(String pointer, int from) {
    return pointer.indexOf('/', from);
  }

  // --- state -----------------------------------------------------------------------------------

  /** Pointer → position maps being filled for one document (or one merge value). */
  private static final class Sink {
    final Map<String, Position> keys = new HashMap<>();
    final Map<String, Position> values = new HashMap<>();
  }

  private record Slot(String pointer, Sink sink, FieldPath path) {}

  private record Anchor(JsonNode node, int height) {}

  private record MergeValue(List<ObjectNode> maps, boolean list, Sink sink) {}

  private record Winner(MergeValue source, int element, JsonNode value) {}

  private abstract static class Frame {
    final String pointer;
    final Sink sink;
    final FieldPath path;
    final Position position;
    final String anchor;
    int height = 1;

    Frame(Slot slot, Position position, String anchor) {
      this.pointer = slot.pointer();
      this.sink = slot.sink();
      this.path = slot.path();
      this.position = position;
      this.anchor = anchor;
    }
  }

  private static final class MapFrame extends Frame {
    final ObjectNode node;
    final List<MergeValue> merges = new ArrayList<>();
    String key;
    boolean merge;
    boolean duplicate;
    Position mergeKeyPosition;
    int mergeSlot = -1;
    Slot mergeValueSlot;

    MapFrame(Slot slot, Position position, String anchor, ObjectNode node) {
      super(slot, position, anchor);
      this.node = node;
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
    final Sink sink = new Sink();
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

    DocumentState(int index) {
      this.index = index;
    }
  }

  // --- Jackson glue ----------------------------------------------------------------------------

  /** A YAMLFactory whose parsers expose SnakeYAML's events (style, tag, anchor, marks). */
  private static final class EventFactory extends YAMLFactory {
    EventFactory(YAMLFactoryBuilder builder) {
      super(builder);
    }

    @Override
    protected YAMLParser _createParser(Reader r, IOContext ctxt) throws IOException {
      return new EventParser(
          ctxt, _parserFeatures, _yamlParserFeatures, _loaderOptions, _objectCodec, r);
    }

    EventParser open(String text) throws IOException {
      return (EventParser) createParser(new StringReader(text));
    }
  }

  /**
   * Jackson's YAMLParser keeping the last SnakeYAML event. Jackson does not report an anchor on a
   * scalar value ({@code getObjectId()} is null for {@code &a hello}), nor a scalar's quoting, and
   * types plain scalars by YAML 1.1 ({@code yes} is true, {@code 0o755} a string, {@code .inf} a
   * number it then cannot read), so the loader types scalars itself from the event.
   */
  private static final class EventParser extends YAMLParser {
    Event last;
    int documents;

    EventParser(
        IOContext ctxt,
        int features,
        int yamlFeatures,
        LoaderOptions options,
        ObjectCodec codec,
        Reader reader) {
      super(ctxt, features, yamlFeatures, options, codec, reader);
    }

    @Override
    protected Event getEvent() throws IOException {
      Event e = super.getEvent();
      if (e != null) {
        last = e;
        if (e.is(Event.ID.DocumentStart)) {
          documents++;
        }
      }
      return e;
    }

    @Override
    protected JsonToken _decodeScalar(ScalarEvent scalar) {
      _textValue = scalar.getValue();
      _cleanedTextValue = null;
      return JsonToken.VALUE_STRING;
    }
  }
}
