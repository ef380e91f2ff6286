package dev.jobc.io;

import dev.jobc.options.CompileOptions;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The compile options by the name users write: {@code jobc render --cluster-domain}, a KRM
 * function's {@code functionConfig} key {@code cluster-domain}, the Argo CD parameter {@code
 * cluster-domain} and variable {@code ARGOCD_ENV_JOBC_CLUSTER_DOMAIN}. One table, so the channels
 * cannot drift apart (the Maven plugin's typed parameters are pinned by its descriptor test).
 */
public final class NamedOptions {
  /** Every option name, in the order help texts list them. */
  public static final List<String> NAMES =
      List.of(
          "namespace",
          "cluster-domain",
          "kubectl-image",
          "transport",
          "ssh-secret",
          "workers",
          "gpus-per-node",
          "units-per-node",
          "sidecar-image",
          "gang-scheduler",
          "disable-flux-substitution");

  private static final Map<String, String> DESCRIPTIONS =
      Map.ofEntries(
          Map.entry("namespace", "Namespace for jobs that do not set metadata.namespace."),
          Map.entry(
              "cluster-domain",
              "Cluster DNS domain appended to host names (<pod>.<job>.<ns>.svc.DOMAIN)."),
          Map.entry("kubectl-image", "Image that provides kubectl for kubexec.sh."),
          Map.entry("transport", "kubexec (default) or ssh: how the launcher reaches workers."),
          Map.entry("ssh-secret", "Existing Secret with the SSH keys; implies transport ssh."),
          Map.entry("workers", "statefulset (default) or pods: what runs the workers."),
          Map.entry("gpus-per-node", "GPUs per node for v1alpha1 gpus: totals."),
          Map.entry("units-per-node", "Units per node for v1alpha1 processingUnits: totals."),
          Map.entry(
              "sidecar-image", "Image of the jobc sidecar that waits for peer pods at run time."),
          Map.entry(
              "gang-scheduler",
              "volcano, scheduler-plugins or another scheduler name: gang scheduling."),
          Map.entry(
              "disable-flux-substitution",
              "true: annotate generated objects kustomize.toolkit.fluxcd.io/substitute: disabled."));

  private NamedOptions() {} // don't instantiate

  /** A one-line description of an option, for help texts and parameter announcements. */
  public static String description(String name) {
    String d = DESCRIPTIONS.get(name);
    if (d == null) {
      throw new IllegalArgumentException(unknown(name));
    }
    return d;
  }

  /**
   * Returns {@code options} with the option {@code name} set from its text form.
   *
   * @throws IllegalArgumentException for an unknown name or an invalid value, with a message that
   *     names both
   */
  public static CompileOptions apply(CompileOptions options, String name, String value) {
    // CompileOptions' own messages name the option ("invalid namespace ..."); bool() does too.
    return switch (name) {
      case "namespace" -> options.withNamespace(value);
      case "cluster-domain" -> options.withClusterDomain(value);
      case "kubectl-image" -> options.withKubectlImage(value);
      case "transport" -> options.withTransport(CompileOptions.Transport.parse(value));
      case "ssh-secret" -> options.withSshSecret(value).withTransport(CompileOptions.Transport.SSH);
      case "workers" -> options.withWorkers(CompileOptions.WorkerKind.parse(value));
      case "gpus-per-node" -> options.withGpusPerNode(integer(name, value));
      case "units-per-node" -> options.withUnitsPerNode(integer(name, value));
      case "sidecar-image" -> options.withSidecarImage(value);
      case "gang-scheduler" -> options.withGangScheduler(value);
      case "disable-flux-substitution" -> options.withDisableFluxSubstitution(bool(name, value));
      default -> throw new IllegalArgumentException(unknown(name));
    };
  }

  /** Applies every entry of {@code values} in map order; see {@link #apply}. */
  public static CompileOptions applyAll(CompileOptions options, Map<String, String> values) {
    CompileOptions out = options;
    for (Map.Entry<String, String> e : values.entrySet()) {
      out = apply(out, e.getKey(), e.getValue());
    }
    return out;
  }

  /** {@code cluster-domain} → {@code CLUSTER_DOMAIN}, for environment variable names. */
  public static String envName(String name) {
    return name.replace('-', '_').toUpperCase(Locale.ROOT);
  }

  private static boolean bool(String name, String value) {
    // Strict on purpose: "yes" or "1" silently meaning false would hide a typo.
    return switch (value) {
      case "true" -> true;
      case "false" -> false;
      default ->
          throw new IllegalArgumentException(
              name + ": expected true or false, got \"" + value + "\"");
    };
  }

  private static int integer(String name, String value) {
    try {
      return Integer.parseInt(value);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(name + ": expected a whole number, got \"" + value + "\"");
    }
  }

  private static String unknown(String name) {
    return "unknown option \"" + name + "\"; known options: " + String.join(", ", NAMES);
  }
}
