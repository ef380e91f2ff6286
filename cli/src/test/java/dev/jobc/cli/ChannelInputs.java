package dev.jobc.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;

/** Job inputs the channel tests share besides the repository's examples. */
final class ChannelInputs {
  /** The smallest PyTorchJob jobc renders: ok, in namespace training, one master. */
  static final String PYTORCH_JOB =
      "apiVersion: kubeflow.org/v1\n"
          + "kind: PyTorchJob\n"
          + "metadata: {name: ok, namespace: training}\n"
          + "spec:\n"
          + "  pytorchReplicaSpecs:\n"
          + "    Master:\n"
          + "      replicas: 1\n"
          + "      template:\n"
          + "        spec:\n"
          + "          containers: [{name: pytorch, image: example.com/train:1}]\n";

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

  /**
   * One job of each other training-operator kind, from {@code examples/}: the objects jobc renders
   * for it, and one line of the environment the kind gives its pods (how the tool quotes it may
   * differ, so only the value).
   */
  record Example(String file, String kind, List<String> objects, String env) {
    String text() {
      try {
        return Files.readString(ExternalCommand.root().resolve(file));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    /** The file's name. */
    String name() {
      return file.substring(file.lastIndexOf('/') + 1);
    }

    @Override
    public String toString() {
      return kind;
    }
  }

  static final List<Example> TRAINING_OPERATOR =
      List.of(
          new Example(
              "examples/pytorch-simple.yaml",
              "PyTorchJob",
              replicas("pytorch-simple", "master-0", "worker-0"),
              "pytorch-simple-master-0"),
          new Example(
              "examples/xgboost-iris.yaml",
              "XGBoostJob",
              replicas("xgboost-iris", "master-0", "worker-0", "worker-1"),
              "xgboost-iris-worker-0,xgboost-iris-worker-1"),
          new Example(
              "examples/jax-simple.yaml",
              "JAXJob",
              replicas("jaxjob-simple", "worker-0", "worker-1"),
              "jaxjob-simple-worker-0"),
          new Example(
              "examples/paddle-simple.yaml",
              "PaddleJob",
              replicas("paddle-simple-cpu", "worker-0", "worker-1"),
              "$(POD_IP_DUMMY):37777"));

  /** The sidecar's account and RBAC, then a Service and a Job per replica. */
  private static List<String> replicas(String job, String... replicas) {
    List<String> out = new ArrayList<>();
    out.add("ServiceAccount/" + job + "-sidecar");
    out.add("Role/" + job + "-sidecar");
    out.add("RoleBinding/" + job + "-sidecar");
    for (String r : replicas) {
      out.add("Service/" + job + "-" + r);
    }
    for (String r : replicas) {
      out.add("Job/" + job + "-" + r);
    }
    return List.copyOf(out);
  }

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
