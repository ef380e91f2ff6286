package dev.jobc.sidecar;

import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;

/** What the sidecar reads from a pod's status. */
final class Pods {
  private Pods() {}

  /** Condition {@code Ready=True} and not being deleted (a terminating pod leaves the set). */
  static boolean ready(Pod pod) {
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

  static String phase(Pod pod) {
    return pod.getStatus() == null || pod.getStatus().getPhase() == null
        ? ""
        : pod.getStatus().getPhase();
  }

  static String ip(Pod pod) {
    return pod.getStatus() == null || pod.getStatus().getPodIP() == null
        ? ""
        : pod.getStatus().getPodIP();
  }

  /** The status of container {@code name}, or {@code null}. */
  static ContainerStatus container(Pod pod, String name) {
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
}
