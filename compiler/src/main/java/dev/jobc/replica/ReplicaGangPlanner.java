package dev.jobc.replica;

import dev.jobc.k8s.GangPlan;
import dev.jobc.k8s.GangPlan.Flavor;
import dev.jobc.k8s.GangScheduling;
import dev.jobc.k8s.QuantitySum;
import dev.jobc.model.SchedulingPolicy;
import dev.jobc.options.OptionTable;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Gang scheduling of a valid job as training-operator v1.9.0 {@code ReconcileJobs} decides it for
 * every kind: {@code minMember} all replicas unless {@code minAvailable}; Volcano's queue {@code
 * default} unless the policy names one; {@code minResources} the policy's or {@code
 * CalcPGMinResources}.
 */
final class ReplicaGangPlanner {
  static final String DEFAULT_QUEUE = "default";

  private ReplicaGangPlanner() {}

  static Optional<GangPlan> plan(ReplicaJob job) {
    String scheduler = job.options().get(OptionTable.GANG_SCHEDULER);
    if (scheduler == null) {
      return Optional.empty();
    }
    Flavor flavor = GangScheduling.flavor(scheduler);
    SchedulingPolicy policy = job.runPolicy().schedulingPolicy();
    int minMember =
        policy != null && policy.minAvailable() != null
            ? policy.minAvailable()
            : job.totalReplicas();
    SortedMap<String, String> minResources = GangScheduling.givenMinResources(policy);
    if (minResources == null) {
      minResources = minResources(job, minMember);
    }
    String queue = null;
    String priorityClass = null;
    if (flavor == Flavor.VOLCANO) {
      queue = policy != null && nonEmpty(policy.queue()) ? policy.queue() : DEFAULT_QUEUE;
      priorityClass =
          policy != null && nonEmpty(policy.priorityClass()) ? policy.priorityClass() : null;
    }
    return Optional.of(
        GangScheduling.plan(scheduler, policy, minMember, queue, priorityClass, minResources));
  }

  /**
   * {@code CalcPGMinResources}: the first {@code minMember} pods, each counting its containers'
   * requests, or a container's limits when it has no requests. Upstream orders the types by live
   * PriorityClass values, ties in Go's random map order; jobc, which cannot look classes up, takes
   * them in type order. With the default {@code minMember} every pod counts and the order does not
   * matter.
   */
  static SortedMap<String, String> minResources(ReplicaJob job, int minMember) {
    Map<String, QuantitySum> sums = new LinkedHashMap<>();
    int pods = 0;
    for (ReplicaJob.Replica r : job.each()) {
      int take = Math.max(0, Math.min(r.count(), minMember - pods));
      pods += take;
      if (take == 0) {
        continue;
      }
      for (Container c : r.spec().template().getSpec().getContainers()) {
        ResourceRequirements res = c.getResources();
        Map<String, Quantity> counted = null;
        if (res != null) {
          counted =
              res.getRequests() != null && !res.getRequests().isEmpty()
                  ? res.getRequests()
                  : res.getLimits();
        }
        if (counted != null) {
          int times = take;
          counted.forEach(
              (name, q) -> {
                if (q != null) {
                  sums.computeIfAbsent(name, k -> new QuantitySum()).add(q, times);
                }
              });
        }
      }
    }
    SortedMap<String, String> out = new TreeMap<>();
    sums.forEach((name, sum) -> out.put(name, sum.toString()));
    return out;
  }

  private static boolean nonEmpty(String s) {
    return s != null && !s.isEmpty();
  }
}
