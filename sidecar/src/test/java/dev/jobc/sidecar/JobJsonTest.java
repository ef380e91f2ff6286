package dev.jobc.sidecar;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.jobc.sidecar.client.JobJson;
import dev.jobc.sidecar.client.PodJson;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobCondition;
import io.fabric8.kubernetes.api.model.batch.v1.JobSpec;
import io.fabric8.kubernetes.api.model.batch.v1.JobStatus;
import io.fabric8.kubernetes.api.model.batch.v1.PodFailurePolicyRule;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Jobs as the API server writes them, read by {@link JobJson} into fabric8's model. */
class JobJsonTest {
  /** A launcher Job with a pod failure policy (batch/v1), running with four pods. */
  static final String LAUNCHER =
      """
      {
        "apiVersion": "batch/v1",
        "kind": "Job",
        "metadata": {
          "name": "pi-launcher",
          "namespace": "team",
          "uid": "9f2d4e6a-job",
          "resourceVersion": "48100",
          "generation": 2,
          "creationTimestamp": "2024-05-01T10:00:00Z",
          "labels": {"jobc.dev/job": "pi", "jobc.dev/role": "launcher"},
          "annotations": {"jobc.dev/attempt": "2", "batch.kubernetes.io/job-tracking": ""},
          "managedFields": [{"manager": "jobc", "operation": "Apply", "fieldsV1": {"f:spec": {}}}]
        },
        "spec": {
          "parallelism": 4,
          "completions": 1,
          "backoffLimit": 6,
          "suspend": false,
          "completionMode": "NonIndexed",
          "manualSelector": false,
          "podFailurePolicy": {
            "rules": [
              {"action": "FailJob",
               "onExitCodes": {"containerName": "launcher", "operator": "In", "values": [42, 43]}},
              {"action": "Ignore",
               "onPodConditions": [{"type": "DisruptionTarget", "status": "True"}]},
              {"action": "Count",
               "onExitCodes": {"operator": "NotIn", "values": [0, 1, 2]}}
            ]
          },
          "selector": {"matchLabels": {"batch.kubernetes.io/controller-uid": "9f2d4e6a-job"}},
          "template": {
            "metadata": {"labels": {"jobc.dev/job": "pi"}},
            "spec": {
              "containers": [{"name": "launcher", "image": "registry.example/pi:1.0",
                              "args": ["mpirun", "-n", "4"], "resources": {}}],
              "restartPolicy": "Never",
              "terminationGracePeriodSeconds": 30
            }
          }
        },
        "status": {
          "conditions": [
            {"type": "Suspended", "status": "False", "reason": "JobResumed",
             "message": "Job resumed", "lastProbeTime": "2024-05-01T10:01:00Z",
             "lastTransitionTime": "2024-05-01T10:01:00Z"},
            {"type": "FailureTarget", "status": "True", "reason": "PodFailurePolicy",
             "message": "Container launcher for pod team/pi-launcher-x7k2q failed with exit code 42 matching FailJob rule at index 0"}
          ],
          "startTime": "2024-05-01T10:01:00Z",
          "active": 3,
          "succeeded": 1,
          "failed": 2,
          "ready": 4,
          "terminating": 0,
          "uncountedTerminatedPods": {}
        }
      }
      """;

  /**
   * The fields of a Job the sidecar reads: metadata, spec (with its pod failure policy), status.
   */
  @Test
  void jobKeepsMetadataSpecAndStatus() throws IOException {
    Job job = JobJson.job(LAUNCHER.getBytes(StandardCharsets.UTF_8));
    assertThat(job.getApiVersion()).isEqualTo("batch/v1");
    assertThat(job.getKind()).isEqualTo("Job");
    assertThat(job.getMetadata().getName()).isEqualTo("pi-launcher");
    assertThat(job.getMetadata().getNamespace()).isEqualTo("team");
    assertThat(job.getMetadata().getUid()).isEqualTo("9f2d4e6a-job");
    assertThat(job.getMetadata().getResourceVersion()).isEqualTo("48100");
    assertThat(job.getMetadata().getLabels())
        .containsExactly(entry("jobc.dev/job", "pi"), entry("jobc.dev/role", "launcher"));
    assertThat(job.getMetadata().getAnnotations())
        .containsExactly(
            entry("jobc.dev/attempt", "2"), entry("batch.kubernetes.io/job-tracking", ""));
    assertThat(job.getMetadata().getManagedFields()).isEmpty();
    assertThat(job.getMetadata().getGeneration()).isNull();

    JobSpec spec = job.getSpec();
    assertThat(spec.getParallelism()).isEqualTo(4);
    assertThat(spec.getCompletions()).isEqualTo(1);
    assertThat(spec.getBackoffLimit()).isEqualTo(6);
    assertThat(spec.getSuspend()).isFalse();
    assertThat(spec.getCompletionMode()).isNull();
    assertThat(spec.getTemplate().getSpec().getRestartPolicy()).isEqualTo("Never");
    assertThat(spec.getTemplate().getSpec().getContainers()).isEmpty();

    List<PodFailurePolicyRule> rules = spec.getPodFailurePolicy().getRules();
    assertThat(rules)
        .extracting(PodFailurePolicyRule::getAction)
        .containsExactly("FailJob", "Ignore", "Count");
    PodFailurePolicyRule failJob = rules.get(0);
    assertThat(failJob.getOnExitCodes().getContainerName()).isEqualTo("launcher");
    assertThat(failJob.getOnExitCodes().getOperator()).isEqualTo("In");
    assertThat(failJob.getOnExitCodes().getValues()).containsExactly(42, 43);
    assertThat(failJob.getOnPodConditions()).isEmpty();
    PodFailurePolicyRule ignore = rules.get(1);
    assertThat(ignore.getOnExitCodes()).isNull();
    assertThat(ignore.getOnPodConditions()).hasSize(1);
    assertThat(ignore.getOnPodConditions().get(0).getType()).isEqualTo("DisruptionTarget");
    assertThat(ignore.getOnPodConditions().get(0).getStatus()).isEqualTo("True");
    PodFailurePolicyRule count = rules.get(2);
    assertThat(count.getOnExitCodes().getContainerName()).isNull();
    assertThat(count.getOnExitCodes().getOperator()).isEqualTo("NotIn");
    assertThat(count.getOnExitCodes().getValues()).containsExactly(0, 1, 2);

    JobStatus status = job.getStatus();
    assertThat(status.getActive()).isEqualTo(3);
    assertThat(status.getSucceeded()).isEqualTo(1);
    assertThat(status.getFailed()).isEqualTo(2);
    assertThat(status.getReady()).isEqualTo(4);
    assertThat(status.getStartTime()).isNull();
    assertThat(status.getConditions())
        .extracting(
            JobCondition::getType,
            JobCondition::getStatus,
            JobCondition::getReason,
            JobCondition::getMessage)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("Suspended", "False", "JobResumed", "Job resumed"),
            org.assertj.core.groups.Tuple.tuple(
                "FailureTarget",
                "True",
                "PodFailurePolicy",
                "Container launcher for pod team/pi-launcher-x7k2q failed with exit code 42"
                    + " matching FailJob rule at index 0"));
    assertThat(status.getConditions().get(0).getLastTransitionTime()).isNull();
  }

  /** A new Job (no status yet, no policy) and fields of an unexpected JSON type read as absent. */
  @Test
  void absentAndMistypedFieldsAreNull() throws IOException {
    Job job =
        JobJson.job(
            """
            {"metadata": {"name": "j", "labels": {"a": 1, "b": null, "c": "x"}, "uid": 7},
             "spec": {"backoffLimit": "6", "parallelism": 2.0, "completions": null,
                      "suspend": "true", "template": {"spec": null},
                      "podFailurePolicy": {"rules": [{"action": "FailJob",
                        "onExitCodes": {"operator": "In", "values": [1, "2", 3.0, null, 4]}},
                        "not a rule"]}}}
            """
                .getBytes(StandardCharsets.UTF_8));
    assertThat(job.getMetadata().getName()).isEqualTo("j");
    assertThat(job.getMetadata().getUid()).isNull();
    assertThat(job.getMetadata().getLabels())
        .containsExactly(entry("a", null), entry("b", null), entry("c", "x"));
    assertThat(job.getMetadata().getAnnotations()).isEmpty();
    JobSpec spec = job.getSpec();
    assertThat(spec.getBackoffLimit()).isNull();
    assertThat(spec.getParallelism()).isNull();
    assertThat(spec.getCompletions()).isNull();
    assertThat(spec.getSuspend()).isNull();
    assertThat(spec.getTemplate()).isNull();
    assertThat(spec.getPodFailurePolicy().getRules()).hasSize(1);
    assertThat(spec.getPodFailurePolicy().getRules().get(0).getOnExitCodes().getValues())
        .containsExactly(1, 4);
    assertThat(job.getStatus()).isNull();
    assertThat(JobJson.job("{}".getBytes(StandardCharsets.UTF_8)).getSpec()).isNull();
  }

  /** The tree: objects as ordered maps, arrays as lists, longs, doubles, booleans and nulls. */
  @Test
  void objectReadsEveryJsonValue() throws IOException {
    byte[] json =
        """
        {"a": [1, [2.5, null, []], {"b": [true, false]}], "c": null, "d": -1.0e3,
         "e": "s", "f": 9007199254740993, "g": {}, "h": [[[]]], "i": {"j": {"k": "deep"}}}
        """
            .getBytes(StandardCharsets.UTF_8);
    Map<String, Object> tree;
    try (JsonParser p = PodJson.parser(json)) {
      assertThat(p.nextToken()).isEqualTo(JsonToken.START_OBJECT);
      tree = JobJson.object(p);
      assertThat(p.currentToken()).as("left at the object's end").isEqualTo(JsonToken.END_OBJECT);
      assertThat(p.nextToken()).isNull();
    }
    Map<String, Object> expected = new LinkedHashMap<>();
    expected.put(
        "a", List.of(1L, Arrays.asList(2.5, null, List.of()), Map.of("b", List.of(true, false))));
    expected.put("c", null);
    expected.put("d", -1000.0);
    expected.put("e", "s");
    expected.put("f", 9007199254740993L);
    expected.put("g", Map.of());
    expected.put("h", List.of(List.of(List.of())));
    expected.put("i", Map.of("j", Map.of("k", "deep")));
    assertThat(tree).isEqualTo(expected);
    assertThat(new ArrayList<>(tree.keySet()))
        .containsExactly("a", "c", "d", "e", "f", "g", "h", "i");
    assertThat(tree.get("d")).isInstanceOf(Double.class);
    assertThat(((List<?>) tree.get("a")).get(0)).isInstanceOf(Long.class);
  }
}
