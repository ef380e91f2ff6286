package dev.jobc.validate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jobc.diag.Code;
import dev.jobc.diag.Finding;
import java.util.List;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.Test;

/** (code, path) pairs only; the wording is pinned in the passthrough-error-* golden cases. */
class ObjectIdentityTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  private static ObjectNode object(String kind, Object name) {
    ObjectNode o = JSON.createObjectNode().put("apiVersion", "v1").put("kind", kind);
    if (name != null) {
      o.putObject("metadata").set("name", JSON.valueToTree(name));
    }
    return o;
  }

  private static List<Tuple> pairs(List<Finding> findings) {
    return findings.stream().map(f -> tuple(f.code(), f.path().toString())).toList();
  }

  @Test
  void headerNeedsAnObjectWithApiVersionAndAValidKind() {
    assertThat(pairs(ObjectIdentity.header(JSON.valueToTree(List.of(1)))))
        .containsExactly(tuple(Code.INVALID, ""));
    assertThat(pairs(ObjectIdentity.header(JSON.valueToTree("text"))))
        .containsExactly(tuple(Code.INVALID, ""));
    assertThat(pairs(ObjectIdentity.header(JSON.createObjectNode())))
        .containsExactly(tuple(Code.REQUIRED, "apiVersion"), tuple(Code.REQUIRED, "kind"));
    ObjectNode numbers = JSON.createObjectNode().put("apiVersion", 1).put("kind", 2);
    assertThat(pairs(ObjectIdentity.header(numbers)))
        .containsExactly(tuple(Code.INVALID, "apiVersion"), tuple(Code.INVALID, "kind"));
    for (String kind :
        List.of("../../x/ConfigMap", "Config Map", "1Pod", "Config-Map", "K" + "i".repeat(63))) {
      assertThat(pairs(ObjectIdentity.header(object(kind, "x"))))
          .as(kind)
          .containsExactly(tuple(Code.INVALID, "kind"));
    }
    for (String kind : List.of("ConfigMap", "x", "MPIJob", "K" + "i".repeat(62))) {
      assertThat(ObjectIdentity.header(object(kind, "x"))).as(kind).isEmpty();
    }
  }

  @Test
  void passedThroughObjectsNeedAPathSegmentName() {
    for (String name :
        List.of(
            "system:aggregate-to-admin",
            "app-${ENV}",
            "Upper_Case.and~more",
            "día",
            "n".repeat(ObjectIdentity.NAME_MAX))) {
      assertThat(ObjectIdentity.passThrough(object("ClusterRole", name))).as(name).isEmpty();
    }
    for (String name :
        List.of(
            ".",
            "..",
            "a/b",
            "50%",
            "a\n/etc/passwd:1:1: error: x",
            "tab\there",
            "bidi\u202eevil",
            "n".repeat(ObjectIdentity.NAME_MAX + 1))) {
      assertThat(pairs(ObjectIdentity.passThrough(object("ConfigMap", name))))
          .as(name)
          .containsExactly(tuple(Code.INVALID, "metadata.name"));
    }
    assertThat(pairs(ObjectIdentity.passThrough(object("ConfigMap", 5))))
        .containsExactly(tuple(Code.INVALID, "metadata.name"));
    assertThat(pairs(ObjectIdentity.passThrough(object("ConfigMap", ""))))
        .containsExactly(tuple(Code.REQUIRED, "metadata.name"));
    assertThat(pairs(ObjectIdentity.passThrough(object("ConfigMap", null))))
        .containsExactly(tuple(Code.REQUIRED, "metadata.name"));
  }

  @Test
  void aNamespaceFollowsTheSameRule() {
    ObjectNode o = object("ConfigMap", "x");
    ((ObjectNode) o.get("metadata")).put("namespace", "${NS}");
    assertThat(ObjectIdentity.passThrough(o)).isEmpty();
    for (String namespace : List.of("..", "a/b", "a\nb", "n".repeat(64))) {
      ((ObjectNode) o.get("metadata")).put("namespace", namespace);
      assertThat(pairs(ObjectIdentity.passThrough(o)))
          .as(namespace)
          .containsExactly(tuple(Code.INVALID, "metadata.namespace"));
    }
  }

  @Test
  void listsAreNotPassedThrough() {
    JsonNode list = object("List", null).set("items", JSON.createArrayNode());
    assertThat(pairs(ObjectIdentity.passThrough(list)))
        .containsExactly(tuple(Code.NOT_SUPPORTED, "kind"));
    JsonNode podList = object("PodList", null).set("items", JSON.createArrayNode());
    assertThat(pairs(ObjectIdentity.passThrough(podList)))
        .containsExactly(tuple(Code.NOT_SUPPORTED, "kind"));
  }
}
