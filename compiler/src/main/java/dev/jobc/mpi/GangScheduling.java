package dev.jobc.mpi;

import dev.jobc.mpi.GangPlan.Flavor;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Marks every pod of a job as a member of its PodGroup, as mpi-operator v2's {@code
 * decoratePodTemplateSpec}: {@code schedulerName} (replacing the user's, which the validator warns
 * about) plus the Volcano group annotation or the scheduler-plugins group label. Applied to the
 * generated objects that carry pods (StatefulSet and Job templates, bare Pods), so every worker
 * kind is covered.
 */
public final class GangScheduling {
  private GangScheduling() {}

  /** Decorates, in place, the pods of every StatefulSet, Job and Pod in {@code objects}. */
  public static void decorate(GangPlan gang, String job, List<HasMetadata> objects) {
    for (HasMetadata object : objects) {
      if (object instanceof StatefulSet set) {
        decorate(gang, job, set.getSpec().getTemplate());
      } else if (object instanceof Job launcher) {
        decorate(gang, job, launcher.getSpec().getTemplate());
      } else if (object instanceof Pod pod) {
        decorate(gang, job, pod.getMetadata(), pod.getSpec());
      }
    }
  }

  private static void decorate(GangPlan gang, String job, PodTemplateSpec template) {
    if (template.getMetadata() == null) {
      template.setMetadata(new ObjectMeta());
    }
    decorate(gang, job, template.getMetadata(), template.getSpec());
  }

  private static void decorate(GangPlan gang, String job, ObjectMeta meta, PodSpec spec) {
    spec.setSchedulerName(gang.schedulerName());
    if (gang.flavor() == Flavor.VOLCANO) {
      meta.setAnnotations(with(meta.getAnnotations(), GangPlanner.VOLCANO_GROUP_ANNOTATION, job));
    } else {
      meta.setLabels(with(meta.getLabels(), GangPlanner.POD_GROUP_LABEL, job));
    }
  }

  private static Map<String, String> with(Map<String, String> map, String key, String value) {
    Map<String, String> out = map == null ? new LinkedHashMap<>() : new LinkedHashMap<>(map);
    out.put(key, value);
    return out;
  }
}
