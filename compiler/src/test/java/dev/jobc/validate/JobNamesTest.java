package dev.jobc.validate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jobc.diag.Code;
import dev.jobc.diag.Finding;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
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

  /** Kueue's ValidateQueueName: a DNS-1123 subdomain; a null value decodes as "" and fails. */
  @Test
  void aQueueNameMustBeALocalQueueName() {
    List<Finding> out = new ArrayList<>();
    JobNames.queueName(null, out);
    JobNames.queueName(Map.of("kueue.x-k8s.io/priority-class", "Not_A_Name"), out);
    JobNames.queueName(Map.of("kueue.x-k8s.io/queue-name", "team-a.gpu"), out);
    assertThat(out).as("no label, another label, a valid name").isEmpty();

    Map<String, String> nullValue = new HashMap<>();
    nullValue.put("kueue.x-k8s.io/queue-name", null);
    JobNames.queueName(nullValue, out);
    JobNames.queueName(Map.of("kueue.x-k8s.io/queue-name", "Team_A"), out);
    String subdomain =
        "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-'"
            + " or '.', and must start and end with an alphanumeric character (e.g."
            + " 'example.com', regex used for validation is"
            + " '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
    assertThat(out)
        .allSatisfy(
            f -> {
              assertThat(f.code()).isEqualTo(Code.INVALID);
              assertThat(f.path().toString())
                  .isEqualTo("metadata.labels[kueue.x-k8s.io/queue-name]");
            })
        .extracting(Finding::message)
        .containsExactly(
            "Invalid value: \"\": " + subdomain, "Invalid value: \"Team_A\": " + subdomain);
  }

  @Test
  void anInvalidNameQuotesTheName() {
    Finding f = JobNames.invalidName("1-mnist", "should match: x");
    assertThat(f.code()).isEqualTo(Code.INVALID);
    assertThat(f.path()).isEqualTo(JobNames.NAME);
    assertThat(f.message()).isEqualTo("Invalid value: \"1-mnist\": should match: x");
  }

  /** 52 characters fit a StatefulSet name (the 63 of its pods' revision label, less the hash). */
  @Test
  void theWorkerStatefulSetFitsUpToItsLimit() {
    List<Finding> out = new ArrayList<>();
    String longest = "n".repeat(JobNames.STATEFUL_SET_NAME_MAX - "-worker".length());
    assertThat(JobNames.statefulSetFits(longest, "use --workers pods", out)).isTrue();
    assertThat(out).isEmpty();

    assertThat(JobNames.statefulSetFits(longest + "n", "use --workers pods", out)).isFalse();
    assertThat(out)
        .singleElement()
        .satisfies(
            f -> {
              assertThat(f.code()).isEqualTo(Code.INVALID);
              assertThat(f.path()).isEqualTo(JobNames.NAME);
              assertThat(f.message())
                  .endsWith(
                      "would have 53 characters; Kubernetes creates no pods for StatefulSets over"
                          + " 52 (the controller-revision-hash label must fit 63); shorten the name"
                          + " to at most 45 characters or use --workers pods");
            });
  }

  @Test
  void theNamespaceMustBeKnownAndALabel() {
    List<Finding> out = new ArrayList<>();
    JobNames.namespace("team-a", out);
    assertThat(out).isEmpty();
    JobNames.namespace(null, out);
    JobNames.namespace("", out);
    JobNames.namespace("Team_A", out);
    assertThat(out)
        .extracting(f -> f.code() + " " + f.path())
        .containsExactly(
            "REQUIRED metadata.namespace",
            "REQUIRED metadata.namespace",
            "INVALID metadata.namespace");
    assertThat(out.get(2).message()).startsWith("Invalid value: \"Team_A\": a lowercase RFC 1123");
  }
}
