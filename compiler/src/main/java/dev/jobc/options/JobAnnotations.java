package dev.jobc.options;

import dev.jobc.diag.Code;
import dev.jobc.diag.FieldPath;
import dev.jobc.diag.Finding;
import dev.jobc.diag.Quoting;
import dev.jobc.diag.Suggestions;
import dev.jobc.options.CompileOptions.Transport;
import dev.jobc.options.CompileOptions.WorkerKind;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.BiFunction;

/**
 * Per-job settings in {@code jobc.dev/*} annotations. They override the compile options (the
 * annotation wins over a flag, a Maven parameter or an Argo CD parameter), so one directory can
 * hold jobs that need different settings. An unknown {@code jobc.dev/} key is an error, as an
 * unknown field is.
 */
public final class JobAnnotations {
  public static final String PREFIX = "jobc.dev/";
  public static final String MAX_REPLICAS = PREFIX + "max-replicas";
  public static final String SSH_SECRET = PREFIX + "ssh-secret";

  /** The annotations that map onto an option, by key. */
  private static final Map<String, BiFunction<CompileOptions, String, CompileOptions>> OPTIONS =
      new TreeMap<>(
          Map.of(
              PREFIX + "cluster-domain",
              CompileOptions::withClusterDomain,
              PREFIX + "kubectl-image",
              CompileOptions::withKubectlImage,
              PREFIX + "sidecar-image",
              CompileOptions::withSidecarImage,
              PREFIX + "transport",
              (o, v) -> o.withTransport(Transport.parse(v)),
              SSH_SECRET,
              (o, v) -> o.withSshSecret(v).withTransport(Transport.SSH),
              PREFIX + "gang-scheduler",
              CompileOptions::withGangScheduler,
              PREFIX + "workers",
              (o, v) -> o.withWorkers(WorkerKind.parse(v)),
              PREFIX + "gpus-per-node",
              (o, v) -> o.withGpusPerNode(positive(v)),
              PREFIX + "units-per-node",
              (o, v) -> o.withUnitsPerNode(positive(v))));

  /** What the annotations of one job say. */
  public record Applied(CompileOptions options, Integer maxReplicas, List<Finding> findings) {}

  private JobAnnotations() {}

  public static Applied apply(ObjectMeta metadata, CompileOptions options) {
    List<Finding> findings = new ArrayList<>();
    Map<String, String> annotations =
        metadata == null || metadata.getAnnotations() == null
            ? Map.of()
            : new TreeMap<>(metadata.getAnnotations());
    Integer maxReplicas = null;
    // jobc.dev/transport is applied after jobc.dev/ssh-secret (TreeMap order), so an explicit
    // transport wins over the one the secret implies.
    for (Map.Entry<String, String> e : annotations.entrySet()) {
      String key = e.getKey();
      if (!key.startsWith(PREFIX)) {
        continue;
      }
      FieldPath path = FieldPath.of("metadata", "annotations").key(key);
      String value = e.getValue() == null ? "" : e.getValue();
      if (key.equals(MAX_REPLICAS)) {
        try {
          maxReplicas = positive(value);
        } catch (IllegalArgumentException ex) {
          findings.add(invalid(path, value, ex.getMessage()));
        }
        continue;
      }
      var option = OPTIONS.get(key);
      if (option == null) {
        List<String> known = new ArrayList<>(OPTIONS.keySet());
        known.add(MAX_REPLICAS);
        String hint = Suggestions.closest(key, known);
        findings.add(
            Finding.error(
                Code.UNKNOWN_FIELD,
                path,
                "unknown jobc annotation "
                    + Quoting.quote(key)
                    + (hint != null ? "; did you mean " + Quoting.quote(hint) + "?" : "")));
        continue;
      }
      try {
        options = option.apply(options, value);
      } catch (IllegalArgumentException ex) {
        findings.add(invalid(path, value, ex.getMessage()));
      }
    }
    return new Applied(options, maxReplicas, findings);
  }

  private static Finding invalid(FieldPath path, String value, String why) {
    return Finding.error(Code.INVALID, path, "Invalid value: " + Quoting.quote(value) + ": " + why);
  }

  static int positive(String value) {
    if (!value.matches("[1-9][0-9]{0,8}")) {
      throw new IllegalArgumentException("must be a whole number from 1 to 999999999");
    }
    return Integer.parseInt(value);
  }
}
