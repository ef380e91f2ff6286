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

  private static long at(int line, int column) {
    return NodePositions.pack(new Position(line, column));
  }

  @Test
  void ownKeysWinAndMergedEntriesTakeThePlaceOfTheMergeKey() throws Exception {
    MergeKeys merges = new MergeKeys(1);
    NodePositions from = NodePositions.mapping();
    from.add("b", at(5, 3), at(5, 6), null);
    from.add("c", at(6, 3), at(6, 6), null);
    assertThat(merges.add(object("{\"b\": 1, \"c\": 2}"), from)).isTrue();
    NodePositions own = NodePositions.mapping();
    own.add("a", at(1, 1), at(1, 4), null);
    own.add("b", at(3, 1), at(3, 4), null);

    NodePositions into = NodePositions.mapping();
    ObjectNode merged = merges.apply(object("{\"a\": 0, \"b\": 9}"), own, into);

    assertThat(merged).isEqualTo(object("{\"a\": 0, \"c\": 2, \"b\": 9}"));
    assertThat(merged.fieldNames()).toIterable().containsExactly("a", "c", "b");
    // The positions follow the merged order: own entries keep theirs, the winner brings its own.
    assertThat(into.size()).isEqualTo(3);
    assertThat(List.of(into.name(0), into.name(1), into.name(2))).containsExactly("a", "c", "b");
    assertThat(into.keyAt(1)).isEqualTo(at(6, 3));
    assertThat(into.valueAt(1)).isEqualTo(at(6, 6));
    assertThat(into.keyAt(2)).isEqualTo(at(3, 1));
  }

  @Test
  void inAListOfMapsTheEarlierMapWins() throws Exception {
    MergeKeys merges = new MergeKeys(0);
    NodePositions first = NodePositions.mapping();
    first.add("x", at(2, 1), at(2, 4), null);
    NodePositions second = NodePositions.mapping();
    second.add("x", at(3, 1), at(3, 4), null);
    second.add("y/z", at(3, 9), at(3, 14), null);
    NodePositions list = NodePositions.list();
    list.add(null, -1L, at(2, 1), first);
    list.add(null, -1L, at(3, 1), second);
    JsonNode maps = JSON.readTree("[{\"x\": 1}, {\"x\": 2, \"y/z\": 3}]");
    assertThat(merges.add(maps, list)).isTrue();

    NodePositions into = NodePositions.mapping();
    ObjectNode merged = merges.apply(object("{}"), NodePositions.mapping(), into);

    assertThat(merged).isEqualTo(object("{\"x\": 1, \"y/z\": 3}"));
    assertThat(into.keyAt(into.indexOf("x"))).isEqualTo(at(2, 1));
    assertThat(into.keyAt(into.indexOf("y/z"))).isEqualTo(at(3, 9));
  }

  @Test
  void aMergedAliasIsAllAtTheAlias() throws Exception {
    MergeKeys merges = new MergeKeys(0);
    assertThat(merges.add(object("{\"x\": {\"y\": 1}}"), NodePositions.uniform(at(7, 5)))).isTrue();
    NodePositions into = NodePositions.mapping();
    merges.apply(object("{}"), NodePositions.mapping(), into);
    assertThat(into.keyAt(0)).isEqualTo(at(7, 5));
    assertThat(into.inner(0).isUniform()).isTrue();
  }

  @Test
  void valuesThatAreNotMappingsAreRefused() throws Exception {
    MergeKeys merges = new MergeKeys(0);
    assertThat(merges.add(JSON.readTree("3"), null)).isFalse();
    assertThat(merges.add(JSON.readTree("[{\"a\": 1}, 2]"), NodePositions.list())).isFalse();
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
