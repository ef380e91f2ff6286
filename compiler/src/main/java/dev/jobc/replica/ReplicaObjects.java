package dev.jobc.replica;

import dev.jobc.conventions.MpiLabels;
import dev.jobc.conventions.ReplicaLabels;
import dev.jobc.k8s.GangPlan;
import dev.jobc.k8s.GangScheduling;
import dev.jobc.k8s.Metadata;
import dev.jobc.options.CompileOptions;
import dev.jobc.options.Option;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A plan's objects. The plain target: the sidecar's RBAC, a Service per replica, a Job or Pod per
 * replica. The JobSet target: a Service per replica and the JobSet ({@link ReplicaJobSets}). With
 * gang scheduling, the PodGroup. Immutable and thread-safe.
 */
public final class ReplicaObjects {
  private final SidecarRbacGenerator rbac = new SidecarRbacGenerator();
  private final ReplicaServiceGenerator services = new ReplicaServiceGenerator();
  private final ReplicaJobGenerator jobs = new ReplicaJobGenerator();
  private final ReplicaPodGenerator pods = new ReplicaPodGenerator();

  public List<HasMetadata> generate(ReplicaPlan plan) {
    List<HasMetadata> out = new ArrayList<>();
    if (plan.jobSet()) {
      out.addAll(jobSet(plan));
    } else {
      out.addAll(rbac.generate(plan));
      out.addAll(services.generate(plan));
      out.addAll(plan.pods() ? pods.generate(plan) : jobs.generate(plan));
    }
    if (plan.gang() != null) {
      out.add(
          podGroup(
              plan.gang(), plan.name(), plan.namespace(), plan.options(), plan.job().metadata()));
    }
    return out;
  }

  /**
   * The job's PodGroup with the job's annotations, as training-operator v1.9.0 creates it ({@code
   * common/scheduling.go SyncPodGroup}: {@code SetAnnotations(job.GetAnnotations())}), less jobc's
   * own {@code jobc.dev/*} options, and with the annotations every jobc object carries over them.
   * TFJob's too.
   */
  public static GenericKubernetesResource podGroup(
      GangPlan gang, String name, String namespace, CompileOptions options, ObjectMeta job) {
    Map<String, String> annotations = new LinkedHashMap<>();
    if (job != null && job.getAnnotations() != null) {
      job.getAnnotations()
          .forEach(
              (k, v) -> {
                if (!k.startsWith(Option.ANNOTATION_PREFIX)) {
                  annotations.put(k, v);
                }
              });
    }
    annotations.putAll(Metadata.objectAnnotations(options));
    return GangScheduling.podGroup(
        gang, name, namespace, MpiLabels.objectLabels(name), annotations);
  }

  /** The Services, then the JobSet. */
  private static List<HasMetadata> jobSet(ReplicaPlan plan) {
    String operator = plan.framework().operator();
    List<HasMetadata> out = new ArrayList<>(plan.replicas().size() + 1);
    List<ReplicaJobSets.Member> members = new ArrayList<>(plan.replicas().size());
    for (ReplicaPod r : plan.replicas()) {
      out.add(
          ReplicaJobSets.service(
              plan.name(),
              plan.namespace(),
              r.lower(),
              r.index(),
              ReplicaLabels.replicaSelector(operator, plan.name(), r.lower(), r.index()),
              plan.ports().get(r.type()),
              plan.options()));
      members.add(
          new ReplicaJobSets.Member(
              r.lower(),
              r.index(),
              plan.restartPolicy(r.type()),
              ReplicaPodTemplates.of(plan, r, true),
              r.decides()));
    }
    out.add(
        ReplicaJobSets.jobSet(
                plan.name(),
                plan.namespace(),
                ReplicaLabels.jobSelector(operator, plan.name()),
                plan.kueueLabels(),
                plan.job().metadata().getAnnotations(),
                plan.framework().container(),
                plan.job().runPolicy(),
                members,
                plan.anyDecides(),
                plan.options())
            .resource());
    return out;
  }
}
