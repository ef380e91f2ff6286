package dev.jobc.bind;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link ObjectTrees} binds with lazily built property deserializers; these tests hold it to what
 * Jackson's default (eager) binding gives.
 */
class ObjectTreesTest {
  /** Jackson as it binds without jobc's lazy properties: the reference. */
  private static final ObjectMapper EAGER =
      JsonMapper.builder()
          .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
          .defaultPropertyInclusion(
              JsonInclude.Value.construct(
                  JsonInclude.Include.NON_NULL, JsonInclude.Include.NON_NULL))
          .build();

  /**
   * Most kinds of value a pod template holds: nested beans, lists, maps, quantities,
   * ints-or-strings.
   */
  private static final String RICH_TEMPLATE =
      """
      {"metadata": {"labels": {"app": "pi"}, "annotations": {"a": "b"}},
       "spec": {
         "hostNetwork": true,
         "affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution":
           {"nodeSelectorTerms": [{"matchExpressions":
             [{"key": "gpu", "operator": "In", "values": ["a100"]}]}]}}},
         "tolerations": [{"key": "k", "operator": "Exists", "effect": "NoSchedule"}],
         "securityContext": {"runAsUser": 1000, "fsGroup": 2000},
         "volumes": [
           {"name": "shm", "emptyDir": {"medium": "Memory", "sizeLimit": "1Gi"}},
           {"name": "data", "persistentVolumeClaim": {"claimName": "d", "readOnly": true}},
           {"name": "cfg", "configMap": {"name": "c", "items": [{"key": "k", "path": "p", "mode": 292}]}}],
         "initContainers": [{"name": "init", "image": "busybox", "command": ["true"]}],
         "containers": [{
           "name": "main", "image": "mpioperator/mpi-pi", "args": ["-n", "2"],
           "env": [{"name": "A", "value": "1"},
                   {"name": "POD", "valueFrom": {"fieldRef": {"fieldPath": "metadata.name"}}}],
           "ports": [{"containerPort": 2222, "name": "ssh"}],
           "resources": {"limits": {"cpu": 2, "memory": "4Gi", "nvidia.com/gpu": "1"},
                         "requests": {"cpu": "500m"}},
           "livenessProbe": {"tcpSocket": {"port": "ssh"}, "periodSeconds": 5},
           "readinessProbe": {"httpGet": {"path": "/", "port": 8080}},
           "lifecycle": {"preStop": {"exec": {"command": ["sh", "-c", "sleep 1"]}}},
           "volumeMounts": [{"name": "shm", "mountPath": "/dev/shm"}],
           "securityContext": {"capabilities": {"add": ["IPC_LOCK"]}}}],
         "unknownField": {"kept": ["as", "additional", "property"]}}}
      """;

  @Test
  void bindsWhatEagerJacksonBinds() throws Exception {
    JsonNode tree = EAGER.readTree(RICH_TEMPLATE);

    PodTemplateSpec lazy = ObjectTrees.bind(tree, PodTemplateSpec.class);
    PodTemplateSpec eager = EAGER.convertValue(tree, PodTemplateSpec.class);

    assertThat(lazy).isEqualTo(eager);
    assertThat(ObjectTrees.tree(lazy)).isEqualTo(EAGER.valueToTree(eager));
    assertThat(lazy.getSpec().getContainers().get(0).getResources().getLimits().get("cpu"))
        .hasToString("2");
  }

  @Test
  void explicitNullsAndEmptyValuesBindAsEagerJacksonBinds() throws Exception {
    JsonNode tree =
        EAGER.readTree(
            """
            {"metadata": null,
             "spec": {"affinity": null, "securityContext": {}, "volumes": [],
                      "containers": [{"name": "c", "env": null, "resources": {"limits": null}}]}}
            """);

    PodTemplateSpec lazy = ObjectTrees.bind(tree, PodTemplateSpec.class);

    assertThat(lazy).isEqualTo(EAGER.convertValue(tree, PodTemplateSpec.class));
    assertThat(ObjectTrees.tree(lazy))
        .isEqualTo(EAGER.valueToTree(EAGER.convertValue(tree, PodTemplateSpec.class)));
  }

  @Test
  void aPropertyAbsentFromTheInputNeverHasItsDeserializerBuilt() throws Exception {
    // Jackson cannot build a deserializer for Unbindable (two fields claim one property); eager
    // binding fails on any input, lazy binding only when the input uses the property.
    JsonNode withoutIt = EAGER.readTree("{\"name\": \"x\"}");
    assertThatThrownBy(() -> EAGER.convertValue(withoutIt, Holder.class))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Multiple fields representing property");

    assertThat(ObjectTrees.bind(withoutIt, Holder.class).name).isEqualTo("x");

    JsonNode withIt = EAGER.readTree("{\"name\": \"x\", \"unbindable\": {\"value\": 1}}");
    assertThatThrownBy(() -> ObjectTrees.bind(withIt, Holder.class))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Multiple fields representing property");
  }

  @Test
  void listsOfBeansBindThroughTheDeferredDeserializer() throws Exception {
    JsonNode tree = EAGER.readTree("{\"items\": [{\"value\": \"a\"}, {\"value\": \"b\"}]}");

    ListHolder bound = ObjectTrees.bind(tree, ListHolder.class);

    assertThat(bound.items).extracting(i -> i.value).containsExactly("a", "b");
  }

  public static final class Holder {
    public String name;
    public Unbindable unbindable;
  }

  public static final class Unbindable {
    @JsonProperty("value")
    public String first;

    @JsonProperty("value")
    public String second;
  }

  public static final class ListHolder {
    public List<Item> items;
  }

  /**
   * {@link ObjectTrees#tree} builds trees through its own generator: it must give the tree
   * Jackson's {@code valueToTree} gives, for beans, lists, maps, quantities, ints-or-strings, every
   * kind of number, binary data and nulls inside maps and lists.
   */
  @Test
  void treesAreTheTreesValueToTreeGives() throws Exception {
    PodTemplateSpec template =
        ObjectTrees.bind(EAGER.readTree(RICH_TEMPLATE), PodTemplateSpec.class);
    io.fabric8.kubernetes.api.model.apps.StatefulSet set =
        new io.fabric8.kubernetes.api.model.apps.StatefulSet();
    set.setMetadata(new io.fabric8.kubernetes.api.model.ObjectMeta());
    set.getMetadata().setName("pi-worker");
    set.setSpec(new io.fabric8.kubernetes.api.model.apps.StatefulSetSpec());
    set.getSpec().setReplicas(3);
    set.getSpec().setTemplate(template);
    set.getSpec()
        .setAdditionalProperty(
            "numbers",
            java.util.Arrays.asList(
                1,
                2L,
                java.math.BigInteger.TEN.pow(30),
                1.5d,
                2.5f,
                new java.math.BigDecimal("1.250"),
                null,
                true,
                new byte[] {1, 2, 3}));
    java.util.Map<String, Object> nested = new java.util.LinkedHashMap<>();
    nested.put("b", null);
    nested.put("a", java.util.Map.of("x", List.of()));
    set.getSpec().setAdditionalProperty("nested", nested);

    assertThat(ObjectTrees.tree(set)).isEqualTo(ObjectTrees.tokenBufferTree(set));
    // Key order too: the writer keeps it for passed-through objects.
    assertThat(ObjectTrees.tree(set).toString())
        .isEqualTo(ObjectTrees.tokenBufferTree(set).toString());
  }

  public static final class Item {
    public String value;
  }
}
