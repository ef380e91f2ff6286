package dev.jobc.validate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jobc.diag.Code;
import dev.jobc.diag.Finding;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The name rules every kind's validator calls; each kind passes its own reason. */
class JobNamesTest {
  @Test
  void aNamedJobPassesAndAnUnnamedOneIsReportedOnce() {
    List<Finding> out = new ArrayList<>();
    assertThat(JobNames.named("pi", null, "every host name", out)).isTrue();
    assertThat(out).isEmpty();

    assertThat(JobNames.named("", null, "every host name", out)).isFalse();
    assertThat(out)
        .singleElement()
        .satisfies(
            f -> {
              assertThat(f.code()).isEqualTo(Code.REQUIRED);
              assertThat(f.path()).isEqualTo(JobNames.NAME);
              assertThat(f.message()).isEqualTo("Required value: name is required");
            });
  }

  @Test
  void generateNameIsRejectedWithTheKindsReason() {
    List<Finding> out = new ArrayList<>();
    assertThat(JobNames.named(null, "mnist-", "every replica's host name in TF_CONFIG", out))
        .isFalse();
    assertThat(out)
        .extracting(Finding::message)
        .containsExactly(
            "generateName is not supported: the name is part of every replica's host name in"
                + " TF_CONFIG, so it must be known when rendering");
  }

  @Test
  void anInvalidNameQuotesTheName() {
    Finding f = JobNames.invalidName("1-mnist", "should match: x");
    assertThat(f.code()).isEqualTo(Code.INVALID);
    assertThat(f.path()).isEqualTo(JobNames.NAME);
    assertThat(f.message()).isEqualTo("Invalid value: \"1-mnist\": should match: x");
  }
}
