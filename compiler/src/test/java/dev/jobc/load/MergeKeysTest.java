package dev.jobc.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jobc.diag.Code;
import dev.jobc.diag.Diagnostic;
import dev.jobc.diag.Position;
import dev.jobc.model.Source;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.events.ImplicitTuple;
import org.yaml.snakeyaml.events.ScalarEvent;

class MergeKeysTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  private static ObjectNode object(String json) throws Exception {
    return (ObjectNode) JSON.readTree(json);
  }

  private static JsonNode load(String yaml) {
    LoadResult r = new YamlLoader(YamlLimits.defaults()).load(new Source("in.yaml", yaml));
    assertThat(r.diagnostics()).isEmpty();
    return r.documents().get(0).root();
  }

  @Test
  void ownKeysWinAndMergedEntriesTakeThePlaceOfTheMergeKey() throws Exception {
    MergeKeys merges = new MergeKeys(1);
    PositionMaps from = new PositionMaps();
    from.keys.put("/b", new Position(5, 3));
    from.keys.put("/c", new Position(6, 3));
    from.values.put("/c", new Position(6, 6));
    assertThat(merges.add(object("{\"b\": 1, \"c\": 2}"), from)).isTrue();

    PositionMaps into = new PositionMaps();
    ObjectNode merged = merges.apply(object("{\"a\": 0, \"b\": 9}"), "/m", into);

    assertThat(merged).isEqualTo(object("{\"a\": 0, \"c\": 2, \"b\": 9}"));
    assertThat(merged.fieldNames()).toIterable().containsExactly("a", "c", "b");
    // Only the entry that won moves its positions, under the mapping's pointer.
    assertThat(into.keys).isEqualTo(Map.of("/m/c", new Position(6, 3)));
    assertThat(into.values).isEqualTo(Map.of("/m/c", new Position(6, 6)));
  }

  @Test
  void inAListOfMapsTheEarlierMapWins() throws Exception {
    MergeKeys merges = new MergeKeys(0);
    PositionMaps from = new PositionMaps();
    from.keys.put("/0/x", new Position(2, 1));
    from.keys.put("/1/x", new Position(3, 1));
    from.keys.put("/1/y~1z", new Position(3, 9));
    JsonNode list = JSON.readTree("[{\"x\": 1}, {\"x\": 2, \"y/z\": 3}]");
    assertThat(merges.add(list, from)).isTrue();

    PositionMaps into = new PositionMaps();
    ObjectNode merged = merges.apply(object("{}"), "", into);

    assertThat(merged).isEqualTo(object("{\"x\": 1, \"y/z\": 3}"));
    assertThat(into.keys).isEqualTo(Map.of("/x", new Position(2, 1), "/y~1z", new Position(3, 9)));
  }

  @Test
  void valuesThatAreNotMappingsAreRefused() throws Exception {
    MergeKeys merges = new MergeKeys(0);
    assertThat(merges.add(JSON.readTree("3"), new PositionMaps())).isFalse();
    assertThat(merges.add(JSON.readTree("[{\"a\": 1}, 2]"), new PositionMaps())).isFalse();
    assertThat(merges.isEmpty()).isTrue();
  }

  @Test
  void onlyAPlainUntaggedDoubleLessThanIsAMergeKey() {
    assertThat(MergeKeys.isMergeKey(scalar("<<", null, DumperOptions.ScalarStyle.PLAIN))).isTrue();
    assertThat(MergeKeys.isMergeKey(scalar("<<", null, DumperOptions.ScalarStyle.DOUBLE_QUOTED)))
        .isFalse();
    assertThat(
            MergeKeys.isMergeKey(
                scalar("<<", "tag:yaml.org,2002:str", DumperOptions.ScalarStyle.PLAIN)))
        .isFalse();
    assertThat(MergeKeys.isMergeKey(scalar("<", null, DumperOptions.ScalarStyle.PLAIN))).isFalse();
  }

  private static ScalarEvent scalar(String value, String tag, DumperOptions.ScalarStyle style) {
    return new ScalarEvent(
        null, tag, new ImplicitTuple(tag == null, tag == null), value, null, null, style);
  }

  @Test
  void theLoaderMergesWithOverrideOrderAsGoYaml() {
    JsonNode root =
        load(
            "base: &b {a: 1, b: 2}\n"
                + "more: &m {b: 3, c: 4}\n"
                + "out:\n"
                + "  x: 0\n"
                + "  <<: [*b, *m]\n"
                + "  a: 9\n");
    assertThat(root.get("out").toString()).isEqualTo("{\"x\":0,\"b\":2,\"c\":4,\"a\":9}");
  }

  @Test
  void theLoaderReportsBadMergeValuesAndRepeatedMergeKeys() {
    LoadResult r =
        new YamlLoader(YamlLimits.defaults())
            .load(
                new Source("in.yaml", "a:\n  <<: 3\n---\nb: &b {x: 1}\nc:\n  <<: *b\n  <<: *b\n"));
    assertThat(r.diagnostics())
        .extracting(
            Diagnostic::code,
            Diagnostic::line,
            Diagnostic::column,
            Diagnostic::path,
            Diagnostic::message)
        .containsExactly(
            tuple(
                Code.SYNTAX,
                2,
                7,
                "a",
                "the value of a merge key \"<<\" must be a mapping or a list of mappings"),
            tuple(Code.DUPLICATE, 7, 3, "c.<<", "duplicate key \"<<\" (first defined at line 6)"));
    // The document with the repeated key is kept, with the first merge applied.
    assertThat(r.documents()).hasSize(1);
    assertThat(r.documents().get(0).root().get("c").toString()).isEqualTo("{\"x\":1}");
    assertThat(List.of(r.documents().get(0).index())).containsExactly(1);
  }
}
