package dev.jobc.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.BigIntegerNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.LongNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jobc.diag.Code;
import dev.jobc.diag.Diagnostic;
import dev.jobc.diag.FieldPath;
import dev.jobc.diag.Position;
import dev.jobc.model.Source;
import java.math.BigInteger;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class YamlLoaderTest {
  private final YamlLoader loader = new YamlLoader(YamlLimits.defaults());

  private LoadResult load(String text) {
    return loader.load(new Source("in.yaml", text));
  }

  private JsonNode single(String text) {
    LoadResult r = load(text);
    assertThat(r.diagnostics()).isEmpty();
    assertThat(r.documents()).hasSize(1);
    return r.documents().get(0).root();
  }

  private static Position at(int line, int column) {
    return new Position(line, column);
  }

  private static FieldPath path(String pointer) {
    return FieldPath.fromPointer(pointer, null);
  }

  // --- scalars -------------------------------------------------------------------------------

  static Stream<Arguments> plainScalars() {
    return Stream.of(
        Arguments.of("42", IntNode.valueOf(42)),
        Arguments.of("-7", IntNode.valueOf(-7)),
        Arguments.of("+12", IntNode.valueOf(12)),
        Arguments.of("0", IntNode.valueOf(0)),
        Arguments.of("1_000", IntNode.valueOf(1000)),
        // Kubernetes users write defaultMode: 0755; go-yaml reads leading-zero octal.
        Arguments.of("0755", IntNode.valueOf(493)),
        Arguments.of("0o755", IntNode.valueOf(493)),
        Arguments.of("0x1F", IntNode.valueOf(31)),
        Arguments.of("-0x1F", IntNode.valueOf(-31)),
        Arguments.of("0b101", IntNode.valueOf(5)),
        Arguments.of("4294967296", LongNode.valueOf(4294967296L)),
        Arguments.of(
            "123456789012345678901234567890",
            BigIntegerNode.valueOf(new BigInteger("123456789012345678901234567890"))),
        Arguments.of("0.5", DoubleNode.valueOf(0.5)),
        Arguments.of("1e3", DoubleNode.valueOf(1000)),
        Arguments.of(".5", DoubleNode.valueOf(0.5)),
        Arguments.of("-1.5E-3", DoubleNode.valueOf(-0.0015)),
        Arguments.of("08", DoubleNode.valueOf(8)),
        Arguments.of("true", json("true")),
        Arguments.of("False", json("false")),
        Arguments.of("TRUE", json("true")),
        Arguments.of("null", json("null")),
        Arguments.of("~", json("null")),
        Arguments.of("", json("null")),
        // YAML 1.2: these stay strings (go-yaml v2 would read booleans).
        Arguments.of("yes", json("\"yes\"")),
        Arguments.of("no", json("\"no\"")),
        Arguments.of("on", json("\"on\"")),
        Arguments.of("off", json("\"off\"")),
        Arguments.of("y", json("\"y\"")),
        Arguments.of("0x", json("\"0x\"")),
        Arguments.of("1.2.3", json("\"1.2.3\"")),
        Arguments.of("10.0.0.1", json("\"10.0.0.1\"")),
        Arguments.of("2001-12-14", json("\"2001-12-14\"")),
        Arguments.of("1:20", json("\"1:20\"")),
        Arguments.of("'-'", json("\"-\"")),
        Arguments.of("-x", json("\"-x\"")),
        Arguments.of("--flag=1", json("\"--flag=1\"")),
        Arguments.of("'0755'", json("\"0755\"")),
        Arguments.of("\"true\"", json("\"true\"")),
        Arguments.of("\"\"", json("\"\"")),
        Arguments.of("'null'", json("\"null\"")));
  }

  private static JsonNode json(String text) {
    try {
      return new com.fasterxml.jackson.databind.ObjectMapper().readTree(text);
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalArgumentException(e);
    }
  }

  @ParameterizedTest(name = "v: {0}")
  @MethodSource("plainScalars")
  void typesScalarsLikeKubectl(String literal, JsonNode expected) {
    JsonNode v = single("v: " + literal + "\n").get("v");
    assertThat(v).isEqualTo(expected);
    assertThat(v.getClass()).isEqualTo(expected.getClass());
  }

  @Test
  void numberWithTooManyDigitsIsALimit() {
    String digits = "1".repeat(101);
    LoadResult r = load("a:\n  b: " + digits + "\n");
    assertThat(r.documents()).isEmpty();
    assertThat(r.diagnostics())
        .extracting(Diagnostic::code, Diagnostic::line, Diagnostic::column, Diagnostic::path)
        .containsExactly(tuple(Code.LIMIT, 2, 6, "a.b"));
    assertThat(single("a: " + "1".repeat(100) + "\n").get("a").isBigInteger()).isTrue();
    assertThat(load("a: 0." + "1".repeat(120) + "\n").diagnostics())
        .extracting(Diagnostic::code)
        .containsExactly(Code.LIMIT);
    // A quoted digit string is a string, whatever its length.
    assertThat(single("a: '" + digits + "'\n").get("a").textValue()).isEqualTo(digits);
  }

  @Test
  void infinityAndNanAreNotJsonNumbers() {
    LoadResult r = load("a: .inf\nb: -.Inf\nc: .NaN\nd: '.inf'\n");
    assertThat(r.diagnostics())
        .extracting(Diagnostic::code, Diagnostic::path)
        .containsExactly(
            tuple(Code.INVALID, "a"), tuple(Code.INVALID, "b"), tuple(Code.INVALID, "c"));
  }

  @Test
  void explicitTagsThatJsonCanHoldAreAccepted() {
    JsonNode doc =
        single(
            "s: !!str 12\n"
                + "i: !!int \"0x10\"\n"
                + "f: !!float 1\n"
                + "b: !!bool \"true\"\n"
                + "n: !!null ''\n"
                + "m: !!map {a: 1}\n"
                + "l: !!seq [1]\n"
                + "x: ! 12\n");
    assertThat(doc.toString())
        .isEqualTo(
            "{\"s\":\"12\",\"i\":16,\"f\":1.0,\"b\":true,\"n\":null,\"m\":{\"a\":1},"
                + "\"l\":[1],\"x\":\"12\"}");
  }

  @Test
  void otherTagsAreSyntaxErrors() {
    LoadResult r =
        load("a: !Ref foo\nb: !!binary aGVsbG8=\nc: !!int abc\nd: !!seq {x: 1}\ne: !!str [1]\n");
    assertThat(r.documents()).isEmpty();
    assertThat(r.diagnostics())
        .extracting(Diagnostic::code, Diagnostic::line, Diagnostic::column, Diagnostic::path)
        .containsExactly(
            tuple(Code.SYNTAX, 1, 4, "a"),
            tuple(Code.SYNTAX, 2, 4, "b"),
            tuple(Code.SYNTAX, 3, 4, "c"),
            tuple(Code.SYNTAX, 4, 4, "d"),
            tuple(Code.SYNTAX, 5, 4, "e"));
    assertThat(r.diagnostics().get(0).message()).startsWith("YAML tags are not supported: !Ref");
    assertThat(r.diagnostics().get(1).message())
        .startsWith("YAML tags are not supported: !!binary");
  }

  @Test
  void nonStringKeysBecomeTheirStringForm() {
    JsonNode doc = single("1: a\ntrue: b\n0x1F: c\n~: d\n'2': e\n1.5: f\n");
    assertThat(doc.toString())
        .isEqualTo(
            "{\"1\":\"a\",\"true\":\"b\",\"31\":\"c\",\"null\":\"d\",\"2\":\"e\",\"1.5\":\"f\"}");
  }

  @Test
  void complexKeysAndAliasKeysAreSyntaxErrors() {
    assertThat(load("a: 1\n? [x, y]\n: b\n").diagnostics())
        .extracting(Diagnostic::code, Diagnostic::line, Diagnostic::column, Diagnostic::message)
        .containsExactly(
            tuple(
                Code.SYNTAX,
                2,
                3,
                "mapping keys must be scalars (complex keys are not supported)"));
    assertThat(load("k: &k key\n*k : v\n").diagnostics())
        .extracting(Diagnostic::code, Diagnostic::line, Diagnostic::message)
        .containsExactly(tuple(Code.SYNTAX, 2, "aliases cannot be used as mapping keys"));
  }

  // --- positions -------------------------------------------------------------------------------

  @Test
  void indexesKeysAndValuesIncludingListsAndLaterDocuments() {
    String text =
        "apiVersion: v1\n"
            + "kind: Pod\n"
            + "spec:\n"
            + "  containers:\n"
            + "  - name: main\n"
            + "    args: [\"-c\", x]\n"
            + "  -   name: side\n"
            + "---\n"
            + "# second\n"
            + "kind: Service\n"
            + "metadata:\n"
            + "    name: svc\n";
    LoadResult r = load(text);
    assertThat(r.diagnostics()).isEmpty();
    assertThat(r.documents()).extracting(Document::index).containsExactly(0, 1);
    SourceIndex first = r.documents().get(0).positions();
    FieldPath containers = FieldPath.of("spec", "containers");
    assertThat(first.documentStart()).isEqualTo(at(1, 1));
    assertThat(first.at(FieldPath.of("kind"))).isEqualTo(at(2, 1));
    assertThat(first.valueAt(FieldPath.of("kind"))).isEqualTo(at(2, 7));
    assertThat(first.at(containers)).isEqualTo(at(4, 3));
    assertThat(first.valueAt(containers)).isEqualTo(at(5, 3));
    assertThat(first.valueAt(containers.index(0))).isEqualTo(at(5, 5));
    assertThat(first.at(containers.index(0).child("name"))).isEqualTo(at(5, 5));
    assertThat(first.valueAt(containers.index(0).child("name"))).isEqualTo(at(5, 11));
    assertThat(first.valueAt(containers.index(0).child("args").index(1))).isEqualTo(at(6, 18));
    assertThat(first.at(containers.index(1).child("name"))).isEqualTo(at(7, 7));
    // A missing field points at its deepest existing ancestor's key.
    assertThat(first.at(containers.index(1).child("image"))).isEqualTo(at(7, 7));
    assertThat(first.has(containers.index(1).child("image"))).isFalse();

    SourceIndex second = r.documents().get(1).positions();
    assertThat(second.documentStart()).isEqualTo(at(10, 1));
    assertThat(second.at(FieldPath.of("metadata", "name"))).isEqualTo(at(12, 5));
    assertThat(second.valueAt(FieldPath.of("metadata", "name"))).isEqualTo(at(12, 11));
  }

  @Test
  void positionsAreRightWithCrlfAndByteOrderMark() {
    LoadResult r = load("\uFEFFa: 1\r\nb:\r\n  c: \"x\"\r\n---\r\nd: [1, 2]\r\n");
    assertThat(r.diagnostics()).isEmpty();
    SourceIndex first = r.documents().get(0).positions();
    assertThat(first.at(FieldPath.of("a"))).isEqualTo(at(1, 1));
    assertThat(first.valueAt(FieldPath.of("a"))).isEqualTo(at(1, 4));
    assertThat(first.at(FieldPath.of("b", "c"))).isEqualTo(at(3, 3));
    assertThat(first.valueAt(FieldPath.of("b", "c"))).isEqualTo(at(3, 6));
    assertThat(r.documents().get(0).root().get("b").get("c").textValue()).isEqualTo("x");
    assertThat(r.documents().get(1).positions().valueAt(FieldPath.of("d").index(1)))
        .isEqualTo(at(5, 8));
  }

  @Test
  void mapFieldKeysArePrintedInBrackets() {
    LoadResult r = load("metadata:\n  labels:\n    app: x\n    app: y\n");
    assertThat(r.diagnostics())
        .extracting(Diagnostic::path)
        .containsExactly("metadata.labels[app]");
  }

  // --- documents -------------------------------------------------------------------------------

  @Test
  void skipsEmptyDocumentsAndKeepsStreamIndices() {
    LoadResult r = load("# only a comment\n---\n---\n# nothing\n---\na: 1\n---\n...\n---\nb: 2\n");
    assertThat(r.diagnostics()).isEmpty();
    assertThat(r.documents())
        .extracting(d -> d.root().toString())
        .containsExactly("{\"a\":1}", "{\"b\":2}");
    assertThat(r.documents()).extracting(Document::index).containsExactly(2, 4);
    assertThat(load("").documents()).isEmpty();
    assertThat(load("# just this\n").documents()).isEmpty();
    assertThat(load("").diagnostics()).isEmpty();
  }

  @Test
  void scalarDocumentsAreKept() {
    assertThat(single("--- hello\n").textValue()).isEqualTo("hello");
  }

  // --- duplicates ------------------------------------------------------------------------------

  @Test
  void reportsEveryDuplicateKeyAtTheSecondKey() {
    String text =
        "spec:\n"
            + "  replicas: 1\n"
            + "  template: {}\n"
            + "  replicas: 2\n"
            + "  replicas: 3\n"
            + "kind: A\n"
            + "kind: B\n";
    LoadResult r = load(text);
    assertThat(r.diagnostics())
        .extracting(
            Diagnostic::code,
            Diagnostic::line,
            Diagnostic::column,
            Diagnostic::path,
            Diagnostic::message)
        .containsExactly(
            tuple(
                Code.DUPLICATE,
                4,
                3,
                "spec.replicas",
                "duplicate key \"replicas\" (first defined at line 2)"),
            tuple(
                Code.DUPLICATE,
                5,
                3,
                "spec.replicas",
                "duplicate key \"replicas\" (first defined at line 2)"),
            tuple(
                Code.DUPLICATE, 7, 1, "kind", "duplicate key \"kind\" (first defined at line 6)"));
    // The document is kept, with the first value, so later steps can report more.
    assertThat(r.documents()).hasSize(1);
    JsonNode root = r.documents().get(0).root();
    assertThat(root.get("spec").get("replicas").intValue()).isEqualTo(1);
    assertThat(r.documents().get(0).positions().valueAt(FieldPath.of("spec", "replicas")))
        .isEqualTo(at(2, 13));
  }

  // --- anchors, aliases, merge keys ------------------------------------------------------------

  @Test
  void aliasYieldsTheAnchoredContentNotTheAnchorName() {
    JsonNode doc =
        single(
            "image: &img registry.example/app:1.0\n"
                + "env: &env\n"
                + "  - name: A\n"
                + "    value: '1'\n"
                + "other: *img\n"
                + "copy: *env\n"
                + "n: &n 5\n"
                + "m: *n\n");
    assertThat(doc.get("other").textValue()).isEqualTo("registry.example/app:1.0");
    assertThat(doc.get("copy")).isEqualTo(doc.get("env"));
    assertThat(doc.get("m")).isEqualTo(IntNode.valueOf(5));
    // A deep copy: changing the copy leaves the anchored node alone.
    ((ObjectNode) doc.get("copy").get(0)).put("name", "B");
    assertThat(doc.get("env").get(0).get("name").textValue()).isEqualTo("A");
  }

  @Test
  void nodesFromAnAliasArePositionedAtTheAlias() {
    LoadResult r = load("base: &b\n  a:\n    x: 1\nuse: *b\n");
    SourceIndex index = r.documents().get(0).positions();
    assertThat(index.valueAt(FieldPath.of("use"))).isEqualTo(at(4, 6));
    assertThat(index.at(FieldPath.of("use", "a", "x"))).isEqualTo(at(4, 6));
    assertThat(index.valueAt(FieldPath.of("use", "a", "x"))).isEqualTo(at(4, 6));
    assertThat(index.valueAt(FieldPath.of("base", "a", "x"))).isEqualTo(at(3, 8));
  }

  @Test
  void mergeKeysLetExplicitKeysWinAndEarlierMapsWin() {
    JsonNode doc =
        single(
            "a: &a {x: 1, y: 1, k: a}\n"
                + "b: &b {x: 2, z: 2, k: b}\n"
                + "one:\n"
                + "  x: 0\n"
                + "  <<: *a\n"
                + "two:\n"
                + "  <<: [*a, *b]\n"
                + "  y: 9\n"
                + "inline:\n"
                + "  <<: {q: 1}\n"
                + "  r: 2\n"
                + "quoted:\n"
                + "  '<<': 1\n");
    assertThat(doc.get("one").toString()).isEqualTo("{\"x\":0,\"y\":1,\"k\":\"a\"}");
    assertThat(doc.get("two").toString()).isEqualTo("{\"x\":1,\"k\":\"a\",\"z\":2,\"y\":9}");
    assertThat(doc.get("inline").toString()).isEqualTo("{\"q\":1,\"r\":2}");
    assertThat(doc.get("quoted").toString()).isEqualTo("{\"<<\":1}");
  }

  @Test
  void mergedEntriesArePositioned() {
    LoadResult r = load("base: &b\n  cpu: 1\nres:\n  <<: *b\n  mem: 2\nin:\n  <<:\n    z: 3\n");
    SourceIndex index = r.documents().get(0).positions();
    assertThat(index.at(FieldPath.of("res", "cpu"))).isEqualTo(at(4, 7));
    assertThat(index.at(FieldPath.of("res", "mem"))).isEqualTo(at(5, 3));
    assertThat(index.at(FieldPath.of("in", "z"))).isEqualTo(at(8, 5));
    assertThat(index.valueAt(FieldPath.of("in", "z"))).isEqualTo(at(8, 8));
    assertThat(index.has(FieldPath.of("res", "<<"))).isFalse();
  }

  @Test
  void badMergeValuesAndAliasesAreErrors() {
    assertThat(load("a:\n  <<: 1\n").diagnostics())
        .extracting(Diagnostic::code, Diagnostic::line, Diagnostic::column)
        .containsExactly(tuple(Code.SYNTAX, 2, 7));
    assertThat(load("a: *nope\n").diagnostics())
        .extracting(Diagnostic::code, Diagnostic::message)
        .containsExactly(tuple(Code.SYNTAX, "unknown alias *nope; define &nope first"));
    assertThat(load("a: &r\n  b: *r\n").diagnostics())
        .extracting(Diagnostic::code, Diagnostic::path)
        .containsExactly(tuple(Code.SYNTAX, "a.b"));
  }

  @Test
  void billionLaughsIsRejectedQuicklyAndNothingAfterItIsRead() {
    StringBuilder bomb =
        new StringBuilder(
            "a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n");
    for (char c = 'b'; c <= 'i'; c++) {
      char p = (char) (c - 1);
      bomb.append(c).append(": &").append(c).append(" [");
      for (int i = 0; i < 9; i++) {
        bomb.append(i == 0 ? "" : ",").append('*').append(p);
      }
      bomb.append("]\n");
    }
    bomb.append("---\nkind: Fine\n");
    LoadResult r = load(bomb.toString());
    assertThat(r.diagnostics())
        .extracting(Diagnostic::code, Diagnostic::message)
        .containsExactly(
            tuple(
                Code.LIMIT,
                "alias expansion exceeds 100000 nodes in one source; YAML alias bombs are"
                    + " rejected"));
    // 10 + 90 + 819 + 7380 + 66429 nodes fit; the first alias of line 6 would pass 100,000.
    assertThat(r.diagnostics().get(0).line()).isEqualTo(6);
    assertThat(r.documents()).isEmpty();
  }

  @Test
  void aliasBudgetCountsEveryExpandedNode() {
    YamlLoader small = new YamlLoader(new YamlLimits(1000, 10, 1000, 100, 4, 10));
    assertThat(small.load(new Source("s", "a: &a [1, 2]\nb: [*a]\n")).diagnostics()).isEmpty();
    assertThat(small.load(new Source("s", "a: &a [1, 2]\nb: [*a, *a]\n")).diagnostics())
        .extracting(Diagnostic::code, Diagnostic::line, Diagnostic::column)
        .containsExactly(tuple(Code.LIMIT, 2, 9));
  }

  // --- limits ----------------------------------------------------------------------------------

  @Test
  void nestingDeeperThanTheLimitIsRejectedWithAPosition() {
    StringBuilder ok = new StringBuilder();
    StringBuilder deep = new StringBuilder();
    for (int i = 0; i < 100; i++) {
      ok.append("[");
    }
    ok.append("]".repeat(100));
    deep.append("a: ").append("[".repeat(101)).append("]".repeat(101)).append("\n---\nb: 1\n");
    assertThat(load(ok.toString()).diagnostics()).isEmpty();
    LoadResult r = load(deep.toString());
    assertThat(r.diagnostics())
        .extracting(Diagnostic::code, Diagnostic::line, Diagnostic::column, Diagnostic::message)
        .containsExactly(tuple(Code.LIMIT, 1, 103, "nesting is deeper than 100 levels"));
    // Nothing after a limit is read: scanning on through deep nesting takes quadratic time.
    assertThat(r.documents()).isEmpty();
    // Absurdly deep input still ends in the one LIMIT diagnostic.
    LoadResult absurd = load("[".repeat(200_000));
    assertThat(absurd.diagnostics()).extracting(Diagnostic::code).containsExactly(Code.LIMIT);
  }

  @Test
  void aliasesCannotExceedTheDepthEither() {
    YamlLoader shallow = new YamlLoader(new YamlLimits(1000, 3, 1000, 100, 100, 10));
    assertThat(shallow.load(new Source("s", "a: &a [[1]]\n")).diagnostics()).isEmpty();
    assertThat(shallow.load(new Source("s", "a: &a [[1]]\nb: [*a]\n")).diagnostics())
        .extracting(Diagnostic::code)
        .containsExactly(Code.LIMIT);
  }

  @Test
  void sourcesLongerThanTheLimitAreRejected() {
    YamlLoader small = new YamlLoader(new YamlLimits(20, 10, 1000, 100, 10, 10));
    LoadResult r = small.load(new Source("big.yaml", "a: 1\nb: 2\nc: 3\nd: 4\ne: 5\n"));
    assertThat(r.documents()).isEmpty();
    assertThat(r.diagnostics())
        .extracting(Diagnostic::code, Diagnostic::file, Diagnostic::line, Diagnostic::column)
        .containsExactly(tuple(Code.LIMIT, "big.yaml", 5, 1));
    assertThat(small.load(new Source("ok.yaml", "a: 1\nb: 2\nc: 3\nd: 4\n")).diagnostics())
        .isEmpty();
  }

  @Test
  void aSourceThatIsTooLongNamesTheFieldTheLimitFallsIn() {
    YamlLoader small = new YamlLoader(new YamlLimits(40, 10, 1000, 100, 10, 10));
    // 40 characters end inside the value of data.big.
    String inValue = "kind: ConfigMap\ndata:\n  big: " + "x".repeat(30) + "\n";
    assertThat(small.load(new Source("big.yaml", inValue)).diagnostics())
        .extracting(Diagnostic::code, d -> d.path(), Diagnostic::line, Diagnostic::column)
        .containsExactly(tuple(Code.LIMIT, "data[big]", 3, 19));
    // ... inside a key of data, which is cut short there: data.
    String inKey = "kind: ConfigMap\ndata:\n  a: " + "x".repeat(8) + "\n  second: 1\n";
    assertThat(small.load(new Source("big.yaml", inKey)).diagnostics())
        .extracting(Diagnostic::path)
        .containsExactly("data");
    // ... between two top-level entries: the document itself.
    String between = "a: " + "x".repeat(36) + "\nb: 1\n";
    assertThat(small.load(new Source("big.yaml", between)).diagnostics())
        .extracting(Diagnostic::path, Diagnostic::line, Diagnostic::column)
        .containsExactly(tuple("", 2, 1));
  }

  @Test
  void limitsCheckTheirArguments() {
    assertThat(YamlLimits.defaults())
        .isEqualTo(new YamlLimits(4_000_000, 100, 500_000, 10_000, 100_000, 100));
    assertThatThrownBy(() -> new YamlLimits(0, 1, 1, 1, 1, 1))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new YamlLimits(1, 0, 1, 1, 1, 1))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new YamlLimits(1, 1, 0, 1, 1, 1))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new YamlLimits(1, 1, 1, -1, 1, 1))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new YamlLimits(1, 1, 1, 1, -1, 1))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new YamlLimits(1, 1, 1, 1, 1, 0))
        .isInstanceOf(IllegalArgumentException.class);
  }

  // --- syntax errors ---------------------------------------------------------------------------

  @Test
  void syntaxErrorsHaveAPositionAndAOneLineMessage() {
    LoadResult r = load("apiVersion: v1\nkind: Pod\nmetadata:\n  name: a: b\n");
    assertThat(r.documents()).isEmpty();
    assertThat(r.diagnostics())
        .extracting(Diagnostic::code, Diagnostic::line, Diagnostic::column, Diagnostic::message)
        .containsExactly(tuple(Code.SYNTAX, 4, 10, "mapping values are not allowed here"));

    Diagnostic flow = load("a: [1, 2\nb: 3\n").diagnostics().get(0);
    assertThat(flow.code()).isEqualTo(Code.SYNTAX);
    assertThat(flow.line()).isEqualTo(2);
    assertThat(flow.message()).doesNotContain("\n").contains("flow sequence");

    Diagnostic tab = load("a:\n\tb: 1\n").diagnostics().get(0);
    assertThat(tab.code()).isEqualTo(Code.SYNTAX);
    assertThat(tab.line()).isEqualTo(2);
    assertThat(tab.message()).doesNotContain("\n");
  }

  @Test
  void aTabNamesTheKeyWhoseValueHoldsIt() {
    assertThat(load("apiVersion: v1\nkind: ConfigMap\nmetadata:\n\tname: x\n").diagnostics())
        .extracting(Diagnostic::code, Diagnostic::path, Diagnostic::line, Diagnostic::column)
        .containsExactly(tuple(Code.SYNTAX, "metadata", 4, 1));
    assertThat(load("data:\n  a:\n\t  b\n").diagnostics())
        .extracting(Diagnostic::code, Diagnostic::path)
        .containsExactly(tuple(Code.SYNTAX, "data[a]"));
    // Between two keys of a mapping: the mapping.
    assertThat(load("metadata:\n  name: x\n\tnamespace: y\n").diagnostics())
        .extracting(Diagnostic::code, Diagnostic::path)
        .containsExactly(tuple(Code.SYNTAX, "metadata"));
  }

  @Test
  void aLoneSurrogateIsAnErrorNotAQuestionMark() {
    LoadResult r = load("metadata:\n  name: \"x\\ud800\"\n  other: \"\\udc00\"\n");
    assertThat(r.documents()).isEmpty();
    assertThat(r.diagnostics())
        .extracting(Diagnostic::code, Diagnostic::path, Diagnostic::line, Diagnostic::column)
        .containsExactly(
            tuple(Code.SYNTAX, "metadata.name", 2, 9), tuple(Code.SYNTAX, "metadata.other", 3, 10));
    assertThat(load("\"\\ud800\": 1\n").diagnostics())
        .extracting(Diagnostic::code)
        .containsExactly(Code.SYNTAX);
    // A pair, as JSON writes characters beyond the BMP, is the character it stands for.
    assertThat(single("a: \"\\ud83d\\ude00 \\U0001F600\"\n").path("a").asText())
        .isEqualTo("\uD83D\uDE00 \uD83D\uDE00");
  }

  @Test
  void controlCharactersAreSyntaxErrors() {
    assertThat(load("a: 1\nb: x\u0007y\n").diagnostics())
        .extracting(Diagnostic::code, Diagnostic::line, Diagnostic::column)
        .containsExactly(tuple(Code.SYNTAX, 2, 5));
  }

  @Test
  void documentsBeforeASyntaxErrorAreKept() {
    LoadResult r = load("a: 1\n---\nb: [\n");
    assertThat(r.documents()).extracting(Document::index).containsExactly(0);
    assertThat(r.diagnostics()).extracting(Diagnostic::code).containsExactly(Code.SYNTAX);
  }

  @Test
  void nothingThrowsForArbitraryInput() {
    Random random = new Random(42);
    String alphabet = "ab:-[]{}&*!|>'\"#%@`?,\n \t\r0.~<\u00e9\u0000\uFEFF";
    for (int n = 0; n < 3000; n++) {
      StringBuilder s = new StringBuilder();
      int len = random.nextInt(40);
      for (int i = 0; i < len; i++) {
        s.append(alphabet.charAt(random.nextInt(alphabet.length())));
      }
      LoadResult r = load(s.toString());
      assertThat(r.diagnostics()).as("input %s", s).noneMatch(d -> d.code() == Code.INTERNAL);
    }
  }

  @Test
  void nothingAfterATooDeepNodeIsRead() {
    String deep = "a: " + "[".repeat(150) + "]".repeat(150) + "\nb:\n  ? [x]\n  : 1\n";
    LoadResult r = load(deep + "---\nc: 3\n");
    assertThat(r.diagnostics())
        .extracting(Diagnostic::code, Diagnostic::message)
        .containsExactly(tuple(Code.LIMIT, "nesting is deeper than 100 levels"));
    assertThat(r.documents()).isEmpty();
  }

  /**
   * Positions are kept without spelling out a path per node: a 20,000-character key over 20,000
   * items costs no copy of the key per item (it cost 20,000 of them, 800 MB, when every node's
   * position was keyed by its JSON pointer). Allocation is measured, not time.
   */
  @Test
  void aLongKeyOverManyItemsCostsNoCopyOfItPerItem() {
    String key = "k".repeat(20_000);
    String text = "data:\n  ? " + key + "\n  : [" + "a,".repeat(19_999) + "a]\n";
    var threads =
        (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
    load("warm: [up]\n");
    long before = threads.getCurrentThreadAllocatedBytes();
    LoadResult r = load(text);
    long allocated = threads.getCurrentThreadAllocatedBytes() - before;
    assertThat(r.diagnostics()).isEmpty();
    assertThat(
            r.documents().get(0).positions().valueAt(FieldPath.of("data").key(key).index(19_999)))
        .isEqualTo(new Position(3, 40_004));
    assertThat(allocated).as("bytes allocated").isLessThan(64L * 1024 * 1024);
  }
}
