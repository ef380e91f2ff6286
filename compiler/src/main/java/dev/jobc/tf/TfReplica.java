package dev.jobc.tf;

/**
 * One replica of a TFJob: the pod training-operator would create, with its Service.
 *
 * @param name {@code <job>-<type>-<index>}: the Service's, the carrying Job's or Pod's name
 * @param tfConfig the TF_CONFIG value, or {@code null} when the job is not distributed
 * @param masterRole whether the pod gets {@code training.kubeflow.org/job-role: master}
 * @param decides whether this replica decides the job's outcome and so carries the sidecar
 */
public record TfReplica(
    TfReplicaType type,
    int index,
    String name,
    String tfConfig,
    boolean masterRole,
    boolean decides) {}
