package dev.jobc.k8s;

import dev.jobc.options.CompileOptions;
import dev.jobc.options.OptionTable;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import java.util.LinkedHashMap;
import java.util.Map;

/** Object metadata shared by generators. */
public final class Metadata {
  /** Flux kustomize-controller's per-object server-side apply policy. */
  public static final String FLUX_SSA = "kustomize.toolkit.fluxcd.io/ssa";

  /** {@link #FLUX_SSA}'s value that makes Flux create the object when missing, else leave it. */
  public static final String IF_NOT_PRESENT = "IfNotPresent";

  private Metadata() {}

  /**
   * Metadata of a generated object: its name, namespace and labels, and the annotations every
   * object of the job carries ({@link #objectAnnotations}).
   */
  public static ObjectMeta of(
      String name, String namespace, Map<String, String> labels, Map<String, String> annotations) {
    // Plain setters, not fabric8 builders: builders copy through reflection and cost tens of
    // microseconds per object (bench/README.md).
    ObjectMeta meta = new ObjectMeta();
    meta.setName(name);
    meta.setNamespace(namespace);
    meta.setLabels(new LinkedHashMap<>(labels));
    annotate(meta, annotations);
    return meta;
  }

  /**
   * The annotations on every object jobc generates for a job: with {@code
   * disable-flux-substitution}, Flux's opt-out of post-build substitution; otherwise none.
   */
  public static Map<String, String> objectAnnotations(CompileOptions options) {
    return options.get(OptionTable.DISABLE_FLUX_SUBSTITUTION)
        ? Map.of(CompileOptions.FLUX_SUBSTITUTE_ANNOTATION, "disabled")
        : Map.of();
  }

  /**
   * Adds {@code more} to the annotations of {@code meta} (a generator's own object); none: none.
   */
  public static void annotate(ObjectMeta meta, Map<String, String> more) {
    if (more.isEmpty()) {
      return;
    }
    Map<String, String> out =
        meta.getAnnotations() == null
            ? new LinkedHashMap<>()
            : new LinkedHashMap<>(meta.getAnnotations());
    out.putAll(more);
    meta.setAnnotations(out);
  }

  /** The user's labels with jobc's on top (jobc's win: selectors depend on them). */
  public static Map<String, String> merge(Map<String, String> user, Map<String, String> ours) {
    Map<String, String> out = new LinkedHashMap<>();
    if (user != null) {
      out.putAll(user);
    }
    out.putAll(ours);
    return out;
  }
}
