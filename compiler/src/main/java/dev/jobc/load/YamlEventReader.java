package dev.jobc.load;

import dev.jobc.diag.Position;
import java.io.StringReader;
import java.util.Locale;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.events.Event;
import org.yaml.snakeyaml.parser.Parser;
import org.yaml.snakeyaml.parser.ParserImpl;
import org.yaml.snakeyaml.reader.ReaderException;
import org.yaml.snakeyaml.reader.StreamReader;
import org.yaml.snakeyaml.scanner.Constant;

/**
 * SnakeYAML's event parser over one text: the only class that drives the YAML parser library. It
 * hands out the node events (scalars, aliases, collection starts and ends) with their style, tag,
 * anchor and marks, counts documents, and turns the library's exceptions into {@link SyntaxError}s
 * with a position and a one-line message. One instance per text; not thread-safe.
 */
final class YamlEventReader {
  private final String text;
  private final Parser parser;
  private Event last;
  private int documents;

  /**
   * @param text the YAML text, without a byte order mark
   * @param maxCodePoints the longest text SnakeYAML's reader accepts
   */
  YamlEventReader(String text, int maxCodePoints) {
    this.text = text;
    // Only the code point limit applies to the parser; SnakeYAML's nesting, alias and duplicate
    // key options are read by its Composer, which jobc does not use (YamlLoader checks them).
    LoaderOptions options = new LoaderOptions();
    options.setCodePointLimit(maxCodePoints);
    options.setProcessComments(false);
    this.parser = new ParserImpl(new WholeText(text), options);
  }

  /**
   * The next node event, or null at the end of the stream; stream, document and comment events are
   * skipped (documents are counted).
   */
  Event next() throws SyntaxError {
    try {
      while (true) {
        Event e = parser.getEvent();
        if (e == null) {
          return null;
        }
        last = e;
        switch (e.getEventId()) {
          case DocumentStart -> documents++;
          case StreamEnd -> {
            return null;
          }
          case Scalar, Alias, MappingStart, MappingEnd, SequenceStart, SequenceEnd -> {
            return e;
          }
          default -> {
            // StreamStart, DocumentEnd and comments carry no content.
          }
        }
      }
    } catch (ReaderException r) {
      throw new SyntaxError(
          codePointPosition(r.getPosition()),
          true,
          String.format(
              Locale.ROOT,
              "character U+%04X is not allowed in YAML; escape it in a double-quoted string",
              r.getCodePoint()));
    } catch (MarkedYAMLException m) {
      Mark mark = m.getProblemMark() != null ? m.getProblemMark() : m.getContextMark();
      String message = oneLine(m.getProblem());
      if (m.getContext() != null) {
        message += " (" + oneLine(m.getContext()) + ")";
      }
      throw new SyntaxError(mark == null ? Position.UNKNOWN : position(mark), false, message);
    } catch (YAMLException e) {
      throw new SyntaxError(lastPosition(), false, oneLine(e.getMessage()));
    } catch (NumberFormatException e) {
      // SnakeYAML's scanner throws this for a "backslash u" escape cut short by the end of the
      // text; the
      // wording is the one jackson-dataformat-yaml gave it, which jobc has always reported.
      throw new SyntaxError(
          lastPosition(),
          false,
          oneLine(
              String.format(
                  Locale.ROOT,
                  "Malformed Number token: failed to tokenize due to (%s): %s",
                  e.getClass().getName(),
                  e.getMessage())));
    }
  }

  private Position lastPosition() {
    return last == null ? Position.UNKNOWN : position(last);
  }

  /** How many documents have started so far. */
  int documents() {
    return documents;
  }

  static Position position(Event event) {
    return position(event.getStartMark());
  }

  static Position position(Mark mark) {
    return new Position(mark.getLine() + 1, mark.getColumn() + 1);
  }

  /** The position of UTF-16 offset {@code offset} of {@code text}, counting lines as SnakeYAML. */
  static Position offsetPosition(String text, int offset) {
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

  private Position codePointPosition(int codePoints) {
    int offset = 0;
    for (int n = 0; n < codePoints && offset < text.length(); n++) {
      offset += Character.charCount(text.codePointAt(offset));
    }
    return offsetPosition(text, offset);
  }

  private static String oneLine(String message) {
    if (message == null) {
      return "malformed YAML";
    }
    // Keep the first line only: SnakeYAML appends context snippets on further lines.
    int nl = message.indexOf('\n');
    return (nl < 0 ? message : message.substring(0, nl)).strip();
  }

  /**
   * SnakeYAML's {@link StreamReader}, reading from the whole text at once. SnakeYAML's own reader
   * keeps a window that it extends 1,023 characters at a time by copying all of it, and its scanner
   * looks ahead over a whole line (or a run of a quoted scalar) before moving on, so one long line
   * cost time quadratic in its length (a 3.9M-character scalar: about 30 s). This one holds the
   * text's code points and answers every call in constant time, with the same results: the same
   * line and column counting, {@code \\0} past the end, and a character YAML does not allow
   * reported exactly when SnakeYAML would report it, that is once reading reaches the
   * 1,023-character block that holds it ({@code YamlEventReaderTest} compares the two on random
   * texts).
   */
  static final class WholeText extends StreamReader {
    private static final String NAME = "'reader'";

    /** The chunk SnakeYAML reads at a time: its 1,024-character buffer, less one. */
    private static final int CHUNK = 1023;

    private final int[] data;

    /**
     * From which code point on reading fails, as SnakeYAML's does; past the end when it never does.
     */
    private final int badFrom;

    private final int badCodePoint;

    /** The position SnakeYAML reports: the character's index, or (see below) a count. */
    private final int badIndex;

    /**
     * Whether the text ends in an unpaired high surrogate: SnakeYAML then reports its index plus
     * the characters of the last chunk, counted from wherever reading is when it loads the chunk.
     */
    private final boolean endsInHighSurrogate;

    private final int lastChunkChars;

    private int pointer;
    private int index;
    private int documentIndex;
    private int line;
    private int column;

    WholeText(String text) {
      super(new StringReader(""));
      this.data = text.codePoints().toArray();
      int from = Integer.MAX_VALUE;
      int badAt = -1;
      boolean surrogate = false;
      int chunkChars = 0;
      // SnakeYAML reads 1,023 chars at a time (one more to complete a surrogate pair), checks the
      // chunk's last char for a lone high surrogate, then each code point until one is not allowed.
      int start = 0;
      int startCp = 0;
      while (start < text.length()) {
        int end = Math.min(start + CHUNK, text.length());
        boolean high = Character.isHighSurrogate(text.charAt(end - 1));
        if (high && end < text.length()) {
          end++;
        }
        int endCp = startCp + text.codePointCount(start, end);
        if (high && end == text.length()) {
          from = startCp;
          surrogate = true;
          chunkChars = end - start;
          break;
        }
        for (int i = startCp; i < endCp; i++) {
          if (!isPrintable(data[i])) {
            badAt = i;
            break;
          }
        }
        if (badAt >= 0) {
          from = startCp;
          break;
        }
        start = end;
        startCp = endCp;
      }
      this.badFrom = from;
      this.endsInHighSurrogate = surrogate;
      this.lastChunkChars = chunkChars;
      this.badIndex = badAt;
      this.badCodePoint = surrogate ? text.charAt(text.length() - 1) : badAt < 0 ? 0 : data[badAt];
    }

    /** Whether code point {@code pointer + k} exists, as SnakeYAML's {@code ensureEnoughData}. */
    private boolean available(int k) {
      if (pointer + k >= badFrom) {
        throw endsInHighSurrogate
            ? new ReaderException(
                NAME,
                index + lastChunkChars,
                badCodePoint,
                "The last char is HighSurrogate (no LowSurrogate detected).")
            : new ReaderException(
                NAME, badIndex, badCodePoint, "special characters are not allowed");
      }
      return pointer + k < data.length;
    }

    @Override
    public Mark getMark() {
      return new Mark(NAME, index, line, column, data, pointer);
    }

    @Override
    public void forward() {
      forward(1);
    }

    @Override
    public void forward(int length) {
      for (int i = 0; i < length && available(0); i++) {
        int c = data[pointer++];
        index++;
        documentIndex++;
        if (Constant.LINEBR.has(c) || (c == '\r' && available(0) && data[pointer] != '\n')) {
          line++;
          column = 0;
        } else if (c != 0xFEFF) {
          column++;
        }
      }
    }

    @Override
    public int peek() {
      return available(0) ? data[pointer] : 0;
    }

    @Override
    public int peek(int k) {
      return available(k) ? data[pointer + k] : 0;
    }

    @Override
    public String prefix(int length) {
      if (length == 0) {
        return "";
      }
      available(length);
      return new String(data, pointer, Math.min(length, data.length - pointer));
    }

    @Override
    public String prefixForward(int length) {
      String prefix = prefix(length);
      pointer += length;
      index += length;
      documentIndex += length;
      column += length;
      return prefix;
    }

    @Override
    public int getColumn() {
      return column;
    }

    @Override
    public int getDocumentIndex() {
      return documentIndex;
    }

    @Override
    public void resetDocumentIndex() {
      documentIndex = 0;
    }

    @Override
    public int getIndex() {
      return index;
    }

    @Override
    public int getLine() {
      return line;
    }
  }

  /** Malformed YAML, or a character YAML does not allow. */
  static final class SyntaxError extends Exception {
    private static final long serialVersionUID = 1L;

    private final transient Position position;
    private final boolean badCharacter;

    SyntaxError(Position position, boolean badCharacter, String message) {
      super(message, null, false, false);
      this.position = position;
      this.badCharacter = badCharacter;
    }

    Position position() {
      return position;
    }

    /** True for a character that YAML does not allow: no field is being read, as far as known. */
    boolean badCharacter() {
      return badCharacter;
    }
  }
}
