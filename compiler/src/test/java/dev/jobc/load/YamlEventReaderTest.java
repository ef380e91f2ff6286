package dev.jobc.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.jobc.diag.Position;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.events.AliasEvent;
import org.yaml.snakeyaml.events.Event;
import org.yaml.snakeyaml.events.ScalarEvent;

class YamlEventReaderTest {

  private static List<String> read(YamlEventReader reader) throws Exception {
    List<String> out = new ArrayList<>();
    for (Event e = reader.next(); e != null; e = reader.next()) {
      String what =
          e instanceof ScalarEvent s
              ? "scalar " + s.getValue() + (s.getAnchor() == null ? "" : " &" + s.getAnchor())
              : e instanceof AliasEvent a ? "alias " + a.getAnchor() : e.getEventId().toString();
      out.add(what + " @" + YamlEventReader.position(e));
    }
    return out;
  }

  @Test
  void handsOutNodeEventsWithPositionsAndCountsDocuments() throws Exception {
    YamlEventReader reader = new YamlEventReader("a: &x 1\nb: [*x]\n---\n# c\nc\n", 1_000);
    assertThat(read(reader))
        .containsExactly(
            "MappingStart @Position[line=1, column=1]",
            "scalar a @Position[line=1, column=1]",
            "scalar 1 &x @Position[line=1, column=4]",
            "scalar b @Position[line=2, column=1]",
            "SequenceStart @Position[line=2, column=4]",
            "alias x @Position[line=2, column=5]",
            "SequenceEnd @Position[line=2, column=7]",
            "MappingEnd @Position[line=3, column=1]",
            "scalar c @Position[line=5, column=1]");
    assertThat(reader.documents()).isEqualTo(2);
  }

  @Test
  void malformedYamlIsASyntaxErrorWithAPositionAndOneLine() {
    YamlEventReader reader = new YamlEventReader("a: [1, 2\nb: 3\n", 1_000);
    assertThatThrownBy(() -> read(reader))
        .isInstanceOfSatisfying(
            YamlEventReader.SyntaxError.class,
            e -> {
              assertThat(e.position()).isEqualTo(new Position(2, 2));
              assertThat(e.badCharacter()).isFalse();
              assertThat(e.getMessage())
                  .isEqualTo("expected ',' or ']', but got : (while parsing a flow sequence)")
                  .doesNotContain("\n");
            });
  }

  @Test
  void aCharacterYamlDoesNotAllowIsReportedWhereItIs() {
    YamlEventReader reader = new YamlEventReader("a: 1\nb: x\u0007\n", 1_000);
    assertThatThrownBy(() -> read(reader))
        .isInstanceOfSatisfying(
            YamlEventReader.SyntaxError.class,
            e -> {
              assertThat(e.position()).isEqualTo(new Position(2, 5));
              assertThat(e.badCharacter()).isTrue();
              assertThat(e.getMessage())
                  .isEqualTo(
                      "character U+0007 is not allowed in YAML; escape it in a double-quoted"
                          + " string");
            });
  }

  @Test
  void offsetsBecomeLinesAndColumnsWithAnyLineBreak() {
    String text = "a\r\nbc\rd\ne";
    assertThat(YamlEventReader.offsetPosition(text, 0)).isEqualTo(new Position(1, 1));
    assertThat(YamlEventReader.offsetPosition(text, 4)).isEqualTo(new Position(2, 2));
    assertThat(YamlEventReader.offsetPosition(text, 6)).isEqualTo(new Position(3, 1));
    assertThat(YamlEventReader.offsetPosition(text, 8)).isEqualTo(new Position(4, 1));
  }

  /**
   * The whole-text reader against SnakeYAML's own on random texts: the same events with the same
   * marks, and the same failure (type, message, and for a disallowed character its position and
   * code point) at the same point of the stream.
   */
  @Test
  void theWholeTextReaderReadsAsSnakeYamlsOwn() {
    long seed = 22;
    java.util.Random random = new java.util.Random(seed);
    String[] pieces = {
      "a",
      "b: ",
      "- ",
      "[",
      "]",
      "{",
      "}",
      ", ",
      "\n",
      "\r\n",
      "\r",
      "  ",
      "'q'",
      "\"d\\n\"",
      "&x ",
      "*x",
      "# c\n",
      "---\n",
      "|\n  ",
      ">-\n  ",
      "? ",
      ": ",
      "\t",
      "\u00e9",
      "\ud83d\ude00",
      "\u0085",
      "\u2028",
      "\uFEFF",
      "\u0001",
      "x".repeat(700),
      "y".repeat(1023),
      "\ud800"
    };
    for (int n = 0; n < 2_000; n++) {
      StringBuilder text = new StringBuilder();
      int count = random.nextInt(12);
      for (int i = 0; i < count; i++) {
        text.append(pieces[random.nextInt(pieces.length)]);
      }
      String t = text.toString();
      assertThat(trace(new YamlEventReader.WholeText(t)))
          .as("seed %d, text %s", seed, dev.jobc.diag.Quoting.quote(t))
          .isEqualTo(
              trace(new org.yaml.snakeyaml.reader.StreamReader(new java.io.StringReader(t))));
    }
  }

  private static List<String> trace(org.yaml.snakeyaml.reader.StreamReader reader) {
    List<String> out = new ArrayList<>();
    org.yaml.snakeyaml.LoaderOptions options = new org.yaml.snakeyaml.LoaderOptions();
    options.setProcessComments(false);
    org.yaml.snakeyaml.parser.Parser parser =
        new org.yaml.snakeyaml.parser.ParserImpl(reader, options);
    try {
      for (Event e = parser.getEvent(); e != null; e = parser.getEvent()) {
        out.add(e + " " + mark(e.getStartMark()) + "-" + mark(e.getEndMark()));
        if (e.getEventId() == Event.ID.StreamEnd) {
          break;
        }
      }
    } catch (org.yaml.snakeyaml.reader.ReaderException r) {
      out.add("reader " + r.getPosition() + " " + r.getCodePoint() + " " + r.getMessage());
    } catch (RuntimeException e) {
      out.add(e.getClass().getName() + " " + e.getMessage());
    }
    return out;
  }

  private static String mark(org.yaml.snakeyaml.error.Mark m) {
    return m == null ? "-" : m.getIndex() + ":" + m.getLine() + ":" + m.getColumn();
  }
}
