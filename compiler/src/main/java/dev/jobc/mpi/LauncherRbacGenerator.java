package dev.jobc.mpi;

import dev.jobc.conventions.MpiLabels;
import dev.jobc.conventions.Naming;
import dev.jobc.k8s.Metadata;
import dev.jobc.k8s.Rbac;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import java.util.ArrayList;
import java.util.List;

/**
 * ServiceAccount, Role and RoleBinding {@code <job>-launcher}: what {@code kubexec.sh} needs to run
 * {@code kubectl exec} (mpi-operator v1's launcher RBAC), and what the {@code jobc-sidecar} needs:
 * watching pods (already granted), reading its launcher Job by name, reading and patching the
 * worker StatefulSet's scale by name (or patching the worker pods by name, to end them) and
 * creating Events. {@code pods/exec} is granted on the worker pods by name only, and left out
 * entirely when there are no workers: an empty {@code resourceNames} would grant exec on every pod
 * in the namespace. When the launcher template names a ServiceAccount, the Role is bound to that
 * one and no ServiceAccount is rendered.
 */
public final class LauncherRbacGenerator {

  public List<HasMetadata> generate(MpiJobPlan plan) {
    if (plan.jobSet()) {
      // A JobSet's pods have names with a random suffix, which no Role can name: kubexec.sh lists
      // pods to find a worker's (the plain target grants that too) and may exec into any pod of
      // the namespace. An elastic job's sidecar watches the workers (get, list, watch). Nothing
      // else: no sidecar starts or ends workers.
      return Rbac.objects(
          Naming.launcher(plan.name()),
          plan.namespace(),
          MpiLabels.objectLabels(plan.name()),
          Metadata.objectAnnotations(plan.options()),
          List.of(),
          plan.ssh() || plan.workers() == 0
              ? List.of()
              : List.of(Rbac.rule("", "pods/exec", null, "create")),
          plan.ownAccount() ? null : plan.launcherAccount());
    }
    List<PolicyRule> sidecar = new ArrayList<>();
    if (plan.workers() > 0) {
      // The sidecar releases the workers when the job has finished (cleanPodPolicy) or is
      // suspended (always, as mpi-operator v0.8.2 deletes workers on suspension), and scales the
      // StatefulSet back up when a launcher starts and finds it at 0: the one StatefulSet's scale,
      // or the worker pods by name.
      sidecar.add(
          plan.podWorkers()
              ? Rbac.rule("", "pods", plan.roleExecPods(), "patch")
              : Rbac.rule(
                  "apps",
                  "statefulsets/scale",
                  List.of(Naming.workerSet(plan.name())),
                  "get",
                  "patch"));
    }
    // It reads its own Job (suspension, final conditions, backoffLimit and failures so far) to
    // tell a final end from one the Job will retry; list and watch carry a metadata.name field
    // selector, which RBAC matches against resourceNames.
    sidecar.add(
        Rbac.rule("batch", "jobs", List.of(Naming.launcher(plan.name())), "get", "list", "watch"));
    // The sidecar reports the gate and the clean-up as Events on the launcher Job.
    sidecar.add(Rbac.rule("", "events", null, "create"));
    return Rbac.objects(
        Naming.launcher(plan.name()),
        plan.namespace(),
        MpiLabels.objectLabels(plan.name()),
        Metadata.objectAnnotations(plan.options()),
        // ssh needs no exec; the sidecar still needs the ServiceAccount.
        plan.ssh() ? List.of() : plan.roleExecPods(),
        sidecar,
        // The launcher template's own ServiceAccount is kept and bound, never replaced.
        plan.ownAccount() ? null : plan.launcherAccount());
  }
}
