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
    this.parser = new ParserImpl(new StreamReader(new StringReader(text)), options);
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
