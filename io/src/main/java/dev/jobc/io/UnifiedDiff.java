package dev.jobc.io;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A line-based unified diff in the format of GNU {@code diff -u} and {@code git diff}: hunks with
 * three lines of context, ranges printed as {@code start,count} (just {@code start} for a count of
 * one), and a {@code \ No newline at end of file} marker after a last line without a newline.
 *
 * <p>The edit script comes from Myers' O(ND) algorithm ("An O(ND) Difference Algorithm and Its
 * Variations", 1986), so the diff is a shortest one; time and memory are O((N+M)·D) after the
 * common prefix and suffix are stripped.
 */
public final class UnifiedDiff {
  /** Lines of unchanged context around each change. */
  static final int CONTEXT = 3;

  private UnifiedDiff() {} // don't instantiate

  /** What happens to one line on the way from the old text to the new one. */
  enum Op {
    KEEP(' '),
    DELETE('-'),
    INSERT('+');

    final char prefix;

    Op(char prefix) {
      this.prefix = prefix;
    }
  }

  /**
   * One line of the edit script. {@code oldIndex} / {@code newIndex} are the 0-based positions of
   * the line in each text; for a line that one side lacks, the number of that side's lines before.
   */
  record Edit(Op op, int oldIndex, int newIndex, String line) {}

  /**
   * The full diff, {@code ---} and {@code +++} headers included, or the empty string when the texts
   * are equal.
   */
  public static String diff(String oldLabel, String oldText, String newLabel, String newText) {
    if (oldText.equals(newText)) {
      return "";
    }
    StringBuilder out = new StringBuilder();
    out.append("--- ").append(oldLabel).append('\n');
    out.append("+++ ").append(newLabel).append('\n');
    List<Edit> edits = edits(lines(oldText), lines(newText));
    for (List<Edit> hunk : hunks(edits)) {
      appendHunk(out, hunk);
    }
    return out.toString();
  }

  /**
   * Splits after each {@code \n}, keeping it, so that a last line without a newline differs from
   * the same line with one (as in {@code diff}).
   */
  public static List<String> lines(String text) {
    List<String> lines = new ArrayList<>();
    int start = 0;
    for (int i = 0; i < text.length(); i++) {
      if (text.charAt(i) == '\n') {
        lines.add(text.substring(start, i + 1));
        start = i + 1;
      }
    }
    if (start < text.length()) {
      lines.add(text.substring(start));
    }
    return lines;
  }

  /** A shortest edit script turning {@code a} into {@code b}; within a change, deletions first. */
  static List<Edit> edits(List<String> a, List<String> b) {
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
    List<Edit> edits = new ArrayList<>();
    for (int i = 0; i < prefix; i++) {
      edits.add(new Edit(Op.KEEP, i, i, a.get(i)));
    }
    List<String> middleA = a.subList(prefix, a.size() - suffix);
    List<String> middleB = b.subList(prefix, b.size() - suffix);
    for (Edit e : myers(middleA, middleB)) {
      edits.add(new Edit(e.op(), e.oldIndex() + prefix, e.newIndex() + prefix, e.line()));
    }
    for (int i = suffix; i > 0; i--) {
      edits.add(new Edit(Op.KEEP, a.size() - i, b.size() - i, a.get(a.size() - i)));
    }
    return deletionsFirst(edits);
  }

  /**
   * Myers' greedy forward search. {@code v[k]} is the furthest x reached on diagonal {@code k = x -
   * y}; a copy of {@code v} per round {@code d} lets the path be traced back afterwards.
   */
  private static List<Edit> myers(List<String> a, List<String> b) {
    int n = a.size();
    int m = b.size();
    int max = n + m;
    int offset = max + 1;
    int[] v = new int[2 * max + 3];
    List<int[]> trace = new ArrayList<>();
    search:
    for (int d = 0; d <= max; d++) {
      trace.add(Arrays.copyOfRange(v, offset - d - 1, offset + d + 2));
      for (int k = -d; k <= d; k += 2) {
        int x =
            k == -d || (k != d && v[offset + k - 1] < v[offset + k + 1])
                ? v[offset + k + 1] // step down: insert b[y]
                : v[offset + k - 1] + 1; // step right: delete a[x]
        int y = x - k;
        while (x < n && y < m && a.get(x).equals(b.get(y))) {
          x++;
          y++;
        }
        v[offset + k] = x;
        if (x >= n && y >= m) {
          break search;
        }
      }
    }
    return backtrack(a, b, trace);
  }

  private static List<Edit> backtrack(List<String> a, List<String> b, List<int[]> trace) {
    List<Edit> reversed = new ArrayList<>();
    int x = a.size();
    int y = b.size();
    for (int d = trace.size() - 1; d >= 0; d--) {
      int[] v = trace.get(d); // v[i] holds diagonal k = i - d - 1
      int k = x - y;
      int previousK = k == -d || (k != d && v[k - 1 + d + 1] < v[k + 1 + d + 1]) ? k + 1 : k - 1;
      int previousX = v[previousK + d + 1];
      int previousY = previousX - previousK;
      while (x > previousX && y > previousY) {
        x--;
        y--;
        reversed.add(new Edit(Op.KEEP, x, y, a.get(x)));
      }
      if (d > 0) {
        if (x == previousX) {
          reversed.add(new Edit(Op.INSERT, x, y - 1, b.get(y - 1)));
        } else {
          reversed.add(new Edit(Op.DELETE, x - 1, y, a.get(x - 1)));
        }
      }
      x = previousX;
      y = previousY;
    }
    List<Edit> edits = new ArrayList<>(reversed.size());
    for (int i = reversed.size() - 1; i >= 0; i--) {
      edits.add(reversed.get(i));
    }
    return edits;
  }

  /**
   * Reorders each run of changed lines so that its deletions come before its insertions, which is
   * how {@code diff} shows a replaced block; the positions are recomputed to match.
   */
  private static List<Edit> deletionsFirst(List<Edit> edits) {
    List<Edit> out = new ArrayList<>(edits.size());
    int i = 0;
    while (i < edits.size()) {
      if (edits.get(i).op() == Op.KEEP) {
        out.add(edits.get(i++));
        continue;
      }
      int start = i;
      while (i < edits.size() && edits.get(i).op() != Op.KEEP) {
        i++;
      }
      List<Edit> run = edits.subList(start, i);
      int oldIndex = run.get(0).oldIndex();
      int newIndex = run.get(0).newIndex();
      int deleted = 0;
      for (Edit e : run) {
        if (e.op() == Op.DELETE) {
          out.add(new Edit(Op.DELETE, oldIndex + deleted++, newIndex, e.line()));
        }
      }
      int inserted = 0;
      for (Edit e : run) {
        if (e.op() == Op.INSERT) {
          out.add(new Edit(Op.INSERT, oldIndex + deleted, newIndex + inserted++, e.line()));
        }
      }
    }
    return out;
  }

  /** Groups changes whose context would touch or overlap into one hunk, as {@code diff} does. */
  static List<List<Edit>> hunks(List<Edit> edits) {
    List<List<Edit>> hunks = new ArrayList<>();
    int i = 0;
    while (i < edits.size()) {
      if (edits.get(i).op() == Op.KEEP) {
        i++;
        continue;
      }
      int start = Math.max(0, i - CONTEXT);
      int end = i; // one past the last changed line of this hunk
      int j = i;
      while (j < edits.size()) {
        if (edits.get(j).op() != Op.KEEP) {
          end = ++j;
          continue;
        }
        int keepStart = j;
        while (j < edits.size() && edits.get(j).op() == Op.KEEP) {
          j++;
        }
        if (j == edits.size() || j - keepStart > 2 * CONTEXT) {
          break;
        }
      }
      int stop = Math.min(edits.size(), end + CONTEXT);
      hunks.add(edits.subList(start, stop));
      i = stop;
    }
    return hunks;
  }

  private static void appendHunk(StringBuilder out, List<Edit> hunk) {
    int oldCount = 0;
    int newCount = 0;
    for (Edit e : hunk) {
      oldCount += e.op() == Op.INSERT ? 0 : 1;
      newCount += e.op() == Op.DELETE ? 0 : 1;
    }
    Edit first = hunk.get(0);
    out.append("@@ -")
        .append(range(first.oldIndex(), oldCount))
        .append(" +")
        .append(range(first.newIndex(), newCount))
        .append(" @@\n");
    for (Edit e : hunk) {
      out.append(e.op().prefix).append(e.line());
      if (!e.line().endsWith("\n")) {
        out.append("\n\\ No newline at end of file\n");
      }
    }
  }

  /**
   * {@code start,count} with a 1-based start; an empty range names the line before it (0 at the
   * top), and a count of one is left out.
   */
  private static String range(int index, int count) {
    if (count == 0) {
      return index + ",0";
    }
    return count == 1 ? String.valueOf(index + 1) : (index + 1) + "," + count;
  }
}
