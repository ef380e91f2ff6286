package dev.jobc.validate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jobc.diag.FieldPath;
import dev.jobc.diag.Finding;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The field checks every kind's validator shares, with the API server's wording. */
class FieldRulesTest {
  private static final FieldPath PATH = FieldPath.of("spec", "policy");

  private static List<String> found(List<Finding> out) {
    return out.stream().map(f -> f.code() + " " + f.path() + ": " + f.message()).toList();
  }

  @Test
  void oneOfReportsAValueOutsideTheListAndPassesTheOthers() {
    List<Finding> out = new ArrayList<>();
    FieldRules.oneOf(PATH, "Always", List.of("Always", "Never"), out);
    FieldRules.oneOf(PATH, null, List.of("Always", "Never"), out);
    assertThat(out).isEmpty();
    FieldRules.oneOf(PATH, "Sometimes", List.of("Always", "Never"), out);
    assertThat(found(out))
        .containsExactly(
            "NOT_SUPPORTED spec.policy: Unsupported value: \"Sometimes\": supported values:"
                + " \"Always\", \"Never\"");
  }

  @Test
  void nonNegativeReportsBelowZeroOnly() {
    List<Finding> out = new ArrayList<>();
    FieldRules.nonNegative(PATH, 0, out);
    FieldRules.nonNegative(PATH, 5L, out);
    FieldRules.nonNegative(PATH, null, out);
    assertThat(out).isEmpty();
    FieldRules.nonNegative(PATH, -1, out);
    assertThat(found(out))
        .containsExactly(
            "INVALID spec.policy: Invalid value: -1: must be greater than or equal to 0");
  }

  @Test
  void theFindingsSayWhatIsWrong() {
    assertThat(found(List.of(FieldRules.atLeast(PATH, 0, 1))))
        .containsExactly(
            "INVALID spec.policy: Invalid value: 0: must be greater than or equal to 1");
    assertThat(found(List.of(FieldRules.notSupported(PATH, "x", List.of("y")))))
        .containsExactly(
            "NOT_SUPPORTED spec.policy: Unsupported value: \"x\": supported values: \"y\"");
  }
}
