package dev.jobc.k8s;

import dev.jobc.conventions.MpiLabels;
import dev.jobc.k8s.GangPlan.Flavor;
import dev.jobc.model.SchedulingPolicy;
import dev.jobc.options.CompileOptions;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Gang scheduling as every kind does it, whatever decides the {@link GangPlan}: which PodGroup API
 * a scheduler name selects, the PodGroup object, and the marks on each member pod. mpi-operator v2
 * ({@code pkg/controller/podgroup.go}) and training-operator v1.9.0 ({@code
 * pkg/controller.v1/common/job.go ReconcileJobs}, {@code control/podgroup_control.go}) agree on all
 * three.
 */
public final class GangScheduling {
  /** Per-job choice of gang scheduler; wins over {@code --gang-scheduler}, empty turns it off. */
  public static final String SCHEDULER_ANNOTATION = "jobc.dev/gang-scheduler";

  /** Volcano's queue annotation on the job (volcano {@code QueueNameAnnotationKey}). */
  public static final String QUEUE_ANNOTATION = "scheduling.volcano.sh/queue-name";

  /** Pod annotation naming the Volcano PodGroup (volcano {@code KubeGroupNameAnnotationKey}). */
  public static final String VOLCANO_GROUP_ANNOTATION = "scheduling.k8s.io/group-name";

  /** Pod label naming the scheduler-plugins PodGroup (scheduler-plugins {@code PodGroupLabel}). */
  public static final String POD_GROUP_LABEL = "scheduling.x-k8s.io/pod-group";

  public static final String VOLCANO = "volcano";
  public static final String SCHEDULER_PLUGINS = "scheduler-plugins";

  /**
   * The scheduler name the scheduler-plugins Helm chart deploys as a second scheduler, and the
   * value Kubeflow's documentation has operator users pass to {@code --gang-scheduling}.
   */
  public static final String SCHEDULER_PLUGINS_SCHEDULER = "scheduler-plugins-scheduler";

  public static final String POD_GROUP_KIND = "PodGroup";

  private GangScheduling() {}

  /** {@code volcano} is Volcano; any other name is scheduler-plugins (both operators). */
  public static Flavor flavor(String scheduler) {
    return VOLCANO.equals(scheduler) ? Flavor.VOLCANO : Flavor.SCHEDULER_PLUGINS;
  }

  /**
   * The pods' {@code schedulerName}: {@code volcano}; {@value #SCHEDULER_PLUGINS_SCHEDULER} for the
   * alias {@value #SCHEDULER_PLUGINS}; otherwise the name itself, as the operators use their flag.
   */
  public static String schedulerName(String scheduler) {
    return SCHEDULER_PLUGINS.equals(scheduler) ? SCHEDULER_PLUGINS_SCHEDULER : scheduler;
  }

  /**
   * The plan once a kind has decided {@code minMember}, the Volcano queue and priority class and
   * {@code minResources}: the scheduler's flavor and pod {@code schedulerName}, the policy's {@code
   * scheduleTimeoutSeconds}, else {@code unsetTimeout} (mpi-operator writes 0, training-operator
   * nothing), and no {@code minResources} when there are none, as both operators fill their
   * PodGroup spec.
   */
  public static GangPlan plan(
      String scheduler,
      SchedulingPolicy policy,
      int minMember,
      String queue,
      String priorityClass,
      SortedMap<String, String> minResources,
      Integer unsetTimeout) {
    Integer timeout =
        policy == null || policy.scheduleTimeoutSeconds() == null
            ? unsetTimeout
            : policy.scheduleTimeoutSeconds();
    return new GangPlan(
        flavor(scheduler),
        schedulerName(scheduler),
        minMember,
        queue,
        priorityClass,
        timeout,
        minResources == null || minResources.isEmpty() ? null : minResources);
  }

  /**
   * {@code schedulingPolicy.minResources} as given (both operators pass it on unchanged), printed
   * as the API server would store it; {@code null} when the policy sets none.
   */
  public static SortedMap<String, String> givenMinResources(SchedulingPolicy policy) {
    if (policy == null || policy.minResources() == null) {
      return null;
    }
    SortedMap<String, String> given = new TreeMap<>();
    policy.minResources().forEach((k, v) -> given.put(k, QuantitySum.canonical(v)));
    return given;
  }

  /**
   * Marks the pods of {@code template} (a generator's own copy) as members of the job's PodGroup:
   * {@code schedulerName} plus the Volcano group annotation or the scheduler-plugins group label;
   * nothing without gang scheduling.
   */
  public static void decorate(GangPlan gang, String job, PodTemplateSpec template) {
    if (gang == null) {
      return;
    }
    if (template.getMetadata() == null) {
      template.setMetadata(new ObjectMeta());
    }
    decorate(gang, job, template.getMetadata(), template.getSpec());
  }

  /** As above, for a bare Pod's own metadata and spec. */
  public static void decorate(GangPlan gang, String job, ObjectMeta meta, PodSpec spec) {
    if (gang == null) {
      return;
    }
    spec.setSchedulerName(gang.schedulerName());
    if (gang.flavor() == Flavor.VOLCANO) {
      meta.setAnnotations(with(meta.getAnnotations(), VOLCANO_GROUP_ANNOTATION, job));
    } else {
      meta.setLabels(with(meta.getLabels(), POD_GROUP_LABEL, job));
    }
  }

  /**
   * PodGroup {@code <job>} of {@link #podGroup(GangPlan, String, String, Map, Map)} with the labels
   * and annotations every jobc object carries.
   */
  public static GenericKubernetesResource podGroup(
      GangPlan gang, String job, String namespace, CompileOptions options) {
    return podGroup(
        gang, job, namespace, MpiLabels.objectLabels(job), Metadata.objectAnnotations(options));
  }

  /**
   * PodGroup {@code <job>}: Volcano ({@code minMember}, {@code queue}, {@code priorityClassName},
   * {@code minResources}) or scheduler-plugins ({@code minMember}, {@code scheduleTimeoutSeconds},
   * {@code minResources}). Fields upstream leaves empty are left out, as its {@code omitempty} JSON
   * does. No ownerReferences (no UID at build time).
   */
  public static GenericKubernetesResource podGroup(
      GangPlan gang,
      String job,
      String namespace,
      Map<String, String> labels,
      Map<String, String> annotations) {
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
    } else if (gang.scheduleTimeoutSeconds() != null) {
      spec.put("scheduleTimeoutSeconds", gang.scheduleTimeoutSeconds());
    }
    GenericKubernetesResource group = new GenericKubernetesResource();
    group.setApiVersion(gang.flavor().apiVersion());
    group.setKind(POD_GROUP_KIND);
    group.setMetadata(Metadata.of(job, namespace, labels, annotations));
    group.setAdditionalProperty("spec", spec);
    return group;
  }

  private static void putIfSet(Map<String, Object> spec, String key, String value) {
    if (value != null) {
      spec.put(key, value);
    }
  }

  private static Map<String, String> with(Map<String, String> map, String key, String value) {
    Map<String, String> out = map == null ? new LinkedHashMap<>() : new LinkedHashMap<>(map);
    out.put(key, value);
    return out;
  }
}
