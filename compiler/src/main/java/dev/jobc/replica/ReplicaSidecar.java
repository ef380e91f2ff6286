package dev.jobc.replica;

import dev.jobc.conventions.Naming;
import dev.jobc.k8s.SidecarContainer;
import dev.jobc.options.OptionTable;
import io.fabric8.kubernetes.api.model.Container;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code jobc-sidecar replicas} native sidecar beside each replica that decides the job. It
 * does what the kind's {@code UpdateJobStatus} and {@code DeletePodsAndServices} did: decides
 * success (the deciding replicas' main containers exit 0: all of them, or with {@code --success
 * any} the first) or failure (a replica fails for good under its restart policy), records it as an
 * Event, and then ends the replicas still running without deleting them: it suspends their Jobs, or
 * lowers their Pods' {@code activeDeadlineSeconds}. It alone mounts an API token. Its arguments
 * have the same size whatever the replica counts.
 */
final class ReplicaSidecar {
  static final String COMMAND = "replicas";

  private ReplicaSidecar() {}

  static Container container(ReplicaPlan plan, ReplicaPod self) {
    Framework fw = plan.framework();
    List<String> args = new ArrayList<>();
    args.add(COMMAND);
    add(args, "--kind", fw.kind());
    add(args, "--operator", fw.operator());
    add(args, "--job", plan.name());
    add(args, "--self", self.name());
    add(args, "--main-container", fw.container());
    for (ReplicaJob.Replica r : plan.job().each()) {
      add(args, "--restart-policy", r.lower() + "=" + r.spec().restartPolicy());
    }
    if (plan.job().runPolicy().backoffLimit() != null) {
      add(args, "--backoff-limit", plan.job().runPolicy().backoffLimit().toString());
    }
    add(args, "--decides", self.lower());
    add(args, "--success", plan.anyDecides() ? "any" : "all");
    add(args, "--clean-pod-policy", plan.job().runPolicy().cleanPodPolicy());
    add(args, "--carrier", plan.pods() ? "pod" : "job");
    if (plan.options().get(OptionTable.RENDER_DEFAULTS).replicaCounts()) {
      // The counts, not the other replicas' names: the sidecar names them as the operator does
      // (ReplicaLabels.replica), so that each pod's arguments do not grow with the job.
      Map<String, Integer> counts = new LinkedHashMap<>();
      for (ReplicaPod r : plan.replicas()) {
        counts.merge(r.lower(), 1, Integer::sum);
      }
      for (Map.Entry<String, Integer> count : counts.entrySet()) {
        add(args, "--replicas", count.getKey() + "=" + count.getValue());
      }
    } else {
      // Sidecar 0.1.0's arguments, for a job pinned to earlier render defaults: every other
      // replica by name.
      for (ReplicaPod r : plan.replicas()) {
        if (!r.equals(self)) {
          add(args, "--replica", r.lower() + ":" + r.name());
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
