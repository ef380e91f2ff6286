package dev.jobc.kind;

import dev.jobc.diag.Code;
import dev.jobc.diag.FieldPath;
import dev.jobc.diag.Finding;
import dev.jobc.diag.Quoting;
import dev.jobc.diag.Suggestions;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Documents that look like a job jobc compiles but are not one exactly: a misspelt kind ({@code
 * MPIjob}, {@code TfJob}), a job kind in a misspelt or missing API group ({@code
 * kubeflow.com/v2beta1}), or an unknown kind in a group jobc compiles. Passed through, such a
 * document would go out unrendered, for the API server to refuse or for an operator that is no
 * longer installed to ignore; they are errors instead, with what was probably meant.
 *
 * <p>The job kinds and their groups come from the registered kinds, so a new kind is covered
 * without a change here. A kind of a group jobc does not compile, and not close to one, passes
 * through as before: {@code batch/v1 Job}, KubeDL's {@code training.kubedl.io TFJob}.
 */
public final class KindSpelling {
  /**
   * Kinds of {@code kubeflow.org} that other Kubeflow projects define, which pass through: the
   * notebook, profile, PodDefault and PVC viewer controllers (kubeflow/kubeflow), Katib's
   * experiments (kubeflow/katib), Kubeflow Pipelines' ScheduledWorkflow and Viewer
   * (kubeflow/pipelines), and the MXJob that training-operator served until v1.7. The CRDs are
   * those kubeflow/manifests installs.
   */
  private static final Map<String, Set<String>> OTHER_KINDS =
      Map.of(
          "kubeflow.org",
          Set.of(
              "Notebook",
              "Profile",
              "PodDefault",
              "PVCViewer",
              "Experiment",
              "Suggestion",
              "Trial",
              "ScheduledWorkflow",
              "Viewer",
              "MXJob"));

  private KindSpelling() {}

  /**
   * Why a document of {@code apiVersion} and {@code kind}, which is no registered kind, must not
   * pass through; empty when it may.
   */
  public static List<Finding> check(
      List<? extends JobKind<?, ?, ?>> kinds, String apiVersion, String kind) {
    String group = group(apiVersion);
    Set<String> groups = kinds.stream().map(JobKind::group).collect(Collectors.toSet());
    boolean ourGroup = groups.contains(group);
    if (ourGroup && OTHER_KINDS.getOrDefault(group, Set.of()).contains(kind)) {
      return List.of();
    }
    JobKind<?, ?, ?> meant = closest(kinds, kind, group);
    boolean nearGroup = ourGroup || group.isEmpty() || near(group, groups);
    List<Finding> out = new ArrayList<>();
    if (meant != null && nearGroup) {
      if (!meant.kind().equals(kind)) {
        out.add(
            error(
                FieldPath.of("kind"),
                Quoting.quote(kind) + ": did you mean " + Quoting.quote(meant.kind()) + "?"));
      }
      if (!meant.group().equals(group)) {
        out.add(error(FieldPath.of("apiVersion"), wrongGroup(apiVersion, meant)));
      }
    } else if (ourGroup) {
      Set<String> known = new LinkedHashSet<>();
      kinds.stream().filter(k -> k.group().equals(group)).forEach(k -> known.add(k.kind()));
      out.add(
          error(
              FieldPath.of("kind"),
              Quoting.quote(kind)
                  + ": jobc compiles these kinds of "
                  + group
                  + ": "
                  + known.stream().map(Quoting::quote).collect(Collectors.joining(", "))));
    }
    return out;
  }

  /** The message for a job kind in another group: the apiVersion meant, or the kind's list. */
  private static String wrongGroup(String apiVersion, JobKind<?, ?, ?> meant) {
    int slash = apiVersion.indexOf('/');
    String version = apiVersion.substring(slash + 1);
    String fixed = meant.group() + "/" + version;
    if (meant.apiVersions().contains(fixed)) {
      return Quoting.quote(apiVersion) + ": did you mean " + Quoting.quote(fixed) + "?";
    }
    return Quoting.quote(apiVersion)
        + ": "
        + meant.kind()
        + " is in API group "
        + meant.group()
        + "; supported values: "
        + meant.apiVersions().stream().map(Quoting::quote).collect(Collectors.joining(", "));
  }

  /**
   * The registered kind {@code kind} is closest to, ignoring case, when it is close: the same but
   * for case, or at most one edit away (two from a name of 8 letters or more). Ties go to a kind of
   * {@code group}, then to the first registered.
   */
  private static JobKind<?, ?, ?> closest(
      List<? extends JobKind<?, ?, ?>> kinds, String kind, String group) {
    String lower = kind.toLowerCase(Locale.ROOT);
    JobKind<?, ?, ?> best = null;
    int bestDistance = Integer.MAX_VALUE;
    for (JobKind<?, ?, ?> k : kinds) {
      int d = Suggestions.distance(lower, k.kind().toLowerCase(Locale.ROOT));
      if (d > Math.max(1, k.kind().length() / 4)) {
        continue;
      }
      boolean better =
          d < bestDistance
              || d == bestDistance && k.group().equals(group) && !best.group().equals(group);
      if (better) {
        best = k;
        bestDistance = d;
      }
    }
    return best;
  }

  /**
   * Whether {@code group} looks like a misspelling of one of {@code groups}: close by edit distance
   * ({@code kubeflow.com}) or with the same first label ({@code kubeflow}).
   */
  private static boolean near(String group, Set<String> groups) {
    String first = group.split("\\.", -1)[0];
    for (String g : groups) {
      if (g.split("\\.", -1)[0].equals(first)) {
        return true;
      }
    }
    return Suggestions.closest(group, groups) != null;
  }

  private static Finding error(FieldPath path, String message) {
    return Finding.error(Code.NOT_SUPPORTED, path, "Unsupported value: " + message);
  }

  private static String group(String apiVersion) {
    int slash = apiVersion.indexOf('/');
    return slash < 0 ? "" : apiVersion.substring(0, slash);
  }
}
