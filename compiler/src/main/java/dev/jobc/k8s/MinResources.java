package dev.jobc.k8s;

import dev.jobc.model.ReplicaSpec;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * A PodGroup's {@code minResources} computed from the pod templates, as mpi-operator v2's {@code
 * calPGMinResource} does, minus its dependence on cluster state.
 *
 * <p>Per container, requests count, and a limit stands in for a resource without a request; init
 * containers are ignored; each replica type's sum is multiplied by its pod count. When launcher and
 * workers together exceed {@code minMember}, the workers are cut to {@code minMember − 1}: upstream
 * does that when both have the same PriorityClass value, and otherwise cuts whichever group a live
 * PriorityClass lookup ranks lower. jobc cannot look classes up, so it always keeps the launcher,
 * without which no gang can make progress. Groups cut to zero pods contribute nothing (upstream
 * lists their resources with quantity 0). The result is deterministic: launcher before workers,
 * containers in template order, resource names sorted.
 */
public final class MinResources {
  private MinResources() {}

  /**
   * Canonical quantity text by resource name; empty when no container asks for anything.
   *
   * @param launcher the launcher spec (one pod)
   * @param worker the worker spec, or {@code null} without workers
   * @param minMember the PodGroup's {@code minMember}, at least 1
   */
  public static SortedMap<String, String> compute(
      ReplicaSpec launcher, ReplicaSpec worker, int minMember) {
    int launchers = launcher == null || launcher.replicas() == null ? 0 : launcher.replicas();
    int workers = worker == null || worker.replicas() == null ? 0 : worker.replicas();
    if (worker != null && (long) launchers + workers > minMember) {
      workers = Math.max(minMember - 1, 0);
    }
    Map<String, QuantitySum> sums = new LinkedHashMap<>();
    add(sums, launcher, launchers);
    add(sums, worker, workers);
    SortedMap<String, String> out = new TreeMap<>();
    sums.forEach((name, sum) -> out.put(name, sum.toString()));
    return Collections.unmodifiableSortedMap(out);
  }

  /** The same for a gang of {@code pods} pods of one {@code spec}. */
  public static SortedMap<String, String> of(ReplicaSpec spec, int pods) {
    Map<String, QuantitySum> sums = new LinkedHashMap<>();
    add(sums, spec, pods);
    SortedMap<String, String> out = new TreeMap<>();
    sums.forEach((name, sum) -> out.put(name, sum.toString()));
    return Collections.unmodifiableSortedMap(out);
  }

  private static void add(Map<String, QuantitySum> sums, ReplicaSpec spec, int pods) {
    if (spec == null || pods == 0 || spec.template() == null || spec.template().getSpec() == null) {
      return;
    }
    List<Container> containers = spec.template().getSpec().getContainers();
    for (Container c : containers == null ? List.<Container>of() : containers) {
      for (Map.Entry<String, Quantity> e : effective(c.getResources()).entrySet()) {
        sums.computeIfAbsent(e.getKey(), k -> new QuantitySum()).add(e.getValue(), pods);
      }
    }
  }

  /** Requests, and limits for resources without a request (mpi-operator {@code addResources}). */
  private static Map<String, Quantity> effective(ResourceRequirements resources) {
    Map<String, Quantity> merged = new TreeMap<>();
    if (resources != null) {
      putAbsent(merged, resources.getRequests());
      putAbsent(merged, resources.getLimits());
    }
    return merged;
  }

  private static void putAbsent(Map<String, Quantity> into, Map<String, Quantity> from) {
    if (from != null) {
      from.forEach(
          (name, quantity) -> {
            if (quantity != null) {
              into.putIfAbsent(name, quantity);
            }
          });
    }
  }
}
