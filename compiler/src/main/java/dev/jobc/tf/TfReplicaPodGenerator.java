package dev.jobc.tf;

import dev.jobc.replica.ReplicaPodGenerator;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.ArrayList;
import java.util.List;

/**
 * With {@code --workers pods} (or {@code jobc.dev/workers: pods}): each replica as the bare Pod
 * {@code <job>-<type>-<i>} the operator creates, with the replica's restart policy (ExitCode runs
 * as Never) and {@code runPolicy.activeDeadlineSeconds} on the pod, and Flux's {@code ssa:
 * IfNotPresent}. Nothing replaces a failed pod.
 */
public final class TfReplicaPodGenerator {

  public List<Pod> generate(TfJobPlan plan) {
    List<Pod> out = new ArrayList<>(plan.replicas().size());
    for (TfReplica r : plan.replicas()) {
      out.add(
          ReplicaPodGenerator.pod(
              TfPodTemplates.of(plan, r, false),
              r.name(),
              plan.namespace(),
              plan.options(),
              plan.job().runPolicy().activeDeadlineSeconds()));
    }
    return out;
  }
}
