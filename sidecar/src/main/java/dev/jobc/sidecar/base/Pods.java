package dev.jobc.sidecar.base;

import io.fabric8.kubernetes.api.model.ContainerStateTerminated;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import java.util.ArrayList;
import java.util.List;

/** What the sidecar reads from a pod's status. */
public final class Pods {
  private Pods() {}

  /** Condition {@code Ready=True} and not being deleted (a terminating pod leaves the set). */
  public static boolean ready(Pod pod) {
    if (pod.getMetadata().getDeletionTimestamp() != null || pod.getStatus() == null) {
      return false;
    }
    if (pod.getStatus().getConditions() == null) {
      return false;
    }
    for (PodCondition c : pod.getStatus().getConditions()) {
      if ("Ready".equals(c.getType())) {
        return "True".equals(c.getStatus());
      }
    }
    return false;
  }

  /**
   * Phase Running with every container started, and not being deleted: dgl-operator's watcher-loop
   * counts phase Running alone ({@code WATCHERMODE=ready}); that every container has started as
   * well means {@code kubectl exec} finds the main one. Readiness is not asked for.
   */
  public static boolean running(Pod pod) {
    if (pod.getMetadata().getDeletionTimestamp() != null || !"Running".equals(phase(pod))) {
      return false;
    }
    List<ContainerStatus> statuses = pod.getStatus().getContainerStatuses();
    if (statuses == null || statuses.isEmpty()) {
      return false;
    }
    for (ContainerStatus s : statuses) {
      if (s.getState() == null || s.getState().getRunning() == null) {
        return false;
      }
    }
    return true;
  }

  /** Container {@code name} (an init container or not) is running, in a pod not being deleted. */
  public static boolean containerRunning(Pod pod, String name) {
    if (pod.getMetadata().getDeletionTimestamp() != null || pod.getStatus() == null) {
      return false;
    }
    List<ContainerStatus> all = new ArrayList<>();
    if (pod.getStatus().getInitContainerStatuses() != null) {
      all.addAll(pod.getStatus().getInitContainerStatuses());
    }
    if (pod.getStatus().getContainerStatuses() != null) {
      all.addAll(pod.getStatus().getContainerStatuses());
    }
    for (ContainerStatus s : all) {
      if (name.equals(s.getName())) {
        return s.getState() != null && s.getState().getRunning() != null;
      }
    }
    return false;
  }

  public static String phase(Pod pod) {
    return pod.getStatus() == null || pod.getStatus().getPhase() == null
        ? ""
        : pod.getStatus().getPhase();
  }

  public static String ip(Pod pod) {
    return pod.getStatus() == null || pod.getStatus().getPodIP() == null
        ? ""
        : pod.getStatus().getPodIP();
  }

  /** The status of container {@code name}, or {@code null}. */
  public static ContainerStatus container(Pod pod, String name) {
    if (pod.getStatus() == null || pod.getStatus().getContainerStatuses() == null) {
      return null;
    }
    for (ContainerStatus s : pod.getStatus().getContainerStatuses()) {
      if (name.equals(s.getName())) {
        return s;
      }
    }
    return null;
  }

  /**
   * Container {@code name}'s terminated state, or {@code null} while it runs or has not started (or
   * {@code pod} is {@code null}).
   */
  public static ContainerStateTerminated terminated(Pod pod, String name) {
    if (pod == null) {
      return null;
    }
    ContainerStatus status = container(pod, name);
    if (status == null || status.getState() == null) {
      return null;
    }
    return status.getState().getTerminated();
  }
}
