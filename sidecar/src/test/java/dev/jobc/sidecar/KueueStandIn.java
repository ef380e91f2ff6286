package dev.jobc.sidecar;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * What Kueue (v0.19.2) does to a JobSet or bare Pod with a {@code kueue.x-k8s.io/queue-name}, on
 * {@link LiveObjects}:
 *
 * <ul>
 *   <li>at creation its webhook suspends a JobSet ({@code pkg/controller/jobs/jobset/
 *       jobset_webhook.go}, {@code Default} calling {@code jobframework.ApplyDefaultForSuspend} of
 *       {@code pkg/controller/jobframework/defaults.go}) and gates a Pod with {@code
 *       kueue.x-k8s.io/admission} ({@code pkg/controller/jobs/pod/pod_webhook.go}, {@code
 *       Default});
 *   <li>at admission it merges the flavor's node selector into the pod templates and unsuspends the
 *       JobSet ({@code pkg/controller/jobs/jobset/jobset_controller.go}, {@code
 *       RunWithPodSetsInfo}, through {@code startJob} of {@code
 *       pkg/controller/jobframework/reconciler.go}), or sets a Pod's node selector and removes its
 *       gate ({@code pkg/controller/jobs/pod/pod_controller.go}, {@code Run});
 *   <li>an admitted JobSet found suspended is started again ({@code reconciler.go}: a job whose
 *       Workload is admitted and that is suspended gets {@code startJob} again).
 * </ul>
 *
 * Its writes go under field manager {@value #MANAGER} (the stand-in's name: no documented entry
 * depends on it). {@link #restarts} counts the JobSets it had to start again: a fight with Git.
 */
final class KueueStandIn {
  static final String MANAGER = "kueue";
  static final String QUEUE = "kueue.x-k8s.io/queue-name";
  static final String GATE = "kueue.x-k8s.io/admission";

  private static final ObjectMapper JSON = new ObjectMapper();

  private final LiveObjects cluster;
  private final Set<String> admitted = new TreeSet<>();
  int restarts;

  KueueStandIn(LiveObjects cluster) {
    this.cluster = cluster;
    cluster.onCreate(KueueStandIn::defaultOnCreate);
  }

  static boolean queued(JsonNode o) {
    return !o.path("metadata").path("labels").path(QUEUE).asText("").isEmpty();
  }

  private static void defaultOnCreate(ObjectNode o) {
    if (!queued(o)) {
      return;
    }
    switch (o.path("kind").asText()) {
      case "JobSet" -> LiveObjects.set(o, "/spec/suspend", JSON.valueToTree(true));
      case "Pod" -> {
        ObjectNode gate = JSON.createObjectNode().put("name", GATE);
        int at = o.path("spec").path("schedulingGates").size();
        LiveObjects.set(o, "/spec/schedulingGates/" + at, gate);
      }
      default -> {}
    }
  }

  /** Admits every queued object with a flavor of {@code nodeSelector}. */
  void admitAll(Map<String, String> nodeSelector) {
    for (ObjectNode o : cluster.all().values()) {
      if (!queued(o) || !admitted.add(LiveObjects.key(o))) {
        continue;
      }
      ObjectNode patch = JSON.createObjectNode();
      switch (o.path("kind").asText()) {
        case "JobSet" -> {
          JsonNode jobs = o.path("spec").path("replicatedJobs");
          for (int i = 0; i < jobs.size(); i++) {
            String at = "/spec/replicatedJobs/" + i + "/template/spec/template/spec/nodeSelector/";
            nodeSelector.forEach(
                (k, v) -> LiveObjects.set(patch, at + escape(k), JSON.valueToTree(v)));
          }
          LiveObjects.set(patch, "/spec/suspend", JSON.valueToTree(false));
        }
        case "Pod" -> {
          nodeSelector.forEach(
              (k, v) ->
                  LiveObjects.set(patch, "/spec/nodeSelector/" + escape(k), JSON.valueToTree(v)));
          LiveObjects.set(patch, "/spec/schedulingGates", JSON.createArrayNode());
        }
        default -> {
          continue;
        }
      }
      cluster.patch(o, patch, MANAGER);
    }
  }

  /** One reconciliation: an admitted JobSet found suspended is started again. */
  void reconcile() {
    for (ObjectNode o : cluster.all().values()) {
      if (admitted.contains(LiveObjects.key(o))
          && o.path("kind").asText().equals("JobSet")
          && o.path("spec").path("suspend").asBoolean(false)) {
        restarts++;
        ObjectNode patch = JSON.createObjectNode();
        LiveObjects.set(patch, "/spec/suspend", JSON.valueToTree(false));
        cluster.patch(o, patch, MANAGER);
      }
    }
  }

  private static String escape(String key) {
    return key.replace("~", "~0").replace("/", "~1");
  }
}
