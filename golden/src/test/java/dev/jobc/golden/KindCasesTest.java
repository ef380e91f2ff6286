package dev.jobc.golden;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Every golden case belongs to exactly one {@link KindCases} class, so mutation testing runs each
 * case: a case of a new prefix needs a class of its own, listed in {@link KindCases#ALL}.
 */
class KindCasesTest {
  @Test
  void everyCaseHasExactlyOneKind() {
    List<GoldenCase> cases = GoldenCase.discover(GoldenCasesTest.casesDir(), false);
    assertThat(cases).isNotEmpty();
    for (GoldenCase c : cases) {
      assertThat(KindCases.ALL)
          .as("the KindCases classes whose prefix starts %s", c.name())
          .filteredOn(k -> c.name().startsWith(k.prefix()))
          .hasSize(1);
    }
  }

  @Test
  void everyKindHasCases() {
    List<GoldenCase> cases = GoldenCase.discover(GoldenCasesTest.casesDir(), false);
    for (KindCases kind : KindCases.ALL) {
      assertThat(cases)
          .as("cases of %s (%s*)", kind.getClass().getSimpleName(), kind.prefix())
          .anyMatch(c -> c.name().startsWith(kind.prefix()));
    }
  }

  @Test
  void casesRunOutsidePitsListing() {
    assertThat(KindCases.calledByLister()).isFalse();
  }
}
