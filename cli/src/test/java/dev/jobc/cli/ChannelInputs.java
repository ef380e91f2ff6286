package dev.jobc.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

/** Job inputs the channel tests share besides the repository's examples. */
final class ChannelInputs {
  /** The objects jobc renders for {@link #tfJob()}. */
  static final List<String> TFJOB_OBJECTS =
      List.of(
          "ServiceAccount/mnist-sidecar",
          "Role/mnist-sidecar",
          "RoleBinding/mnist-sidecar",
          "Service/mnist-chief-0",
          "Service/mnist-ps-0",
          "Service/mnist-worker-0",
          "Service/mnist-worker-1",
          "Job/mnist-chief-0",
          "Job/mnist-ps-0",
          "Job/mnist-worker-0",
          "Job/mnist-worker-1");

  /**
   * The PS address in TF_CONFIG for namespace training and cluster.local (only TF_CONFIG names it;
   * how the tool quotes the JSON string may differ).
   */
  static final String TF_CONFIG_PS_HOST = "mnist-ps-0.training.svc.cluster.local:2222";

  private ChannelInputs() {}

  /** training-operator's dist-mnist example as {@code mnist}, without a namespace. */
  static String tfJob() {
    try (InputStream in = ChannelInputs.class.getResourceAsStream("mnist-tfjob.yaml")) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
