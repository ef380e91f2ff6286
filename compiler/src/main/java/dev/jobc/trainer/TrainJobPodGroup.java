package dev.jobc.trainer;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jobc.k8s.GangPlan;
import dev.jobc.k8s.GangScheduling;
import dev.jobc.k8s.QuantitySum;
import io.fabric8.kubernetes.api.model.Quantity;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The gang-scheduling plugins of kubeflow/trainer v2.3.0 ({@code
 * pkg/runtime/framework/plugins/coscheduling/coscheduling.go}, {@code plugins/volcano/volcano.go}):
 * the PodGroup named as the TrainJob, with every pod of the JobSet as a member, and the label or
 * annotation that makes each pod one.
 */
final class TrainJobPodGroup {
  /** trainingruntime_types.go CoschedulingPodGroupPolicySource: {@code +kubebuilder:default=60}. */
  static final int DEFAULT_SCHEDULE_TIMEOUT = 60;

  private TrainJobPodGroup() {}

  /**
   * The PodGroup for the runtime's {@code podGroupPolicy}, or null without one; marks the pod
   * templates of {@code spec} (EnforcePodGroupPolicy, applied by jobset.go Build's PodLabels and
   * PodAnnotations to every replicated Job).
   *
   * @param annotations the JobSet's propagated annotations (the runtime template's and patches'),
   *     where Volcano's plugin reads the queue
   */
  static GangPlan plan(TrainJobModel model, ObjectNode spec, Map<String, String> annotations) {
    JsonNode policy = model.runtime().spec().path("podGroupPolicy");
    boolean coscheduling = policy.has("coscheduling");
    boolean volcano = policy.has("volcano");
    if (!coscheduling && !volcano) {
      return null;
    }
    // Build: minMember is every pod set's count, minResources each pod's requests times its count.
    int members = 0;
    Map<String, QuantitySum> sums = new LinkedHashMap<>();
    String priorityClassName = null;
    for (ObjectNode job : TrainJobPlanner.replicatedJobs(spec)) {
      JsonNode jobSpec = job.path("template").path("spec");
      int count = jobSpec.path("parallelism").asInt(1);
      members += count;
      JsonNode podSpec = jobSpec.path("template").path("spec");
      podRequests(podSpec)
          .forEach((name, q) -> sums.computeIfAbsent(name, k -> new QuantitySum()).add(q, count));
      if (podSpec.path("priorityClassName").isTextual()) {
        // volcano.go Build: the last replicated Job's priorityClassName wins.
        priorityClassName = podSpec.get("priorityClassName").asText();
      }
      ObjectNode meta = object(object(object(job, "template"), "spec"), "template");
      ObjectNode podMeta = object(meta, "metadata");
      if (coscheduling) {
        object(podMeta, "labels").put(GangScheduling.POD_GROUP_LABEL, model.name());
      } else {
        object(podMeta, "annotations").put(GangScheduling.VOLCANO_GROUP_ANNOTATION, model.name());
      }
    }
    SortedMap<String, String> minResources = new TreeMap<>();
    sums.forEach((name, sum) -> minResources.put(name, sum.toString()));
    if (coscheduling) {
      int timeout =
          policy
              .path("coscheduling")
              .path("scheduleTimeoutSeconds")
              .asInt(DEFAULT_SCHEDULE_TIMEOUT);
      return new GangPlan(
          GangPlan.Flavor.SCHEDULER_PLUGINS, null, members, null, null, timeout, minResources);
    }
    return new GangPlan(
        GangPlan.Flavor.VOLCANO,
        null,
        members,
        annotations.get(GangScheduling.QUEUE_ANNOTATION),
        priorityClassName,
        null,
        minResources);
  }

  /**
   * k8s.io/component-helpers resource.PodRequests without options: the containers' requests summed,
   * restartable (sidecar) init containers added, every other init container's requests (with the
   * sidecars started before it) as a floor, then the pod's overhead. Limits do not count: the
   * Trainer reads the template before the API server defaults requests from limits.
   */
  static Map<String, Quantity> podRequests(JsonNode podSpec) {
    Map<String, Quantity> reqs = new TreeMap<>();
    for (JsonNode c : podSpec.path("containers")) {
      addAll(reqs, c.path("resources").path("requests"));
    }
    Map<String, Quantity> sidecars = new TreeMap<>();
    Map<String, Quantity> initFloor = new TreeMap<>();
    for (JsonNode c : podSpec.path("initContainers")) {
      JsonNode requests = c.path("resources").path("requests");
      if ("Always".equals(c.path("restartPolicy").asText())) {
        addAll(reqs, requests);
        addAll(sidecars, requests);
      } else {
        Map<String, Quantity> init = new TreeMap<>(sidecars);
        addAll(init, requests);
        init.forEach((name, q) -> initFloor.merge(name, q, TrainJobPodGroup::max));
      }
    }
    initFloor.forEach((name, q) -> reqs.merge(name, q, TrainJobPodGroup::max));
    addAll(reqs, podSpec.path("overhead"));
    return reqs;
  }

  private static void addAll(Map<String, Quantity> into, JsonNode list) {
    for (var e : list.properties()) {
      Quantity q = new Quantity(e.getValue().asText());
      into.merge(e.getKey(), q, Quantity::add);
    }
  }

  private static Quantity max(Quantity a, Quantity b) {
    return a.getNumericalAmount().compareTo(b.getNumericalAmount()) >= 0 ? a : b;
  }

  private static ObjectNode object(ObjectNode parent, String field) {
    return parent.path(field).isObject() ? (ObjectNode) parent.get(field) : parent.putObject(field);
  }
}
