package dev.jobc.k8s;

import java.util.SortedMap;

/**
 * Gang scheduling decided for one job: the PodGroup {@code <job>} to emit and how its pods are
 * marked as members.
 *
 * @param flavor which PodGroup API and pod marking
 * @param schedulerName {@code spec.schedulerName} of every pod of the job
 * @param minMember pods that must be schedulable together (0: none)
 * @param queue Volcano queue, or {@code null}
 * @param priorityClassName Volcano PodGroup priority class, or {@code null}
 * @param scheduleTimeoutSeconds scheduler-plugins wait for the gang, or {@code null} to leave it
 *     out
 * @param minResources canonical quantities by resource name, or {@code null} for none
 */
public record GangPlan(
    Flavor flavor,
    String schedulerName,
    int minMember,
    String queue,
    String priorityClassName,
    Integer scheduleTimeoutSeconds,
    SortedMap<String, String> minResources) {

  /** The two PodGroup APIs mpi-operator v2 and training-operator v1.9 drive. */
  public enum Flavor {
    /** Volcano: {@code scheduling.volcano.sh/v1beta1}, pods annotated with the group name. */
    VOLCANO("scheduling.volcano.sh/v1beta1"),
    /** scheduler-plugins coscheduling: {@code scheduling.x-k8s.io/v1alpha1}, pods labelled. */
    SCHEDULER_PLUGINS("scheduling.x-k8s.io/v1alpha1");

    private final String apiVersion;

    Flavor(String apiVersion) {
      this.apiVersion = apiVersion;
    }

    public String apiVersion() {
      return apiVersion;
    }
  }
}
