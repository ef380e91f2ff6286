package dev.jobc.sidecar.replicas;

import dev.jobc.sidecar.base.PodWatch;
import dev.jobc.sidecar.client.ClusterApi;

/**
 * Ends a replica without deleting anything jobc rendered (the run-time rule): its Job is suspended
 * ({@code spec.suspend: true}; the Job controller then stops the pod and keeps the Job), or its
 * bare Pod gets {@code spec.activeDeadlineSeconds: 1} (the kubelet then ends it, {@code
 * DeadlineExceeded}; a running pod's deadline may only be set or lowered). Each is a merge patch of
 * that one field under field manager {@code jobc-sidecar}, so that Argo CD's {@code
 * managedFieldsManagers} can tell it from the fields Git holds; the objects carry Flux's {@code
 * kustomize.toolkit.fluxcd.io/ssa: IfNotPresent}.
 */
final class ReplicaStops {
  private final ClusterApi client;
  private final String namespace;
  private final boolean podCarrier;

  ReplicaStops(ClusterApi client, String namespace, boolean podCarrier) {
    this.client = client;
    this.namespace = namespace;
    this.podCarrier = podCarrier;
  }

  /** Ends replica {@code name}; throws when the API refuses or cannot be reached. */
  void stop(String name) {
    try {
      if (podCarrier) {
        client.patchPod(
            namespace,
            name,
            ClusterApi.PatchType.MERGE,
            "{\"spec\":{\"activeDeadlineSeconds\":1}}");
      } else {
        client.patchJob(
            namespace, name, ClusterApi.PatchType.MERGE, "{\"spec\":{\"suspend\":true}}");
      }
    } catch (RuntimeException e) {
      throw new IllegalStateException("stopping " + name + " failed: " + PodWatch.describe(e), e);
    }
  }
}
