package dev.jobc.render;

import dev.jobc.model.OutputObject;
import java.util.Comparator;
import java.util.List;

/**
 * The one output order: kinds in dependency order (a ServiceAccount before the Role that names it,
 * the Service before the StatefulSet that needs it, workers before the launcher), other kinds after
 * them alphabetically, then by name, namespace and apiVersion. The sole place order is set.
 */
public final class Ordering {
  static final List<String> KIND_ORDER =
      List.of(
          "ServiceAccount",
          "Role",
          "RoleBinding",
          "ConfigMap",
          "Secret",
          "Service",
          "PodGroup",
          "StatefulSet",
          "Pod",
          "Job");

  /**
   * Kind rank, kind, name (digit runs as numbers), namespace, apiVersion. Written out rather than
   * chained from {@code Comparator.comparing}: each link of such a chain spins a class at its first
   * use that no class-data archive keeps, several milliseconds of a one-job render.
   */
  public static final Comparator<OutputObject> ORDER = Ordering::compare;

  private Ordering() {}

  private static int compare(OutputObject a, OutputObject b) {
    int c = Integer.compare(rank(a.kind()), rank(b.kind()));
    if (c == 0) {
      c = a.kind().compareTo(b.kind());
    }
    if (c == 0) {
      c = natural(a.name(), b.name());
    }
    if (c == 0) {
      c = a.namespace().compareTo(b.namespace());
    }
    return c != 0 ? c : a.apiVersion().compareTo(b.apiVersion());
  }

  /**
   * Compares names with digit runs as numbers, so {@code pi-worker-2} comes before {@code
   * pi-worker-10}; equal-valued runs fall back to plain comparison, keeping the order total.
   */
  static int natural(String a, String b) {
    int i = 0;
    int j = 0;
    while (i < a.length() && j < b.length()) {
      char x = a.charAt(i);
      char y = b.charAt(j);
      if (isDigit(x) && isDigit(y)) {
        int si = i;
        int sj = j;
        while (i < a.length() && isDigit(a.charAt(i))) {
          i++;
        }
        while (j < b.length() && isDigit(b.charAt(j))) {
          j++;
        }
        String na = a.substring(si, i).replaceFirst("^0+(?=.)", "");
        String nb = b.substring(sj, j).replaceFirst("^0+(?=.)", "");
        int c =
            na.length() != nb.length()
                ? Integer.compare(na.length(), nb.length())
                : na.compareTo(nb);
        if (c != 0) {
          return c;
        }
      } else {
        if (x != y) {
          return Character.compare(x, y);
        }
        i++;
        j++;
      }
    }
    int c = Integer.compare(a.length() - i, b.length() - j);
    return c != 0 ? c : a.compareTo(b);
  }

  private static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }

  static int rank(String kind) {
    int i = KIND_ORDER.indexOf(kind);
    return i >= 0 ? i : KIND_ORDER.size();
  }
}
