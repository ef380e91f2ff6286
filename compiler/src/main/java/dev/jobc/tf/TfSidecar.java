package dev.jobc.tf;

import dev.jobc.conventions.Naming;
import dev.jobc.k8s.SidecarContainer;
import dev.jobc.options.OptionTable;
import dev.jobc.replica.ReplicaPodTemplates;
import io.fabric8.kubernetes.api.model.Container;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code jobc-sidecar tfjob} native sidecar beside the replica that decides the job (the
 * Chief/Master, else Worker 0; with {@code AllWorkers} every Worker). It does what
 * training-operator's {@code UpdateJobStatus} and {@code CleanUpResources} did: decides success
 * (the deciding replica's {@code tensorflow} container exits 0, and with {@code AllWorkers} every
 * worker's has) or failure (any replica fails for good, its Job says so), records it as an Event,
 * and then ends the replicas still running, parameter servers above all, which never exit by
 * themselves, without deleting them. Replica types go by the spec's spelling ({@code PS}), as in
 * the operator's messages. It alone mounts an API token. Its arguments have the same size whatever
 * the replica counts (but under render defaults before 2026-11-28).
 */
final class TfSidecar {
  static final String COMMAND = "tfjob";

  private TfSidecar() {}

  static Container container(TfJobPlan plan, TfReplica self) {
    List<String> args = new ArrayList<>();
    args.add(COMMAND);
    add(args, "--job", plan.name());
    add(args, "--self", self.type().specName() + ":" + self.name());
    add(args, "--main-container", TfJob.CONTAINER);
    for (TfReplicaType type : plan.job().replicas().keySet()) {
      add(args, "--restart-policy", type.specName() + "=" + plan.restartPolicy(type));
    }
    if (plan.job().runPolicy().backoffLimit() != null) {
      add(args, "--backoff-limit", plan.job().runPolicy().backoffLimit().toString());
    }
    if (!plan.job().successPolicy().isEmpty()) {
      add(args, "--success-policy", plan.job().successPolicy());
    }
    add(args, "--clean-pod-policy", plan.job().runPolicy().cleanPodPolicy());
    add(args, "--carrier", plan.pods() ? "pod" : "job");
    if (plan.job().enableDynamicWorker()) {
      args.add("--dynamic-workers");
    }
    if (plan.options().get(OptionTable.RENDER_DEFAULTS).replicaCounts()) {
      // The counts, not the other replicas' names: the sidecar names them as the operator does
      // (TfLabels.replica), so that each pod's arguments do not grow with the job.
      Map<String, Integer> counts = new LinkedHashMap<>();
      for (TfReplica r : plan.replicas()) {
        counts.merge(r.type().specName(), 1, Integer::sum);
      }
      for (Map.Entry<String, Integer> count : counts.entrySet()) {
        add(args, "--replicas", count.getKey() + "=" + count.getValue());
      }
    } else {
      // Sidecar 0.1.0's arguments, for a job pinned to earlier render defaults: every other
      // replica by name.
      for (TfReplica r : plan.replicas()) {
        if (!r.equals(self)) {
          add(args, "--replica", r.type().specName() + ":" + r.name());
        }
      }
    }
    Container c = SidecarContainer.base(plan.options(), Naming.SIDECAR, args);
    c.setRestartPolicy("Always");
    c.setVolumeMounts(ReplicaPodTemplates.sidecarMounts());
    return c;
  }

  private static void add(List<String> args, String option, String value) {
    args.add(option);
    args.add(value);
  }
}
