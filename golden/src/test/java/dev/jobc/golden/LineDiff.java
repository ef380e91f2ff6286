package dev.jobc.golden;

import java.util.ArrayList;
import java.util.List;

/**
 * A unified diff of two texts, line by line, for golden failure messages. Lines compare with their
 * terminators, so a missing final newline shows as a change.
 */
final class LineDiff {
  private static final int CONTEXT = 3;
  // Above this many table cells the middle is shown as replaced wholesale instead of aligned: the
  // message stays useful and the test does not spend seconds on a quadratic table.
  private static final long MAX_CELLS = 16_000_000L;
  private static final int MAX_OUTPUT_LINES = 400;

  private LineDiff() {}

  private record Op(char kind, int aPos, int bPos, String line) {}

  /** The diff from {@code from} to {@code to} with the given file labels; empty when equal. */
  static String unified(String fromName, String from, String toName, String to) {
    if (from.equals(to)) {
      return "";
    }
    List<Op> ops = edits(lines(from), lines(to));
    StringBuilder out = new StringBuilder();
    out.append("--- ").append(fromName).append('\n');
    out.append("+++ ").append(toName).append('\n');
    int printed = 0;
    int i = 0;
    while (i < ops.size()) {
      if (ops.get(i).kind() == ' ') {
        i++;
        continue;
      }
      int start = Math.max(0, i - CONTEXT);
      int end = i;
      // Extend the hunk while the next change is close enough to share context.
      while (true) {
        int next = end + 1;
        while (next < ops.size() && ops.get(next).kind() == ' ') {
          next++;
        }
        if (next < ops.size() && next - end <= 2 * CONTEXT) {
          end = next;
        } else {
          break;
        }
      }
      end = Math.min(ops.size() - 1, end + CONTEXT);
      int aCount = 0;
      int bCount = 0;
      for (int k = start; k <= end; k++) {
        char kind = ops.get(k).kind();
        aCount += kind == '+' ? 0 : 1;
        bCount += kind == '-' ? 0 : 1;
      }
      Op first = ops.get(start);
      out.append("@@ -")
          .append(aCount == 0 ? first.aPos() : first.aPos() + 1)
          .append(',')
          .append(aCount)
          .append(" +")
          .append(bCount == 0 ? first.bPos() : first.bPos() + 1)
          .append(',')
          .append(bCount)
          .append(" @@\n");
      for (int k = start; k <= end; k++) {
        if (printed++ == MAX_OUTPUT_LINES) {
          out.append("... (diff cut at ").append(MAX_OUTPUT_LINES).append(" lines)\n");
          return out.toString();
        }
        Op op = ops.get(k);
        String line = op.line();
        boolean terminated = line.endsWith("\n");
        out.append(op.kind()).append(terminated ? line : line + "\n");
        if (!terminated) {
          out.append("\\ No newline at end of file\n");
        }
      }
      i = end + 1;
    }
    return out.toString();
  }

  /** Splits after each {@code \n}; the last element lacks it when the text does not end in one. */
  static List<String> lines(String text) {
    List<String> lines = new ArrayList<>();
    int start = 0;
    while (start < text.length()) {
      int nl = text.indexOf('\n', start);
      int end = nl < 0 ? text.length() : nl + 1;
      lines.add(text.substring(start, end));
      start = end;
    }
    return lines;
  }

  private static List<Op> edits(List<String> a, List<String> b) {
    int prefix = 0;
    while (prefix < a.size() && prefix < b.size() && a.get(prefix).equals(b.get(prefix))) {
      prefix++;
    }
    int suffix = 0;
    while (suffix < a.size() - prefix
        && suffix < b.size() - prefix
        && a.get(a.size() - 1 - suffix).equals(b.get(b.size() - 1 - suffix))) {
      suffix++;
    }
    List<Character> kinds = new ArrayList<>();
    for (int k = 0; k < prefix; k++) {
      kinds.add(' ');
    }
    middle(a.subList(prefix, a.size() - suffix), b.subList(prefix, b.size() - suffix), kinds);
    for (int k = 0; k < suffix; k++) {
      kinds.add(' ');
    }
    List<Op> ops = new ArrayList<>(kinds.size());
    int ai = 0;
    int bi = 0;
    for (char kind : kinds) {
      String line = kind == '+' ? b.get(bi) : a.get(ai);
      ops.add(new Op(kind, ai, bi, line));
      ai += kind == '+' ? 0 : 1;
      bi += kind == '-' ? 0 : 1;
    }
    return ops;
  }

  /**
   * Appends the edit kinds that turn {@code a} into {@code b}, aligned on a longest common
   * subsequence.
   */
  private static void middle(List<String> a, List<String> b, List<Character> kinds) {
    int n = a.size();
    int m = b.size();
    if ((long) (n + 1) * (m + 1) > MAX_CELLS) {
      for (int k = 0; k < n; k++) {
        kinds.add('-');
      }
      for (int k = 0; k < m; k++) {
        kinds.add('+');
      }
      return;
    }
    int[][] lcs = new int[n + 1][m + 1];
    for (int i = n - 1; i >= 0; i--) {
      for (int j = m - 1; j >= 0; j--) {
        lcs[i][j] =
            a.get(i).equals(b.get(j))
                ? lcs[i + 1][j + 1] + 1
                : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
      }
    }
    int i = 0;
    int j = 0;
    while (i < n || j < m) {
      if (i < n && j < m && a.get(i).equals(b.get(j))) {
        kinds.add(' ');
        i++;
        j++;
      } else if (j == m || (i < n && lcs[i + 1][j] >= lcs[i][j + 1])) {
        kinds.add('-');
        i++;
      } else {
        kinds.add('+');
        j++;
      }
    }
  }
}
