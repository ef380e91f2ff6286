package dev.jobc.trainer;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The torch plugin's torchtune branch (kubeflow/trainer v2.3.0 {@code plugins/torch/torchtune.go},
 * {@code torch.go EnforceMLPolicy}): a TrainJob whose trainer command is exactly {@code [tune,
 * run]} on a torch runtime has it rewritten with the rendezvous endpoint, the recipe and config its
 * nodes, processes and arguments choose, and the runtime's immutable overrides. Pure functions.
 */
final class TorchTune {
  /** {@code constants.TorchTuneEntrypoint}. */
  static final List<String> ENTRYPOINT = List.of("tune", "run");

  /** {@code constants.TorchTuneImmutableConfigs}: what the runtime sets and a TrainJob may not. */
  static final Set<String> IMMUTABLE_CONFIGS =
      Set.of(
          "output_dir", "tokenizer.path", "checkpointer.checkpoint_dir", "tokenizer.merges_file");

  /** {@code constants.TorchTuneSupportedPretrainedModels}. */
  static final Set<String> SUPPORTED_MODELS =
      Set.of("llama3_2/1B", "llama3_2/3B", "llama3_3/70B", "qwen2_5/1.5B");

  static final String LLAMA3_2_1B = "llama3_2/1B";
  static final String LLAMA3_2_3B = "llama3_2/3B";
  static final String LLAMA3_3_70B = "llama3_3/70B";
  static final String QWEN2_5_1_5B = "qwen2_5/1.5B";

  /** {@code constants.TorchTuneQLoRAFinetuneDistributedConfigSuffix}. */
  static final String QLORA_SUFFIX = "_qlora";

  /** {@code constants.TorchTuneQLoRAFinetuneSingleDeviceConfigSuffix}. */
  static final String QLORA_SINGLE_DEVICE_SUFFIX = "_qlora_single_device";

  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private TorchTune() {}

  /**
   * Processes per node as torch.go holds them: {@code auto} (an IntOrString string) or a number.
   *
   * @param auto whether it is the string {@code auto}
   * @param count the number when it is not
   */
  record Procs(boolean auto, int count) {
    static final Procs AUTO = new Procs(true, 0);

    @Override
    public String toString() {
      return auto ? "auto" : Integer.toString(count);
    }
  }

  /** A recipe and its config, as {@link #recipeAndConfig} chooses them. */
  record Recipe(String recipe, String config) {}

  /** torch.go Validate and EnforceMLPolicy: the command is exactly {@code [tune, run]}. */
  static boolean isEntrypoint(JsonNode command) {
    if (!command.isArray() || command.size() != ENTRYPOINT.size()) {
      return false;
    }
    for (int i = 0; i < ENTRYPOINT.size(); i++) {
      if (!command.get(i).isTextual() || !command.get(i).asText().equals(ENTRYPOINT.get(i))) {
        return false;
      }
    }
    return true;
  }

  /**
   * torchtune.go getModelFromRuntimeRef: {@code torchtune-llama3.2-1b} is {@code llama3_2/1B}; a
   * name not of three dash-separated fields is the empty model.
   */
  static String model(String runtimeRefName) {
    String[] fields = runtimeRefName.split("-", -1);
    if (fields.length != 3) {
      return "";
    }
    return fields[1].replace('.', '_') + "/" + fields[2].toUpperCase(Locale.ROOT);
  }

  /**
   * torchtune.go getRecipeAndConfig: single device with one node and one process or one GPU, LoRA
   * and QLoRA from the arguments, the multi-node config beyond one node.
   */
  static Recipe recipeAndConfig(
      int numNodes, Procs procs, int gpus, String runtimeRefName, JsonNode args) {
    String recipe = "full_finetune_distributed";
    String suffix = "_full";
    boolean qlora = qlora(args);
    boolean lora = lora(args);
    if (numNodes == 1 && (!procs.auto() && procs.count() == 1 || gpus == 1)) {
      if (qlora) {
        recipe = "lora_finetune_single_device";
        suffix = QLORA_SINGLE_DEVICE_SUFFIX;
      } else if (lora) {
        recipe = "lora_finetune_single_device";
        suffix = "_lora_single_device";
      } else {
        recipe = "full_finetune_single_device";
        suffix = "_full_single_device";
      }
    } else if (numNodes == 1 && qlora) {
      recipe = "lora_finetune_distributed";
      suffix = QLORA_SUFFIX;
    } else if (numNodes == 1 && lora) {
      recipe = "lora_finetune_distributed";
      suffix = "_lora";
    } else if (numNodes > 1) {
      suffix = "_full_multinode";
    }
    return new Recipe(recipe, model(runtimeRefName) + suffix);
  }

  /** torchtune.go isLoraConfigEnabled: an argument mentions {@code model.lora_attn_modules}. */
  static boolean lora(JsonNode args) {
    for (JsonNode arg : args) {
      if (arg.asText().contains("model.lora_attn_modules")) {
        return true;
      }
    }
    return false;
  }

  /** torchtune.go isUseQLoraFinetune: quantize_base true, unless use_dora is. */
  static boolean qlora(JsonNode args) {
    return !boolArg(args, "model.use_dora") && boolArg(args, "model.quantize_base");
  }

  /** torchtune.go isBoolArgEnabled: a {@code key=value} whose key contains the item, true. */
  private static boolean boolArg(JsonNode args, String item) {
    for (JsonNode arg : args) {
      String text = arg.asText();
      int eq = text.indexOf('=');
      if (eq >= 0
          && text.substring(0, eq).contains(item)
          && text.substring(eq + 1).strip().equalsIgnoreCase("true")) {
        return true;
      }
    }
    return false;
  }

  /** The key of a {@code key=value} argument (all of it without {@code =}). */
  static String key(String arg) {
    int eq = arg.indexOf('=');
    return eq < 0 ? arg : arg.substring(0, eq);
  }

  /**
   * torch.go EnforceMLPolicy's torchtune branch: {@code tune run}, the rendezvous endpoint for more
   * than one node or process, the recipe, {@code --config} and the config, then the runtime
   * trainer's immutable overrides (torchtune.go extractOverridesFromRuntime, from the command of
   * every trainer Job's {@code node} container in the template).
   *
   * @param jobs the replicated Jobs of the runtime's template, runtime patches merged
   */
  static ArrayNode command(
      String jobName,
      int numNodes,
      Procs procs,
      int gpus,
      String runtimeRefName,
      JsonNode args,
      List<ObjectNode> jobs) {
    ArrayNode out = NODES.arrayNode();
    ENTRYPOINT.forEach(out::add);
    if (numNodes > 1 || !procs.auto() && procs.count() > 1 || procs.auto() && gpus > 1) {
      out.add(
          "--rdzv_endpoint="
              + jobName
              + "-"
              + TrainJobPlanner.NODE
              + "-0-0."
              + jobName
              + ":"
              + TrainJobPlanner.TRAINER_PORT);
    }
    Recipe recipe = recipeAndConfig(numNodes, procs, gpus, runtimeRefName, args);
    out.add(recipe.recipe()).add("--config").add(recipe.config());
    overrides(jobs).forEach(out::add);
    return out;
  }

  private static List<String> overrides(List<ObjectNode> jobs) {
    List<String> out = new ArrayList<>();
    for (ObjectNode job : jobs) {
      if (!TrainJobPlanner.TRAINER.equals(TrainJobPlanner.ancestor(job))) {
        continue;
      }
      JsonNode containers =
          job.path("template").path("spec").path("template").path("spec").path("containers");
      for (JsonNode c : containers) {
        if (!TrainJobPlanner.NODE.equals(c.path("name").asText(null))) {
          continue;
        }
        for (JsonNode part : c.path("command")) {
          // strings.Split(command, "=")[0]: the text before the first "=".
          if (IMMUTABLE_CONFIGS.contains(key(part.asText()))) {
            out.add(part.asText());
          }
        }
      }
    }
    return out;
  }
}
