package dev.jobc.model;

import io.fabric8.kubernetes.api.model.PodTemplateSpec;

/** One entry of {@code mpiReplicaSpecs} (kubeflow/common {@code ReplicaSpec}). */
public record ReplicaSpec(Integer replicas, PodTemplateSpec template, String restartPolicy) {
  public ReplicaSpec withReplicas(Integer value) {
    return new ReplicaSpec(value, template, restartPolicy);
  }

  public ReplicaSpec withRestartPolicy(String value) {
    return new ReplicaSpec(replicas, template, value);
  }
}
