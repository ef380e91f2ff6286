package dev.jobc.sidecar.base;

import dev.jobc.sidecar.client.ApiConnection;
import dev.jobc.sidecar.client.ClusterApi;
import java.util.LinkedHashMap;
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
public abstract class SidecarCommand implements Callable<Integer> {
  protected final Termination termination;
  protected final Supplier<ClusterApi> apis;

  protected final Map<String, String> env;

  @Spec protected CommandSpec spec;

  @Option(names = "--namespace", paramLabel = "NS", description = "Default: $POD_NAMESPACE.")
  protected String namespace;

  protected SidecarCommand(Termination termination) {
    this.termination = termination;
    String name = getClass().getAnnotation(Command.class).name();
    this.env = System.getenv();
    this.apis =
        () -> new ClusterApi(() -> ApiConnection.fromEnvironment(ApiClients.userAgent(name), env));
  }

  protected SidecarCommand(
      Termination termination, Supplier<ClusterApi> apis, Map<String, String> env) {
    this.termination = termination;
    this.apis = apis;
    this.env = env;
  }

  /** This pod, from {@code --namespace} and {@code pod} or else from the downward API's env. */
  protected PodIdentity thisPod(String pod) {
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
  protected Map<String, String> workers(String cleanPodPolicy, String workerSet, String selector) {
    if (!java.util.List.of("None", "Running", "All").contains(cleanPodPolicy)) {
      throw usage("--clean-pod-policy must be None, Running or All");
    }
    Map<String, String> labels;
    try {
      labels = labels(selector);
    } catch (IllegalArgumentException e) {
      throw usage("--selector: " + e.getMessage());
    }
    if (workerSet == null && labels.isEmpty()) {
      throw usage("give --worker-set or --selector");
    }
    return labels;
  }

  protected ParameterException usage(String message) {
    return new ParameterException(spec.commandLine(), message);
  }

  /** {@code a=b,c=d} as a map; an empty map for none. */
  protected static Map<String, String> labels(String selector) {
    Map<String, String> out = new LinkedHashMap<>();
    if (selector == null || selector.isBlank()) {
      return out;
    }
    for (String part : selector.split(",")) {
      int eq = part.indexOf('=');
      if (eq <= 0) {
        throw new IllegalArgumentException("not KEY=VALUE: " + part);
      }
      out.put(part.substring(0, eq).trim(), part.substring(eq + 1).trim());
    }
    return out;
  }

  /** The namespace and name of the pod a subcommand runs in. */
  protected record PodIdentity(String namespace, String name) {}
}
