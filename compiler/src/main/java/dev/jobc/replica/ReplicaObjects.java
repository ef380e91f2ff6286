package dev.jobc.replica;

import dev.jobc.k8s.GangScheduling;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.ArrayList;
import java.util.List;

/**
 * The plain target's objects for a plan: the sidecar's RBAC, a Service per replica, a Job or Pod
 * per replica, and with gang scheduling the PodGroup. Immutable and thread-safe.
 */
public final class ReplicaObjects {
  private final SidecarRbacGenerator rbac = new SidecarRbacGenerator();
  private final ReplicaServiceGenerator services = new ReplicaServiceGenerator();
  private final ReplicaJobGenerator jobs = new ReplicaJobGenerator();
  private final ReplicaPodGenerator pods = new ReplicaPodGenerator();

  public List<HasMetadata> generate(ReplicaPlan plan) {
    List<HasMetadata> out = new ArrayList<>(rbac.generate(plan));
    out.addAll(services.generate(plan));
    out.addAll(plan.pods() ? pods.generate(plan) : jobs.generate(plan));
    if (plan.gang() != null) {
      out.add(GangScheduling.podGroup(plan.gang(), plan.name(), plan.namespace(), plan.options()));
    }
    return out;
  }
}
