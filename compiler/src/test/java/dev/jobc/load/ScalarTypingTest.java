package dev.jobc.load;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.jobc.diag.FieldPath;
import dev.jobc.diag.Position;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.DumperOptions.ScalarStyle;
import org.yaml.snakeyaml.events.ImplicitTuple;
import org.yaml.snakeyaml.events.ScalarEvent;

class ScalarTypingTest {
  private final List<String> problems = new ArrayList<>();
  private final ScalarTyping typing =
      new ScalarTyping(
          5,
          (code, at, path, message) -> {
            problems.add(code + " " + path + ": " + message);
            return NullNode.getInstance();
          });

  private JsonNode type(String value, String tag, ScalarStyle style) {
    ScalarEvent e =
        new ScalarEvent(
            null, tag, new ImplicitTuple(tag == null, tag == null), value, null, null, style);
    return typing.scalar(e, new Position(1, 1), FieldPath.of("f"));
  }

  @Test
  void plainScalarsFollowGoYamlAndQuotedOnesAreStrings() {
    assertThat(type("0o17", null, ScalarStyle.PLAIN)).isEqualTo(IntNode.valueOf(15));
    assertThat(type("on", null, ScalarStyle.PLAIN)).isEqualTo(TextNode.valueOf("on"));
    assertThat(type("True", null, ScalarStyle.PLAIN)).isEqualTo(BooleanNode.TRUE);
    assertThat(type("1e3", null, ScalarStyle.PLAIN)).isEqualTo(DoubleNode.valueOf(1000));
    assertThat(type("", null, ScalarStyle.SINGLE_QUOTED)).isEqualTo(TextNode.valueOf(""));
    assertThat(type("12", null, ScalarStyle.DOUBLE_QUOTED)).isEqualTo(TextNode.valueOf("12"));
    assertThat(type("12", "!", ScalarStyle.PLAIN)).isEqualTo(TextNode.valueOf("12"));
    assertThat(problems).isEmpty();
  }

  @Test
  void explicitTagsConvertOrFail() {
    assertThat(type("3", "tag:yaml.org,2002:float", ScalarStyle.PLAIN))
        .isEqualTo(DoubleNode.valueOf(3));
    assertThat(type("0x1F", "tag:yaml.org,2002:int", ScalarStyle.DOUBLE_QUOTED))
        .isEqualTo(IntNode.valueOf(31));
    assertThat(type("1.5", "tag:yaml.org,2002:int", ScalarStyle.PLAIN))
        .isEqualTo(NullNode.getInstance());
    assertThat(type("x", "!custom", ScalarStyle.PLAIN)).isEqualTo(NullNode.getInstance());
    assertThat(problems)
        .containsExactly(
            "SYNTAX f: \"1.5\" cannot be read as !!int",
            "SYNTAX f: YAML tags are not supported: !custom (only !!str, !!int, !!float, !!bool,"
                + " !!null, !!map and !!seq are accepted)");
  }

  @Test
  void numbersBeyondTheDigitLimitAndNonFiniteFloatsAreProblems() {
    assertThat(type("123456", null, ScalarStyle.PLAIN)).isEqualTo(NullNode.getInstance());
    assertThat(type("12345", null, ScalarStyle.PLAIN)).isEqualTo(IntNode.valueOf(12345));
    assertThat(type("-.Inf", null, ScalarStyle.PLAIN)).isEqualTo(NullNode.getInstance());
    assertThat(problems)
        .containsExactly(
            "LIMIT f: number has more than 5 digits",
            "INVALID f: -.Inf is not a JSON number; quote it if it is meant as a string");
  }
}
