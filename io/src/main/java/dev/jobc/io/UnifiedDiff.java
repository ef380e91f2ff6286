package dev.jobc.io;

import com.github.difflib.DiffUtils;
import com.github.difflib.patch.AbstractDelta;
import com.github.difflib.patch.Chunk;
import java.util.ArrayList;
import java.util.List;

/**
 * A line-based unified diff in the format of GNU {@code diff -u} and {@code git diff}: hunks with
 * three lines of context, ranges printed as {@code start,count} (just {@code start} for a count of
 * one), and a {@code \ No newline at end of file} marker after a last line without a newline.
 *
 * <p>The edit script comes from java-diff-utils (Myers' O(ND) algorithm), so the diff is a shortest
 * one; this class only lays it out as {@code diff -u} does. It is the one class that uses the
 * library.
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

  /**
   * A shortest edit script turning {@code a} into {@code b}, from java-diff-utils (Myers'
   * algorithm); within a change, deletions come first, as {@code diff} shows a replaced block.
   */
  static List<Edit> edits(List<String> a, List<String> b) {
    // Lines both texts start and end with stay context, as GNU diff and git set them aside before
    // comparing; the library alone may pick another shortest script (its earliest match).
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
    List<Edit> edits = new ArrayList<>(Math.max(a.size(), b.size()));
    int x = prefix; // next line of a
    int y = prefix; // next line of b
    for (int i = 0; i < prefix; i++) {
      edits.add(new Edit(Op.KEEP, i, i, a.get(i)));
    }
    List<String> middleA = a.subList(prefix, a.size() - suffix);
    List<String> middleB = b.subList(prefix, b.size() - suffix);
    for (AbstractDelta<String> delta : DiffUtils.diff(middleA, middleB).getDeltas()) {
      Chunk<String> source = delta.getSource();
      Chunk<String> target = delta.getTarget();
      while (x < prefix + source.getPosition()) {
        edits.add(new Edit(Op.KEEP, x, y, a.get(x)));
        x++;
        y++;
      }
      for (String line : source.getLines()) {
        edits.add(new Edit(Op.DELETE, x++, y, line));
      }
      for (String line : target.getLines()) {
        edits.add(new Edit(Op.INSERT, x, y++, line));
      }
    }
    while (x < a.size()) {
      edits.add(new Edit(Op.KEEP, x, y, a.get(x)));
      x++;
      y++;
    }
    return edits;
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
