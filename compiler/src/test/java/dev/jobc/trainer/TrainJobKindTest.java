package dev.jobc.trainer;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jobc.load.Document;
import dev.jobc.load.LoadResult;
import dev.jobc.load.YamlLimits;
import dev.jobc.load.YamlLoader;
import dev.jobc.model.Source;
import dev.jobc.schema.SchemaValidator;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class TrainJobKindTest {
  private static final YamlLoader LOADER = new YamlLoader(YamlLimits.defaults());

  /** ManifestCompiler loads these without looking at findings: there must be none. */
  @Test
  void theDefaultRuntimesLoadAndPassTheirSchema() {
    SchemaValidator schemas = SchemaValidator.load();
    List<String> names = new ArrayList<>();
    for (Source s : new TrainJobKind().referencedDefaults()) {
      LoadResult loaded = LOADER.load(s);
      assertThat(loaded.diagnostics()).as(s.name()).isEmpty();
      assertThat(loaded.documents()).as(s.name()).hasSize(1);
      Document d = loaded.documents().get(0);
      assertThat(d.root().path("kind").asText()).isEqualTo("ClusterTrainingRuntime");
      assertThat(schemas.validate(d, TrainJobKind.API_VERSION, "ClusterTrainingRuntime"))
          .as(s.name())
          .isEmpty();
      names.add(d.root().path("metadata").path("name").asText());
    }
    // kubeflow/trainer v2.3.0 manifests/base/runtimes/ (kustomization.yaml and torchtune/).
    assertThat(names)
        .containsExactly(
            "torch-distributed",
            "deepspeed-distributed",
            "mlx-distributed",
            "jax-distributed",
            "xgboost-distributed",
            "torchtune-llama3.2-1b",
            "torchtune-llama3.2-3b",
            "torchtune-qwen2.5-1.5b");
  }

  @Test
  void strategicMergeMergesListsByTheirKeyAndReplacesTheRest() {
    JsonNode target =
        LOADER
            .load(
                new Source(
                    "t",
                    "containers: [{name: a, image: x, env: [{name: A, value: '1'}]}]\n"
                        + "tolerations: [{key: k1}]\n"))
            .documents()
            .get(0)
            .root();
    JsonNode patch =
        LOADER
            .load(
                new Source(
                    "p",
                    "containers: [{name: a, env: [{name: B, value: '2'}]}, {name: b}]\n"
                        + "tolerations: [{key: k2}]\n"))
            .documents()
            .get(0)
            .root();
    ObjectNode merged = (ObjectNode) target.deepCopy();
    StrategicMerge.merge(merged, patch);
    assertThat(merged.toString())
        .isEqualTo(
            "{\"containers\":[{\"name\":\"a\",\"image\":\"x\",\"env\":[{\"name\":\"A\",\"value\":\"1\"},"
                + "{\"name\":\"B\",\"value\":\"2\"}]},{\"name\":\"b\"}],"
                + "\"tolerations\":[{\"key\":\"k2\"}]}");
  }
}
