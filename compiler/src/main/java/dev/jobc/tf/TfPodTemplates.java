package dev.jobc.tf;

import dev.jobc.conventions.TfLabels;
import dev.jobc.k8s.Metadata;
import dev.jobc.k8s.PodTemplates;
import dev.jobc.replica.ReplicaPodTemplates;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One replica's pod as training-operator v1.9.0 creates it ({@code common/pod.go createNewPod},
 * {@code SetClusterSpec}), whatever carries it: the type's defaulted template, the operator's
 * labels, the replica's restart policy, TF_CONFIG after the user's environment on the first {@code
 * tensorflow} container, gang-scheduling marks; and on the deciding replica the jobc sidecar.
 */
final class TfPodTemplates {
  static final String TF_CONFIG = "TF_CONFIG";

  private TfPodTemplates() {}

  /**
   * A fresh template for {@code replica}; {@code inJob} when a batch/v1 Job carries it (which
   * accepts only restart policies Never and OnFailure).
   */
  static PodTemplateSpec of(TfJobPlan plan, TfReplica replica, boolean inJob) {
    PodTemplateSpec template = plan.templates().get(replica.type()).copy();
    if (template.getMetadata() == null) {
      template.setMetadata(new ObjectMeta());
    }
    ObjectMeta meta = template.getMetadata();
    Map<String, String> labels =
        ReplicaPodTemplates.labels(
            meta,
            TfLabels.replicaSelector(plan.name(), replica.type().lower(), replica.index()),
            replica.masterRole(),
            plan.jobSet() ? Map.of() : plan.kueueLabels());
    Map<String, String> annotations = new LinkedHashMap<>();
    if (!inJob
        && !plan.kueueLabels().isEmpty()
        && plan.kueueLabels().containsKey(TfKueue.QUEUE_NAME)) {
      labels.put(TfKueue.POD_GROUP_NAME, plan.name());
      annotations.put(TfKueue.POD_GROUP_TOTAL_COUNT, Integer.toString(plan.replicas().size()));
    }
    meta.setLabels(labels);
    Metadata.annotate(meta, annotations);

    PodSpec spec = template.getSpec();
    spec.setRestartPolicy(
        ReplicaPodTemplates.restartPolicy(plan.restartPolicy(replica.type()), inJob));
    ReplicaPodTemplates.hostname(spec, replica.name(), plan.options());
    if (replica.tfConfig() != null) {
      for (Container c : spec.getContainers()) {
        if (TfJob.CONTAINER.equals(c.getName())) {
          c.setEnv(
              PodTemplates.append(c.getEnv(), new EnvVar(TF_CONFIG, replica.tfConfig(), null)));
          break;
        }
      }
    }
    ReplicaPodTemplates.decorate(plan.gang(), plan.name(), replica.type().lower(), meta, spec);
    if (replica.decides() && !plan.jobSet()) {
      ReplicaPodTemplates.addSidecar(
          spec, plan.serviceAccount(), TfSidecar.container(plan, replica));
    }
    return template;
  }
}
