package dev.jobc.options;

import dev.jobc.diag.Code;
import dev.jobc.diag.FieldPath;
import dev.jobc.diag.Finding;
import dev.jobc.diag.Quoting;
import dev.jobc.diag.Suggestions;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Per-job settings in {@code jobc.dev/*} annotations. They override the compile options (the
 * annotation wins over a flag, a Maven parameter or an Argo CD parameter), so one directory can
 * hold jobs that need different settings. An unknown {@code jobc.dev/} key is an error, as an
 * unknown field is.
 */
public final class JobAnnotations {
  public static final String PREFIX = Option.ANNOTATION_PREFIX;
  public static final String MAX_REPLICAS = PREFIX + "max-replicas";
  public static final String SSH_SECRET = OptionTable.SSH_SECRET.annotation();

  /**
   * A DGLJob's declaration that its images' {@code dglrun} partitions on the workers, which
   * partitionMode DistParMETIS needs and no upstream dglrun does.
   */
  public static final String DIST_PARMETIS_IMAGE = PREFIX + "dist-parmetis-image";

  /** The annotations that set an option, by key: every per-job row of {@link OptionTable}. */
  private static final Map<String, Option<?>> OPTIONS = perJobOptions();

  /** What the annotations of one job say. */
  public record Applied(
      CompileOptions options,
      Integer maxReplicas,
      Boolean distParMetisImage,
      List<Finding> findings) {

    /**
     * {@link #findings}, plus an error on {@value #MAX_REPLICAS} for a kind that cannot scale,
     * saying {@code why}.
     */
    public List<Finding> findingsWithoutScaling(String why) {
      List<Finding> out = new ArrayList<>(findings);
      if (maxReplicas != null) {
        out.add(
            Finding.error(
                Code.FORBIDDEN,
                FieldPath.of("metadata", "annotations").key(MAX_REPLICAS),
                "Forbidden: " + why));
      }
      return out;
    }
  }

  private JobAnnotations() {}

  public static Applied apply(ObjectMeta metadata, CompileOptions options) {
    return apply(metadata, options, Set.of());
  }

  /**
   * As {@link #apply(ObjectMeta, CompileOptions)}, for a kind that reads {@code ownKeys} itself (a
   * TrainJob's {@code jobc.dev/flux-curve-secret}): they are left to it, and a misspelling of one
   * gets its "did you mean" as the options' do.
   */
  public static Applied apply(ObjectMeta metadata, CompileOptions options, Set<String> ownKeys) {
    List<Finding> findings = new ArrayList<>();
    Map<String, String> annotations =
        metadata == null || metadata.getAnnotations() == null
            ? Map.of()
            : new TreeMap<>(metadata.getAnnotations());
    Integer maxReplicas = null;
    Boolean distParMetisImage = null;
    CompileOptions.Draft draft = null;
    for (Map.Entry<String, String> e : annotations.entrySet()) {
      String key = e.getKey();
      if (!key.startsWith(PREFIX) || ownKeys.contains(key)) {
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
      if (key.equals(DIST_PARMETIS_IMAGE)) {
        if (value.equals("true") || value.equals("false")) {
          distParMetisImage = value.equals("true");
        } else {
          findings.add(invalid(path, value, "must be true or false"));
        }
        continue;
      }
      Option<?> option = OPTIONS.get(key);
      if (option == null) {
        List<String> known = new ArrayList<>(OPTIONS.keySet());
        known.add(MAX_REPLICAS);
        known.add(DIST_PARMETIS_IMAGE);
        known.addAll(ownKeys);
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
        draft = draft == null ? options.toDraft() : draft;
        draft.setText(option, value);
      } catch (IllegalArgumentException ex) {
        findings.add(invalid(path, value, ex.getMessage()));
      }
    }
    // The job's annotations are one channel: jobc.dev/ssh-secret implies the ssh transport
    // unless jobc.dev/transport says otherwise.
    return new Applied(
        draft == null ? options : draft.build(), maxReplicas, distParMetisImage, findings);
  }

  private static Map<String, Option<?>> perJobOptions() {
    Map<String, Option<?>> out = new TreeMap<>();
    for (Option<?> option : OptionTable.ALL) {
      if (option.perJob()) {
        out.put(option.annotation(), option);
      }
    }
    return Collections.unmodifiableMap(out);
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
