package dev.jobc.sidecar;

import dev.jobc.sidecar.client.ApiConnection;
import dev.jobc.sidecar.client.ClusterApi;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.Supplier;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * A subcommand of the sidecar: its API ({@link ClusterApi}), its termination signal, the downward
 * API's environment, and the {@code --namespace} option every subcommand takes (declared here, so
 * it comes first in each usage message).
 */
abstract class SidecarCommand implements Callable<Integer> {
  final Termination termination;
  final Supplier<ClusterApi> apis;

  final Map<String, String> env;

  @Spec CommandSpec spec;

  @Option(names = "--namespace", paramLabel = "NS", description = "Default: $POD_NAMESPACE.")
  String namespace;

  SidecarCommand(Termination termination) {
    this.termination = termination;
    String name = getClass().getAnnotation(Command.class).name();
    this.env = System.getenv();
    this.apis =
        () -> new ClusterApi(() -> ApiConnection.fromEnvironment(ApiClients.userAgent(name), env));
  }

  SidecarCommand(Termination termination, Supplier<ClusterApi> apis, Map<String, String> env) {
    this.termination = termination;
    this.apis = apis;
    this.env = env;
  }

  /** This pod, from {@code --namespace} and {@code pod} or else from the downward API's env. */
  PodIdentity thisPod(String pod) {
    String ns = namespace != null ? namespace : env.get("POD_NAMESPACE");
    String name = pod != null ? pod : env.get("POD_NAME");
    if (ns == null || ns.isEmpty() || name == null || name.isEmpty()) {
      throw usage("give --namespace and --pod, or set POD_NAMESPACE and POD_NAME");
    }
    return new PodIdentity(ns, name);
  }

  /**
   * The worker pods' labels of {@code --selector}, after checking {@code --clean-pod-policy} and
   * that one of {@code --worker-set} and {@code --selector} says where the workers are.
   */
  Map<String, String> workers(String cleanPodPolicy, String workerSet, String selector) {
    if (!java.util.List.of("None", "Running", "All").contains(cleanPodPolicy)) {
      throw usage("--clean-pod-policy must be None, Running or All");
    }
    Map<String, String> labels;
    try {
      labels = WaitCommand.labels(selector);
    } catch (IllegalArgumentException e) {
      throw usage("--selector: " + e.getMessage());
    }
    if (workerSet == null && labels.isEmpty()) {
      throw usage("give --worker-set or --selector");
    }
    return labels;
  }

  ParameterException usage(String message) {
    return new ParameterException(spec.commandLine(), message);
  }

  /** The namespace and name of the pod a subcommand runs in. */
  record PodIdentity(String namespace, String name) {}
}
