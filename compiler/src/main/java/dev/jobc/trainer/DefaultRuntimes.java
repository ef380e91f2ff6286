package dev.jobc.trainer;

import dev.jobc.model.Source;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The ClusterTrainingRuntimes kubeflow/trainer v2.3.0 installs ({@code manifests/base/runtimes/},
 * Apache License 2.0, copied unchanged as data): a TrainJob may name them without the input holding
 * them, and a runtime of the same name in the input wins.
 */
final class DefaultRuntimes {
  /** The upstream release the files come from. */
  static final String VERSION = "v2.3.0";

  private static final String DIR = "dev/jobc/trainer/runtimes/";

  private static final List<String> FILES =
      List.of(
          "torch_distributed.yaml",
          "deepspeed_distributed.yaml",
          "mlx_distributed.yaml",
          "jax_distributed.yaml",
          "xgboost_distributed.yaml",
          "llama3_2_1B.yaml",
          "llama3_2_3B.yaml",
          "qwen2_5_1.5B.yaml");

  private DefaultRuntimes() {}

  /** Every default runtime's text, named {@code kubeflow/trainer@v2.3.0:<path>}. */
  static List<Source> sources() {
    List<Source> out = new ArrayList<>();
    for (String file : FILES) {
      try (InputStream in =
          DefaultRuntimes.class.getClassLoader().getResourceAsStream(DIR + file)) {
        if (in == null) {
          throw new IllegalStateException("missing resource " + DIR + file);
        }
        out.add(
            new Source(
                "kubeflow/trainer@" + VERSION + ":manifests/base/runtimes/" + file,
                new String(in.readAllBytes(), StandardCharsets.UTF_8)));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return List.copyOf(out);
  }
}
