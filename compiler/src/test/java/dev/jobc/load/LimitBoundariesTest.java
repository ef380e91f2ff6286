package dev.jobc.load;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jobc.diag.Code;
import dev.jobc.diag.Diagnostic;
import dev.jobc.model.Source;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Every limit of the loader at its value and one past it: an input that needs exactly the limit
 * loads, one that needs one more is refused with a LIMIT error. The inputs' costs are counted by
 * hand in each test; so an off-by-one in a comparison ({@code >} for {@code >=}) fails here.
 */
class LimitBoundariesTest {
  private static final int CHARS = 1000;
  private static final int DEPTH = 10;
  private static final long NODES = 1000;
  private static final int ALIASES = 100;
  private static final long ALIAS_NODES = 100;
  private static final int DIGITS = 10;

  /** The diagnostics' codes when loading {@code text} under {@code limits} and {@code budget}. */
  private static List<Code> codes(YamlLimits limits, NodeBudget budget, String text) {
    return new YamlLoader(limits)
        .load(new Source("s.yaml", text), budget).diagnostics().stream()
            .map(Diagnostic::code)
            .toList();
  }

  private static List<Code> codes(YamlLimits limits, String text) {
    return codes(limits, NodeBudget.unlimited(), text);
  }

  @Test
  void sourceCharacters() {
    String text = "k: v\n"; // 5 characters
    assertThat(codes(new YamlLimits(5, DEPTH, NODES, ALIASES, ALIAS_NODES, DIGITS), text))
        .isEmpty();
    assertThat(codes(new YamlLimits(4, DEPTH, NODES, ALIASES, ALIAS_NODES, DIGITS), text))
        .containsExactly(Code.LIMIT);
  }

  @Test
  void depth() {
    String text = "[[[1]]]\n"; // three lists, one in another
    assertThat(codes(new YamlLimits(CHARS, 3, NODES, ALIASES, ALIAS_NODES, DIGITS), text))
        .isEmpty();
    assertThat(codes(new YamlLimits(CHARS, 2, NODES, ALIASES, ALIAS_NODES, DIGITS), text))
        .containsExactly(Code.LIMIT);
  }

  @Test
  void nodesPerSource() {
    String text = "[1, 2, 3]\n"; // a list and three scalars
    assertThat(codes(new YamlLimits(CHARS, DEPTH, 4, ALIASES, ALIAS_NODES, DIGITS), text))
        .isEmpty();
    assertThat(codes(new YamlLimits(CHARS, DEPTH, 3, ALIASES, ALIAS_NODES, DIGITS), text))
        .containsExactly(Code.LIMIT);
  }

  @Test
  void nodesPerRunThroughTheSharedBudget() {
    String text = "[1, 2, 3]\n"; // four nodes, as above
    YamlLimits limits = new YamlLimits(CHARS, DEPTH, NODES, ALIASES, ALIAS_NODES, DIGITS);
    NodeBudget exact = new NodeBudget(4);
    assertThat(codes(limits, exact, text)).isEmpty();
    assertThat(exact.left()).isZero();
    assertThat(codes(limits, new NodeBudget(3), text)).containsExactly(Code.LIMIT);
    // Shared: what one source took, the next cannot have.
    NodeBudget shared = new NodeBudget(7);
    assertThat(codes(limits, shared, text)).isEmpty();
    assertThat(codes(limits, shared, text)).containsExactly(Code.LIMIT);
  }

  @Test
  void theBudgetGivesExactlyItsNodes() {
    NodeBudget budget = new NodeBudget(5);
    assertThat(budget.take(5)).isTrue();
    assertThat(budget.left()).isZero();
    assertThat(budget.take(1)).isFalse();
    assertThat(budget.left()).isZero();
    assertThat(new NodeBudget(5).take(6)).isFalse();
    assertThat(new NodeBudget(5, 0).take(0)).isTrue();
  }

  @Test
  void aliases() {
    String text = "a: &x 1\nb: *x\nc: *x\n"; // two aliases
    assertThat(codes(new YamlLimits(CHARS, DEPTH, NODES, 2, ALIAS_NODES, DIGITS), text)).isEmpty();
    assertThat(codes(new YamlLimits(CHARS, DEPTH, NODES, 1, ALIAS_NODES, DIGITS), text))
        .containsExactly(Code.LIMIT);
  }

  @Test
  void aliasNodes() {
    String text = "a: &x [1, 2]\nb: *x\nc: *x\n"; // two copies of a list and two scalars
    assertThat(codes(new YamlLimits(CHARS, DEPTH, NODES, ALIASES, 6, DIGITS), text)).isEmpty();
    assertThat(codes(new YamlLimits(CHARS, DEPTH, NODES, ALIASES, 5, DIGITS), text))
        .containsExactly(Code.LIMIT);
  }

  @Test
  void numberDigits() {
    String text = "n: 12345\n"; // five digits
    assertThat(codes(new YamlLimits(CHARS, DEPTH, NODES, ALIASES, ALIAS_NODES, 5), text)).isEmpty();
    assertThat(codes(new YamlLimits(CHARS, DEPTH, NODES, ALIASES, ALIAS_NODES, 4), text))
        .containsExactly(Code.LIMIT);
  }
}
