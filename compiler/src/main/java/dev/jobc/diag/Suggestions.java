package dev.jobc.diag;

import java.util.Collection;

/** "Did you mean" for misspelt names: the closest known name, if it is close enough to help. */
public final class Suggestions {
  private Suggestions() {}

  /**
   * The candidate closest to {@code name} by edit distance (ties broken alphabetically), when it is
   * at most 2 edits or a third of the name away and nearer than either word's length; else {@code
   * null}.
   */
  public static String closest(String name, Collection<String> candidates) {
    String best = null;
    int bestDistance = Integer.MAX_VALUE;
    for (String candidate : candidates) {
      int d = distance(name, candidate);
      if (d < bestDistance || (d == bestDistance && candidate.compareTo(best) < 0)) {
        best = candidate;
        bestDistance = d;
      }
    }
    if (best == null) {
      return null;
    }
    boolean close = bestDistance <= 2 || bestDistance <= name.length() / 3;
    boolean meaningful = bestDistance < Math.min(name.length(), best.length());
    return close && meaningful ? best : null;
  }

  /** Optimal-string-alignment distance: insertions, deletions, substitutions, transpositions. */
  public static int distance(String a, String b) {
    int n = a.length();
    int m = b.length();
    int[][] d = new int[n + 1][m + 1];
    for (int i = 0; i <= n; i++) {
      d[i][0] = i;
    }
    for (int j = 0; j <= m; j++) {
      d[0][j] = j;
    }
    for (int i = 1; i <= n; i++) {
      for (int j = 1; j <= m; j++) {
        int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
        int best = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
        if (i > 1
            && j > 1
            && a.charAt(i - 1) == b.charAt(j - 2)
            && a.charAt(i - 2) == b.charAt(j - 1)) {
          best = Math.min(best, d[i - 2][j - 2] + 1);
        }
        d[i][j] = best;
      }
    }
    return d[n][m];
  }
}
