package dev.jobc.render;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.BigIntegerNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.jobc.load.LoadResult;
import dev.jobc.load.YamlLimits;
import dev.jobc.load.YamlLoader;
import dev.jobc.model.Source;
import java.math.BigInteger;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.yaml.snakeyaml.Yaml;

class YamlWriterTest {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private final YamlWriter writer = new YamlWriter();
  private final YamlLoader loader = new YamlLoader(YamlLimits.defaults());

  private JsonNode load(String yaml) {
    LoadResult r = loader.load(new Source("out.yaml", yaml));
    assertThat(r.diagnostics()).as(yaml).isEmpty();
    assertThat(r.documents()).as(yaml).hasSize(1);
    return r.documents().get(0).root();
  }

  private static ObjectNode json(String text) {
    try {
      return (ObjectNode) new ObjectMapper().readTree(text);
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalArgumentException(e);
    }
  }

  private String writeValue(JsonNode value) {
    ObjectNode doc = NODES.objectNode();
    doc.set("k", value);
    return writer.write(doc, false);
  }

  /** What a YAML 1.1 reader (SnakeYAML's own constructor, not jobc's loader) reads back. */
  private static Object readYaml11(String yaml) {
    Map<?, ?> map = new Yaml().load(yaml);
    return map.get("k");
  }

  // --- quoting ---------------------------------------------------------------------------------

  @ParameterizedTest(name = "[{index}] <{0}> -> {1}")
  @CsvSource(
      delimiterString = "=>",
      quoteCharacter = '`',
      emptyValue = "",
      nullValues = "NIL",
      textBlock =
          """
          ``                => ""
          true              => "true"
          False             => "False"
          yes               => "yes"
          no                => "no"
          on                => "on"
          OFF               => "OFF"
          y                 => "y"
          n                 => "n"
          null              => "null"
          ~                 => "~"
          1                 => "1"
          -1                => "-1"
          +1                => "+1"
          0755              => "0755"
          0o755             => "0o755"
          1e3               => "1e3"
          1.5               => "1.5"
          .5                => ".5"
          0x1F              => "0x1F"
          1_000             => "1_000"
          1:20              => "1:20"
          2001-12-14        => "2001-12-14"
          .inf              => ".inf"
          -.INF             => "-.INF"
          .nan              => ".nan"
          <<                => "<<"
          =                 => "="
          -                 => "-"
          ---               => "---"
          ...               => "..."
          `- a`             => "- a"
          ` lead`           => " lead"
          `trail `          => "trail "
          *ref              => "*ref"
          &anchor           => "&anchor"
          !tag              => "!tag"
          `|pipe`           => "|pipe"
          >gt               => ">gt"
          %pct              => "%pct"
          @at               => "@at"
          `{brace`          => "{brace"
          [bracket          => "[bracket"
          ?q                => "?q"
          :colon            => ":colon"
          #hash             => "#hash"
          `'single`         => "'single"
          `"double`         => "\\"double"
          `a: b`            => "a: b"
          `a #b`            => "a #b"
          key:              => "key:"
          `tab\there`       => NIL
          plain             => plain
          foo bar           => foo bar
          a:b               => a:b
          a#b               => a#b
          http://x.y/z?a=b  => http://x.y/z?a=b
          --flag=1          => --flag=1
          -Xmx1g            => -Xmx1g
          1.2.3             => 1.2.3
          10.0.0.1          => 10.0.0.1
          v1                => v1
          nvidia.com/gpu    => nvidia.com/gpu
          x[0]              => x[0]
          café              => café
          $(HOME)           => $(HOME)
          """)
  void quotesExactlyWhatAReaderWouldNotReadBack(String value, String expected) {
    String text = value.replace("\\t", "\t");
    String out = writeValue(TextNode.valueOf(text));
    if (expected != null) {
      assertThat(out).isEqualTo("k: " + expected + "\n");
    }
    assertThat(load(out).get("k").textValue()).isEqualTo(text);
    assertThat(readYaml11(out)).isEqualTo(text);
  }

  @Test
  void escapesWhatCannotBePrinted() {
    assertThat(writeValue(TextNode.valueOf("a\tb"))).isEqualTo("k: \"a\\tb\"\n");
    assertThat(writeValue(TextNode.valueOf("bell\u0007"))).isEqualTo("k: \"bell\\x07\"\n");
    assertThat(writeValue(TextNode.valueOf("ls\u2028x"))).isEqualTo("k: \"ls\\Lx\"\n");
    assertThat(writeValue(TextNode.valueOf("bom\uFEFF"))).isEqualTo("k: \"bom\\uFEFF\"\n");
    assertThat(writeValue(TextNode.valueOf("back\\slash \"q\"")))
        .isEqualTo("k: back\\slash \"q\"\n");
    for (String s : new String[] {"a\tb", "bell\u0007", "ls\u2028x", "bom\uFEFF", "\uD83D\uDE00"}) {
      String out = writeValue(TextNode.valueOf(s));
      assertThat(load(out).get("k").textValue()).isEqualTo(s);
      assertThat(readYaml11(out)).isEqualTo(s);
    }
  }

  @Test
  void keysAreQuotedLikeValues() {
    ObjectNode doc = json("{\"true\": 1, \"a: b\": 2, \"\": 3, \"1\": 4, \"plain\": 5, \"<<\": 6}");
    assertThat(writer.write(doc, false))
        .isEqualTo("\"true\": 1\n\"a: b\": 2\n\"\": 3\n\"1\": 4\nplain: 5\n\"<<\": 6\n");
    assertThat(load(writer.write(doc, false))).isEqualTo(doc);
  }

  @Test
  void veryLongKeysUseTheExplicitForm() {
    String key = "k".repeat(1500);
    ObjectNode doc = NODES.objectNode();
    doc.put(key, "v");
    doc.putArray("list").add(NODES.objectNode().put(key, 1));
    String out = writer.write(doc, false);
    assertThat(out).startsWith("? " + key + "\n: v\n");
    assertThat(load(out)).isEqualTo(doc);
  }

  // --- multi-line strings ----------------------------------------------------------------------

  @Test
  void multiLineStringsAreLiteralBlocksWithExactChomping() {
    ObjectNode doc = NODES.objectNode();
    doc.put("script", "#!/bin/sh\nset -e\n\necho \"a: b\" # not a comment\n");
    doc.put("clip", "a slots=2\nb slots=2\n");
    doc.put("strip", "no\nnewline");
    doc.put("keep", "blank\nlines\n\n\n");
    doc.put("tabs", "\tindented\n\twith tabs\n");
    doc.put("end", "x");
    String out = writer.write(doc, false);
    assertThat(out)
        .isEqualTo(
            """
            script: |
              #!/bin/sh
              set -e

              echo "a: b" # not a comment
            clip: |
              a slots=2
              b slots=2
            strip: |-
              no
              newline
            keep: |+
              blank
              lines


            tabs: |
              \tindented
              \twith tabs
            end: x
            """);
    assertThat(load(out)).isEqualTo(doc);
    assertThat(new Yaml().<Map<String, Object>>load(out))
        .isEqualTo(new ObjectMapper().convertValue(doc, Map.class));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "trailing \nspace",
        "trailing\ttab\t\nx",
        "  leading space\nfirst line",
        "\n  leading after blank",
        "carriage\r\nreturn",
        "\n\n",
        "bell\u0007\nx",
        "nel\u0085\nx"
      })
  void textALiteralBlockCannotCarryIsDoubleQuoted(String s) {
    String out = writeValue(TextNode.valueOf(s));
    assertThat(out).startsWith("k: \"").endsWith("\"\n");
    assertThat(load(out).get("k").textValue()).isEqualTo(s);
    assertThat(readYaml11(out)).isEqualTo(s);
  }

  @Test
  void keptBlankLinesAtTheEndOfTheDocumentAreQuotedSoItEndsInOneNewline() {
    assertThat(writeValue(TextNode.valueOf("a\n\n"))).isEqualTo("k: \"a\\n\\n\"\n");
    ObjectNode doc = NODES.objectNode().put("k", "a\n\n").put("z", 1);
    assertThat(writer.write(doc, false)).isEqualTo("k: |+\n  a\n\nz: 1\n");
  }

  @Test
  void literalBlocksInListsAndAtTheRoot() {
    ArrayNode list = NODES.arrayNode().add("one\ntwo\n").add(NODES.objectNode().put("s", "x\ny"));
    assertThat(writer.write(list, false)).isEqualTo("- |\n  one\n  two\n- s: |-\n    x\n    y\n");
    assertThat(load(writer.write(list, false).replaceFirst("^", "k:\n")).get("k")).isEqualTo(list);
    assertThat(writer.write(TextNode.valueOf("a\nb\n"), false)).isEqualTo("|\n  a\n  b\n");
  }

  // --- layout ----------------------------------------------------------------------------------

  @Test
  void layoutMatchesKubectl() {
    ObjectNode doc =
        json(
"""
{"apiVersion": "v1", "kind": "Pod",
 "metadata": {"name": "p", "labels": {}, "annotations": {"a": "1"}},
 "spec": {"containers": [{"name": "c", "args": ["-c", "echo"], "ports": [],
   "env": [{"name": "A", "value": "true"}]}],
   "matrix": [[1, 2], [], [{"x": null}]], "enabled": false, "big": 123456789012345678901234567890}}
""");
    ((ObjectNode) doc.get("spec")).set("ratio", DoubleNode.valueOf(0.1));
    assertThat(writer.write(doc, false))
        .isEqualTo(
            """
            apiVersion: v1
            kind: Pod
            metadata:
              name: p
              labels: {}
              annotations:
                a: "1"
            spec:
              containers:
              - name: c
                args:
                - -c
                - echo
                ports: []
                env:
                - name: A
                  value: "true"
              matrix:
              - - 1
                - 2
              - []
              - - x: null
              enabled: false
              big: 123456789012345678901234567890
              ratio: 0.1
            """);
  }

  @Test
  void rootScalarsAndEmptyContainers() {
    assertThat(writer.write(NODES.objectNode(), true)).isEqualTo("{}\n");
    assertThat(writer.write(NODES.arrayNode(), true)).isEqualTo("[]\n");
    assertThat(writer.write(TextNode.valueOf("hi"), true)).isEqualTo("hi\n");
    assertThat(writer.write(NODES.nullNode(), true)).isEqualTo("null\n");
  }

  @Test
  void numbersPrintExactly() {
    assertThat(writeValue(BigIntegerNode.valueOf(new BigInteger("-98765432109876543210"))))
        .isEqualTo("k: -98765432109876543210\n");
    assertThat(YamlWriter.formatDouble(0.1)).isEqualTo("0.1");
    assertThat(YamlWriter.formatDouble(1.0)).isEqualTo("1.0");
    assertThat(YamlWriter.formatDouble(-2.5)).isEqualTo("-2.5");
    assertThat(YamlWriter.formatDouble(1e21)).isEqualTo("1.0e+21");
    assertThat(YamlWriter.formatDouble(1.5e-7)).isEqualTo("1.5e-7");
    assertThat(YamlWriter.formatDouble(0.0001)).isEqualTo("0.0001");
    assertThat(YamlWriter.formatDouble(100)).isEqualTo("100.0");
    assertThat(YamlWriter.formatDouble(-0.0)).isEqualTo("-0.0");
    // JDK 17's Double.toString gives 2.0E-3 here and extra digits for some values; not us.
    assertThat(YamlWriter.formatDouble(2.0e-3)).isEqualTo("0.002");
    assertThat(YamlWriter.formatDouble(5e-324)).isEqualTo("5.0e-324");
    assertThat(YamlWriter.formatDouble(1.7976931348623157e308))
        .isEqualTo("1.7976931348623157e+308");
    for (double d : new double[] {0.1, 1.0 / 3, 2.82879384806159e17, 1e23, 5e-324, 123.456}) {
      String text = YamlWriter.formatDouble(d);
      assertThat(Double.parseDouble(text)).isEqualTo(d);
      assertThat(load("k: " + text + "\n").get("k").doubleValue()).isEqualTo(d);
      assertThat(readYaml11("k: " + text + "\n")).isEqualTo(d);
    }
  }

  // --- order -----------------------------------------------------------------------------------

  @Test
  void canonicalOrderPutsKubernetesKeysFirstThenSortsEveryMapping() {
    ObjectNode doc =
        json(
            """
            {"spec": {"b": 1, "a": 2, "name": "nm"}, "metadata": {"labels": {"z": "1", "a": "2"},
             "namespace": "ns", "name": "x", "annotations": {}, "generateName": "g-", "uid": "u"},
             "kind": "Job", "Zeta": 1, "apiVersion": "batch/v1", "data": {"b": 1, "B": 2, "_": 3}}
            """);
    assertThat(writer.write(doc, true))
        .isEqualTo(
            """
            apiVersion: batch/v1
            kind: Job
            metadata:
              name: x
              generateName: g-
              namespace: ns
              labels:
                a: "2"
                z: "1"
              annotations: {}
              uid: u
            Zeta: 1
            data:
              B: 2
              _: 3
              b: 1
            spec:
              name: nm
              a: 2
              b: 1
            """);
    assertThat(writer.write(doc, false))
        .startsWith("spec:\n  b: 1\n  a: 2\n  name: nm\nmetadata:\n");
  }

  @Test
  void outputDoesNotDependOnTheLocale() {
    ObjectNode doc =
        json("{\"id\": 1, \"ID\": 2, \"title\": \"TITLE\", \"İ\": 3, \"ı\": 4, \"Index\": 5}");
    doc.put("ratio", 1234.5);
    Locale saved = Locale.getDefault();
    String turkish;
    try {
      Locale.setDefault(new Locale("tr", "TR"));
      turkish = writer.write(doc, true);
    } finally {
      Locale.setDefault(saved);
    }
    Locale.setDefault(Locale.ROOT);
    String root;
    try {
      root = writer.write(doc, true);
    } finally {
      Locale.setDefault(saved);
    }
    assertThat(turkish).isEqualTo(root);
    assertThat(root).isEqualTo("ID: 2\nIndex: 5\nid: 1\nratio: 1234.5\ntitle: TITLE\nİ: 3\nı: 4\n");
  }

  // --- fixed point -----------------------------------------------------------------------------

  private static final String REALISTIC =
      """
      apiVersion: batch/v1
      kind: Job
      metadata:
        name: pi-launcher
        namespace: default
        labels:
          training.kubeflow.org/job-name: pi
          app.kubernetes.io/managed-by: jobc
        annotations:
          jobc.dev/source: "in.yaml"
      spec:
        backoffLimit: 6
        ttlSecondsAfterFinished: 60
        suspend: false
        template:
          spec:
            restartPolicy: OnFailure
            volumes:
            - name: config
              configMap:
                name: pi-config
                defaultMode: 0755
                items:
                - key: hostfile
                  path: hostfile
            containers:
            - name: launcher
              image: mpioperator/mpi-pi:openmpi
              command: [mpirun]
              args: ["-n", "2", --allow-run-as-root, "true", "0755", "", "1e3"]
              env:
              - name: OMPI_MCA_orte_keep_fqdn_hostnames
                value: "true"
              - name: SCRIPT
                value: |
                  #!/bin/sh
                  set -e
                  for h in $(cat /etc/mpi/hostfile); do
                    echo "host: $h" # resolved
                  done
              - name: NOEOL
                value: |-
                  last line
                  without newline
              - name: BLANKS
                value: |+
                  kept


              resources:
                limits:
                  cpu: 0.5
                  memory: 1Gi
                  nvidia.com/gpu: 1
      ---
      apiVersion: apps/v1
      kind: StatefulSet
      metadata:
        name: pi-worker
      spec:
        podManagementPolicy: Parallel
        serviceName: pi
        replicas: 2
        selector:
          matchLabels: {training.kubeflow.org/job-role: worker}
        template:
          metadata:
            labels:
              training.kubeflow.org/job-role: worker
          spec:
            containers:
            - name: worker
              image: mpioperator/mpi-pi:openmpi
              command: ["sleep"]
              args: [infinity]
              ports: []
              env: []
      ---
      apiVersion: v1
      kind: ConfigMap
      metadata:
        name: pi-config
      data:
        hostfile: "pi-worker-0.pi.default.svc slots=2\\npi-worker-1.pi.default.svc slots=2\\n"
        discover_hosts.sh: |
          #!/bin/sh
          echo pi-worker-0.pi.default.svc:2
        trailing-blank: "x\\n\\n\\n"
        spaces: "a \\nb"
        "on": "yes"
      """;

  @Test
  void writingWhatWasReadIsAFixedPoint() {
    LoadResult r = loader.load(new Source("realistic.yaml", REALISTIC));
    assertThat(r.diagnostics()).isEmpty();
    assertThat(r.documents()).hasSize(3);
    for (boolean canonical : new boolean[] {true, false}) {
      for (var d : r.documents()) {
        String once = writer.write(d.root(), canonical);
        JsonNode reread = load(once);
        assertThat(reread).isEqualTo(d.root());
        assertThat(writer.write(reread, canonical)).isEqualTo(once);
        assertThat(once).endsWith("\n").doesNotEndWith("\n\n").doesNotStartWith("---");
      }
    }
    String configMap = writer.write(r.documents().get(2).root(), true);
    assertThat(configMap)
        .isEqualTo(
            """
            apiVersion: v1
            kind: ConfigMap
            metadata:
              name: pi-config
            data:
              discover_hosts.sh: |
                #!/bin/sh
                echo pi-worker-0.pi.default.svc:2
              hostfile: |
                pi-worker-0.pi.default.svc slots=2
                pi-worker-1.pi.default.svc slots=2
              "on": "yes"
              spaces: "a \\nb"
              trailing-blank: "x\\n\\n\\n"
            """);
  }

  /** Every string go-yaml v3 would read as something else is quoted, and reads back a string. */
  @ParameterizedTest(name = "[{index}] <{0}>")
  @ValueSource(
      strings = {
        "~", "null", "Null", "NULL", "true", "True", "TRUE", "0x1F", "0o17", "017", "1_000", ".inf",
        "-.Inf", ".nan", "1e3", "+1", "08", "yes", "on", "<<"
      })
  void stringsThatResolveToAnotherTypeAreQuoted(String text) {
    assertThat(YamlWriter.plainFits(text)).isFalse();
    ObjectNode doc = NODES.objectNode().put("v", text);
    String yaml = writer.write(doc, false);
    assertThat(yaml).isEqualTo("v: \"" + text + "\"\n");
    assertThat(load(yaml).get("v")).isEqualTo(TextNode.valueOf(text));
  }

  @ParameterizedTest(name = "[{index}] <{0}>")
  @ValueSource(strings = {"hello", "1.2.3", "0x", "1e", "nULL", ".inF"})
  void stringsThatGoYamlReadsAsStringsStayPlain(String text) {
    assertThat(YamlWriter.plainFits(text)).isTrue();
  }
}
