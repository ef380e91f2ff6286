package dev.jobc.mpi;

import dev.jobc.conventions.MpiLabels;
import dev.jobc.k8s.Metadata;
import dev.jobc.mpi.GangPlan.Flavor;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * PodGroup {@code <job>} for gang scheduling, as mpi-operator v2's {@code newPodGroup} builds it:
 * Volcano ({@code minMember}, {@code queue}, {@code priorityClassName}, {@code minResources}) or
 * scheduler-plugins ({@code minMember}, {@code scheduleTimeoutSeconds}, {@code minResources}).
 * Fields upstream leaves empty are left out, as its {@code omitempty} JSON does. No ownerReferences
 * (no UID at build time); the labels every jobc object carries.
 */
public final class PodGroupGenerator {
  public static final String KIND = "PodGroup";

  public GenericKubernetesResource generate(MpiJobPlan plan) {
    GangPlan gang = plan.gang();
    Map<String, Object> spec = new LinkedHashMap<>();
    if (gang.minMember() != 0) {
      spec.put("minMember", gang.minMember());
    }
    if (gang.minResources() != null) {
      spec.put("minResources", new LinkedHashMap<>(gang.minResources()));
    }
    if (gang.flavor() == Flavor.VOLCANO) {
      putIfSet(spec, "queue", gang.queue());
      putIfSet(spec, "priorityClassName", gang.priorityClassName());
    } else {
      spec.put("scheduleTimeoutSeconds", gang.scheduleTimeoutSeconds());
    }
    GenericKubernetesResource group = new GenericKubernetesResource();
    group.setApiVersion(gang.flavor().apiVersion());
    group.setKind(KIND);
    group.setMetadata(
        Metadata.of(
            plan.name(),
            plan.namespace(),
            MpiLabels.objectLabels(plan.name()),
            Metadata.objectAnnotations(plan.options())));
    group.setAdditionalProperty("spec", spec);
    return group;
  }

  private static void putIfSet(Map<String, Object> spec, String key, String value) {
    if (value != null) {
      spec.put(key, value);
    }
  }
}
