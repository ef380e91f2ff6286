package dev.jobc.trainer;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The cases of kubeflow/trainer v2.3.0 plugins/torch/torchtune_test.go, and the command. */
class TorchTuneTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String REF = "torchtune-llama3.2-1b";
  private static final TorchTune.Procs AUTO = TorchTune.Procs.AUTO;

  private static JsonNode args(String... args) {
    ArrayNode out = JSON.createArrayNode();
    for (String a : args) {
      out.add(a);
    }
    return out;
  }

  private static TorchTune.Procs procs(int n) {
    return new TorchTune.Procs(false, n);
  }

  @Test
  void theModelComesFromTheRuntimeName() {
    // TestGetModelFromRuntimeRef.
    assertThat(TorchTune.model("torchtune-llama3.2-1b")).isEqualTo("llama3_2/1B");
    assertThat(TorchTune.model("torchtune-qwen2.5-1.5b")).isEqualTo("qwen2_5/1.5B");
    assertThat(TorchTune.model("torchtune-llama3.2")).isEmpty();
    assertThat(TorchTune.model("torchtune-llama3.2-1b-extra")).isEmpty();
    assertThat(TorchTune.model("")).isEmpty();
  }

  @Test
  void loraAndQloraComeFromTheArgs() {
    // TestIsLoraConfigEnabled, TestIsUseQLoraFinetune.
    assertThat(TorchTune.lora(args("batch_size=32", "model.lora_attn_modules=['q_proj']")))
        .isTrue();
    assertThat(TorchTune.lora(args("batch_size=32", "epochs=10"))).isFalse();
    assertThat(TorchTune.lora(args())).isFalse();
    assertThat(TorchTune.qlora(args("model.quantize_base=True"))).isTrue();
    assertThat(TorchTune.qlora(args("model.quantize_base= true "))).isTrue();
    assertThat(TorchTune.qlora(args("model.quantize_base=False"))).isFalse();
    assertThat(TorchTune.qlora(args("model.quantize_base=True", "model.use_dora=True"))).isFalse();
    assertThat(TorchTune.qlora(args("model.quantize_base=True", "model.use_dora=False"))).isTrue();
    assertThat(TorchTune.qlora(args("model.quantize_base"))).isFalse();
    assertThat(TorchTune.qlora(args("batch_size=32"))).isFalse();
  }

  @Test
  void recipeAndConfigFollowNodesProcessesGpusAndArgs() {
    // TestGetRecipeAndConfig, row for row.
    JsonNode lora = args("model.lora_attn_modules=['q_proj']");
    JsonNode qlora = args("model.quantize_base=True");
    JsonNode none = args();
    assertThat(TorchTune.recipeAndConfig(1, AUTO, 1, REF, none))
        .isEqualTo(
            new TorchTune.Recipe("full_finetune_single_device", "llama3_2/1B_full_single_device"));
    assertThat(TorchTune.recipeAndConfig(1, AUTO, 1, REF, lora))
        .isEqualTo(
            new TorchTune.Recipe("lora_finetune_single_device", "llama3_2/1B_lora_single_device"));
    assertThat(TorchTune.recipeAndConfig(1, AUTO, 1, REF, qlora))
        .isEqualTo(
            new TorchTune.Recipe("lora_finetune_single_device", "llama3_2/1B_qlora_single_device"));
    assertThat(TorchTune.recipeAndConfig(1, AUTO, 4, REF, none))
        .isEqualTo(new TorchTune.Recipe("full_finetune_distributed", "llama3_2/1B_full"));
    assertThat(TorchTune.recipeAndConfig(1, AUTO, 4, REF, lora))
        .isEqualTo(new TorchTune.Recipe("lora_finetune_distributed", "llama3_2/1B_lora"));
    assertThat(TorchTune.recipeAndConfig(1, AUTO, 4, REF, qlora))
        .isEqualTo(new TorchTune.Recipe("lora_finetune_distributed", "llama3_2/1B_qlora"));
    assertThat(TorchTune.recipeAndConfig(2, AUTO, 8, REF, none))
        .isEqualTo(new TorchTune.Recipe("full_finetune_distributed", "llama3_2/1B_full_multinode"));
    assertThat(TorchTune.recipeAndConfig(1, procs(1), 4, REF, none))
        .isEqualTo(
            new TorchTune.Recipe("full_finetune_single_device", "llama3_2/1B_full_single_device"));
    assertThat(TorchTune.recipeAndConfig(1, procs(4), 4, REF, none))
        .isEqualTo(new TorchTune.Recipe("full_finetune_distributed", "llama3_2/1B_full"));
  }

  /**
   * A runtime Job with the ancestor label and one container, as TestExtractOverridesFromRuntime.
   */
  private static ObjectNode job(String ancestor, String container, String... command) {
    ObjectNode job = JSON.createObjectNode().put("name", "node");
    ObjectNode template = job.putObject("template");
    template.putObject("metadata").putObject("labels").put(TrainJobPlanner.ANCESTOR, ancestor);
    ObjectNode c =
        template
            .putObject("spec")
            .putObject("template")
            .putObject("spec")
            .putArray("containers")
            .addObject()
            .put("name", container);
    c.set("command", args(command));
    return job;
  }

  private static List<String> command(
      int nodes, TorchTune.Procs procs, int gpus, List<ObjectNode> jobs) {
    List<String> out = new ArrayList<>();
    TorchTune.command("job", nodes, procs, gpus, REF, args(), jobs)
        .forEach(n -> out.add(n.asText()));
    return out;
  }

  @Test
  void theCommandTakesOnlyTheTrainerNodesImmutableOverrides() {
    String[] runtime = {"output_dir=/out", "tokenizer.path=/tok", "batch_size=32"};
    assertThat(command(1, AUTO, 1, List.of(job("trainer", "node", runtime))))
        .containsExactly(
            "tune",
            "run",
            "full_finetune_single_device",
            "--config",
            "llama3_2/1B_full_single_device",
            "output_dir=/out",
            "tokenizer.path=/tok");
    assertThat(command(1, AUTO, 1, List.of(job("other", "node", runtime)))).hasSize(5);
    assertThat(command(1, AUTO, 1, List.of(job("trainer", "sidecar", runtime)))).hasSize(5);
  }

  @Test
  void theRendezvousEndpointComesWithMoreThanOneNodeOrProcess() {
    String endpoint = "--rdzv_endpoint=job-node-0-0.job:29500";
    assertThat(command(2, AUTO, 0, List.of())).contains(endpoint);
    assertThat(command(1, procs(2), 0, List.of())).contains(endpoint);
    assertThat(command(1, AUTO, 2, List.of())).contains(endpoint);
    assertThat(command(1, procs(1), 8, List.of())).doesNotContain(endpoint);
    assertThat(command(1, AUTO, 1, List.of())).doesNotContain(endpoint);
  }

  @Test
  void onlyTuneRunIsTheEntrypoint() {
    assertThat(TorchTune.isEntrypoint(args("tune", "run"))).isTrue();
    assertThat(TorchTune.isEntrypoint(args("tune", "run", "x"))).isFalse();
    assertThat(TorchTune.isEntrypoint(args("tune"))).isFalse();
    assertThat(TorchTune.isEntrypoint(JSON.missingNode())).isFalse();
  }
}
