package dev.jobc.tf;

import dev.jobc.conventions.TfLabels;
import dev.jobc.replica.ReplicaJobSets;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.ArrayList;
import java.util.List;

/**
 * A TFJob in the JobSet target ({@link ReplicaJobSets}): a headless Service per replica, then the
 * JobSet, a replicated Job {@code <type>-<i>} per replica with the plain target's pod, TF_CONFIG
 * included. The JobSet succeeds as training-operator v1.9.0's {@code UpdateJobStatus} decides: once
 * the Chief or Master has succeeded, else Worker 0, else with {@code successPolicy: AllWorkers}
 * every Worker ({@link TfJobPlanner#decides}); it fails once any replica has failed for good.
 */
final class TfJobSetGenerator {

  List<HasMetadata> generate(TfJobPlan plan) {
    List<HasMetadata> out = new ArrayList<>(plan.replicas().size() + 1);
    List<ReplicaJobSets.Member> members = new ArrayList<>(plan.replicas().size());
    for (TfReplica r : plan.replicas()) {
      String type = r.type().lower();
      out.add(
          ReplicaJobSets.service(
              plan.name(),
              plan.namespace(),
              type,
              r.index(),
              TfLabels.replicaSelector(plan.name(), type, r.index()),
              plan.ports().get(r.type()),
              plan.options()));
      members.add(
          new ReplicaJobSets.Member(
              type,
              r.index(),
              plan.restartPolicy(r.type()),
              TfPodTemplates.of(plan, r, true),
              r.decides()));
    }
    out.add(
        ReplicaJobSets.jobSet(
                plan.name(),
                plan.namespace(),
                TfLabels.jobSelector(plan.name()),
                plan.kueueLabels(),
                plan.job().metadata().getAnnotations(),
                TfJob.CONTAINER,
                plan.job().runPolicy(),
                members,
                false,
                plan.options())
            .resource());
    return out;
  }
}
