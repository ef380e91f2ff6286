package dev.jobc.mpi;

import dev.jobc.mpi.GangPlan.Flavor;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Marks every pod of a job as a member of its PodGroup, as mpi-operator v2's {@code
 * decoratePodTemplateSpec}: {@code schedulerName} (replacing the user's, which the validator warns
 * about) plus the Volcano group annotation or the scheduler-plugins group label. Each generator of
 * pods (launcher Job, worker StatefulSet and bare Pods, through their templates) applies it to its
 * own template while it builds it.
 */
public final class GangScheduling {
  private GangScheduling() {}

  /**
   * Marks the pods of {@code template} (a generator's own copy) as members of the job's PodGroup;
   * nothing without gang scheduling.
   */
  static void decorate(GangPlan gang, String job, PodTemplateSpec template) {
    if (gang == null) {
      return;
    }
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
