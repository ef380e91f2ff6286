package dev.jobc.replica;

import dev.jobc.k8s.GangPlan;
import dev.jobc.k8s.GangPlan.Flavor;
import dev.jobc.k8s.GangScheduling;
import dev.jobc.k8s.QuantitySum;
import dev.jobc.k8s.SidecarContainer;
import dev.jobc.model.RunPolicy;
import dev.jobc.model.SchedulingPolicy;
import dev.jobc.options.CompileOptions;
import dev.jobc.options.OptionTable;
import dev.jobc.options.RenderDefaults;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.function.IntFunction;
import java.util.function.IntUnaryOperator;

/**
 * Gang scheduling of a valid job as training-operator v1.9.0 {@code ReconcileJobs} decides it for
 * every kind: {@code minMember} all replicas unless {@code minAvailable}; Volcano's queue {@code
 * default} unless the policy names one; {@code minResources} the policy's or {@code
 * CalcPGMinResources}.
 */
public final class ReplicaGangPlanner {
  static final String DEFAULT_QUEUE = "default";

  private ReplicaGangPlanner() {}

  /**
   * The plan of {@code job}, whose pods are {@code replicas} (the deciding ones with a sidecar).
   */
  static Optional<GangPlan> plan(ReplicaJob job, List<ReplicaPod> replicas) {
    return plan(
        job.options(),
        job.runPolicy(),
        job.totalReplicas(),
        minMember -> minResources(job, replicas, minMember));
  }

  /**
   * The plan for a job of {@code totalReplicas} pods, whose {@code CalcPGMinResources} for a {@code
   * minMember} is {@code minResources}' (TFJob plans its gang here too).
   */
  public static Optional<GangPlan> plan(
      CompileOptions options,
      RunPolicy run,
      int totalReplicas,
      IntFunction<SortedMap<String, String>> minResources) {
    String scheduler = options.get(OptionTable.GANG_SCHEDULER);
    if (scheduler == null) {
      return Optional.empty();
    }
    Flavor flavor = GangScheduling.flavor(scheduler);
    SchedulingPolicy policy = run.schedulingPolicy();
    int minMember =
        policy != null && policy.minAvailable() != null ? policy.minAvailable() : totalReplicas;
    SortedMap<String, String> given = GangScheduling.givenMinResources(policy);
    SortedMap<String, String> min = given != null ? given : minResources.apply(minMember);
    String queue = null;
    String priorityClass = null;
    if (flavor == Flavor.VOLCANO) {
      queue = policy != null && nonEmpty(policy.queue()) ? policy.queue() : DEFAULT_QUEUE;
      priorityClass =
          policy != null && nonEmpty(policy.priorityClass()) ? policy.priorityClass() : null;
    }
    // training-operator v1.9.0 common/job.go ReconcileJobs: schedulerTimeout stays nil unless the
    // policy sets one, and the scheduler-plugins PodGroup leaves it out (omitempty).
    return Optional.of(
        GangScheduling.plan(scheduler, policy, minMember, queue, priorityClass, min, null));
  }

  /**
   * One replica type as {@code CalcPGMinResources} counts it: its pods, their template, and how
   * many of its first {@code n} pods carry a jobc-sidecar.
   */
  public record PodCount(int count, PodTemplateSpec template, IntUnaryOperator sidecars) {}

  /**
   * {@code CalcPGMinResources}: the first {@code minMember} pods, each counting its containers'
   * requests, or a container's limits when it has no requests, and the requests of the
   * jobc-sidecars among them (a native sidecar's requests add to the pod's). Upstream orders the
   * types by live PriorityClass values, ties in Go's random map order; jobc, which cannot look
   * classes up, takes them in type order. With the default {@code minMember} every pod counts and
   * the order does not matter. The sidecar's requests are those of the job's render defaults.
   */
  public static SortedMap<String, String> minResources(
      RenderDefaults defaults, List<PodCount> types, int minMember) {
    Map<String, QuantitySum> sums = new LinkedHashMap<>();
    int pods = 0;
    for (PodCount t : types) {
      int take = Math.max(0, Math.min(t.count(), minMember - pods));
      pods += take;
      if (take == 0) {
        continue;
      }
      for (Container c : t.template().getSpec().getContainers()) {
        ResourceRequirements res = c.getResources();
        Map<String, Quantity> counted = null;
        if (res != null) {
          counted =
              res.getRequests() != null && !res.getRequests().isEmpty()
                  ? res.getRequests()
                  : res.getLimits();
        }
        add(sums, counted, take);
      }
      add(sums, SidecarContainer.requests(defaults), t.sidecars().applyAsInt(take));
    }
    SortedMap<String, String> out = new TreeMap<>();
    sums.forEach((name, sum) -> out.put(name, sum.toString()));
    return out;
  }

  /**
   * {@code CalcPGMinResources} with the jobc-sidecar's requests on each deciding pod (none in the
   * JobSet target, which runs no sidecar).
   */
  static SortedMap<String, String> minResources(
      ReplicaJob job, List<ReplicaPod> replicas, int minMember) {
    boolean sidecars = !ReplicaJobSets.chosen(job.options());
    List<PodCount> types = new ArrayList<>();
    for (ReplicaJob.Replica r : job.each()) {
      types.add(
          new PodCount(
              r.count(),
              r.spec().template(),
              take ->
                  (int)
                      replicas.stream()
                          .filter(
                              p ->
                                  sidecars
                                      && p.decides()
                                      && p.type().equals(r.type())
                                      && p.index() < take)
                          .count()));
    }
    return minResources(job.options().get(OptionTable.RENDER_DEFAULTS), types, minMember);
  }

  private static void add(Map<String, QuantitySum> sums, Map<String, Quantity> counted, int times) {
    if (counted == null || times == 0) {
      return;
    }
    counted.forEach(
        (name, q) -> {
          if (q != null) {
            sums.computeIfAbsent(name, k -> new QuantitySum()).add(q, times);
          }
        });
  }

  private static boolean nonEmpty(String s) {
    return s != null && !s.isEmpty();
  }
}
