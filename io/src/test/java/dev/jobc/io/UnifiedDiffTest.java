package dev.jobc.io;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jobc.io.UnifiedDiff.Edit;
import dev.jobc.io.UnifiedDiff.Op;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class UnifiedDiffTest {

  @Test
  void equalTextsGiveNoDiff() {
    assertThat(UnifiedDiff.diff("a", "x\ny\n", "b", "x\ny\n")).isEmpty();
  }

  @Test
  void changedLineWithContext() {
    String diff =
        UnifiedDiff.diff(
            "old", "1\n2\n3\n4\n5\n6\n7\n8\n9\n", "new", "1\n2\n3\n4\nfive\n6\n7\n8\n9\n");
    assertThat(diff)
        .isEqualTo(
            "--- old\n"
                + "+++ new\n"
                + "@@ -2,7 +2,7 @@\n"
                + " 2\n"
                + " 3\n"
                + " 4\n"
                + "-5\n"
                + "+five\n"
                + " 6\n"
                + " 7\n"
                + " 8\n");
  }

  @Test
  void distantChangesMakeTwoHunksAndNearOnesMerge() {
    String old = numbered(1, 20);
    assertThat(UnifiedDiff.diff("a", old, "b", replaceLines(old, 2, 19)))
        .isEqualTo(
            "--- a\n+++ b\n"
                + "@@ -1,5 +1,5 @@\n 1\n-2\n+x2\n 3\n 4\n 5\n"
                + "@@ -16,5 +16,5 @@\n 16\n 17\n 18\n-19\n+x19\n 20\n");
    // Six unchanged lines between two changes: the contexts touch, so one hunk (as in GNU diff).
    assertThat(UnifiedDiff.diff("a", old, "b", replaceLines(old, 2, 9)))
        .contains("@@ -1,12 +1,12 @@\n")
        .containsOnlyOnce("\n@@ -");
    // Seven: two hunks.
    assertThat(UnifiedDiff.diff("a", old, "b", replaceLines(old, 2, 10)))
        .contains("@@ -1,5 +1,5 @@\n", "@@ -7,7 +7,7 @@\n");
  }

  @Test
  void emptyRangesNameTheLineBefore() {
    assertThat(UnifiedDiff.diff("/dev/null", "", "b", "x\ny\n"))
        .isEqualTo("--- /dev/null\n+++ b\n@@ -0,0 +1,2 @@\n+x\n+y\n");
    assertThat(UnifiedDiff.diff("a", "x\n", "/dev/null", ""))
        .isEqualTo("--- a\n+++ /dev/null\n@@ -1 +0,0 @@\n-x\n");
    assertThat(UnifiedDiff.diff("a", "x\ny\n", "b", "x\nnew\ny\n"))
        .isEqualTo("--- a\n+++ b\n@@ -1,2 +1,3 @@\n x\n+new\n y\n");
  }

  @Test
  void replacedBlockShowsDeletionsBeforeInsertions() {
    assertThat(UnifiedDiff.diff("a", "k\na\nb\nk\n", "b", "k\nc\nd\nk\n"))
        .isEqualTo("--- a\n+++ b\n@@ -1,4 +1,4 @@\n k\n-a\n-b\n+c\n+d\n k\n");
  }

  @Test
  void missingNewlineAtEndIsMarked() {
    assertThat(UnifiedDiff.diff("a", "x\ny", "b", "x\ny\n"))
        .isEqualTo("--- a\n+++ b\n@@ -1,2 +1,2 @@\n x\n-y\n\\ No newline at end of file\n+y\n");
  }

  @Test
  void commonLastLinesStayContextAsInDiff() {
    // Two shortest diffs exist; diff -u and git diff keep the common last line "a" as context.
    assertThat(UnifiedDiff.diff("a", "a\nc\na\n", "b", "b\na\n"))
        .isEqualTo("--- a\n+++ b\n@@ -1,3 +1,2 @@\n-a\n-c\n+b\n a\n");
  }

  @Test
  void editScriptIsShortestAndReproducesBothTexts() {
    // Myers' example from the paper: ABCABBA -> CBABAC has edit distance 5.
    List<String> a = List.of("A", "B", "C", "A", "B", "B", "A");
    List<String> b = List.of("C", "B", "A", "B", "A", "C");
    List<Edit> edits = UnifiedDiff.edits(a, b);
    assertThat(edits.stream().filter(e -> e.op() != Op.KEEP)).hasSize(5);
    assertThat(side(edits, Op.INSERT)).isEqualTo(a);
    assertThat(side(edits, Op.DELETE)).isEqualTo(b);
  }

  @Test
  void largeInputsWithFewChangesStayCheap() {
    List<String> a =
        IntStream.range(0, 20_000).mapToObj(i -> i + "\n").collect(Collectors.toList());
    List<String> b = new ArrayList<>(a);
    b.set(5_000, "changed\n");
    b.remove(15_000);
    List<Edit> edits = UnifiedDiff.edits(a, b);
    assertThat(edits.stream().filter(e -> e.op() != Op.KEEP)).hasSize(3);
    assertThat(side(edits, Op.INSERT)).isEqualTo(a);
    assertThat(side(edits, Op.DELETE)).isEqualTo(b);
  }

  @Test
  void linesKeepTheirNewlines() {
    assertThat(UnifiedDiff.lines("a\n\nb")).containsExactly("a\n", "\n", "b");
    assertThat(UnifiedDiff.lines("")).isEmpty();
  }

  /** The text an edit script reads (skipping {@code ignored}): the old side or the new side. */
  private static List<String> side(List<Edit> edits, Op ignored) {
    return edits.stream()
        .filter(e -> e.op() != ignored)
        .map(Edit::line)
        .collect(Collectors.toList());
  }

  /** {@code text} with each of the given 1-based lines {@code n} replaced by {@code xn}. */
  private static String replaceLines(String text, int... lines) {
    List<String> out = new ArrayList<>(UnifiedDiff.lines(text));
    for (int line : lines) {
      out.set(line - 1, "x" + out.get(line - 1));
    }
    return String.join("", out);
  }

  private static String numbered(int from, int to) {
    StringBuilder out = new StringBuilder();
    for (int i = from; i <= to; i++) {
      out.append(i).append('\n');
    }
    return out.toString();
  }
}
