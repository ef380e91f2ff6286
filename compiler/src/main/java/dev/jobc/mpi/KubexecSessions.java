package dev.jobc.mpi;

import dev.jobc.conventions.MpiImplementation;
import dev.jobc.diag.Finding;
import dev.jobc.diag.Quoting;
import dev.jobc.k8s.Quantities;
import dev.jobc.model.ReplicaSpec;
import dev.jobc.options.OptionTable;
import dev.jobc.options.Transport;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Quantity;
import java.math.BigDecimal;
import java.util.List;

/**
 * The {@code kubectl exec} sessions the kubexec transport keeps in the launcher's main container,
 * and the warning when that container's memory limit cannot hold them. MPICH's and Intel MPI's
 * Hydra keeps one session per worker open for the whole run (its proxy stays attached to it). Open
 * MPI, with tree spawn off, keeps one only until its daemon detaches, but starts up to {@value
 * #OPEN_MPI_CONCURRENT} at once. The figures are measured: see docs/mpijob.md, "Launcher memory".
 */
final class KubexecSessions {
  private static final long MIB = 1024 * 1024;

  /**
   * One session: kubectl 1.32's anonymous memory and page tables with {@code kubexec.sh}'s Go
   * settings (8.7 MB measured against a stand-in API server), rounded up for the larger API
   * discovery a real cluster serves.
   */
  static final long SESSION_BYTES = 10 * MIB;

  /**
   * Once per launcher: kubectl's program text, which every session shares (about 37 MB resident),
   * and {@code mpirun} itself (14 MB for Open MPI's with 70 daemons).
   */
  static final long BASE_BYTES = 64 * MIB;

  /**
   * How many rsh/ssh agents Open MPI and PRRTE run at once ({@code plm_rsh_num_concurrent}, Open
   * MPI v4.1 {@code orte/mca/plm/rsh/plm_rsh_component.c}; {@code plm_ssh_num_concurrent}, PRRTE
   * v3.0 {@code src/mca/plm/ssh/plm_ssh_component.c}).
   */
  static final int OPEN_MPI_CONCURRENT = 128;

  private KubexecSessions() {}

  /** The most sessions the launcher holds at once for {@code workers} workers. */
  static long sessions(MpiImplementation implementation, long workers) {
    return implementation == MpiImplementation.OPEN_MPI
        ? Math.min(workers, OPEN_MPI_CONCURRENT)
        : workers;
  }

  /** What the launcher's main container needs for them, in bytes. */
  static long bytes(MpiImplementation implementation, long workers) {
    return BASE_BYTES + sessions(implementation, workers) * SESSION_BYTES;
  }

  static void validate(MpiJobModel job, List<Finding> out) {
    ReplicaSpec launcher = job.launcher();
    if (job.options().get(OptionTable.TRANSPORT) != Transport.KUBEXEC
        || launcher == null
        || launcher.template() == null
        || launcher.template().getSpec() == null
        || launcher.template().getSpec().getContainers() == null
        || launcher.template().getSpec().getContainers().isEmpty()) {
      return;
    }
    MpiImplementation implementation;
    try {
      implementation = MpiImplementation.fromSpec(job.implementation());
    } catch (IllegalArgumentException e) {
      return; // the validator reports the value
    }
    // The MPI environment, kubectl and so the sessions are in the first container.
    Container main = launcher.template().getSpec().getContainers().get(0);
    Quantity limit =
        main.getResources() == null || main.getResources().getLimits() == null
            ? null
            : main.getResources().getLimits().get("memory");
    if (limit == null) {
      return;
    }
    BigDecimal limitBytes = Quantities.value(limit);
    if (limitBytes == null) {
      return; // not a quantity: the schema check or the pod template rules report it
    }
    long workers = job.maxWorkers();
    long needed = bytes(implementation, workers);
    if (workers == 0 || limitBytes.compareTo(BigDecimal.valueOf(needed)) >= 0) {
      return;
    }
    long sessions = sessions(implementation, workers);
    String held =
        switch (implementation) {
          case OPEN_MPI ->
              "Open MPI holds up to "
                  + sessions
                  + " kubectl exec sessions at once while its"
                  + " daemons start";
          case INTEL ->
              "Intel MPI holds "
                  + sessions
                  + " kubectl exec sessions, one per worker,"
                  + " for the whole run";
          case MPICH ->
              "MPICH holds "
                  + sessions
                  + " kubectl exec sessions, one per worker, for"
                  + " the whole run";
        };
    out.add(
        Finding.warning(
            job.paths()
                .launcher()
                .child("template")
                .child("spec")
                .child("containers")
                .index(0)
                .child("resources")
                .child("limits")
                .key("memory"),
            Quoting.quote(limit.toString())
                + " cannot hold the kubexec transport's sessions: "
                + held
                + ", about "
                + SESSION_BYTES / MIB
                + " MiB each, plus "
                + BASE_BYTES / MIB
                + " MiB for kubectl and mpirun: "
                + (needed + MIB - 1) / MIB
                + "Mi before the launcher's own program; raise the limit, or use --transport ssh"
                + " (docs/mpijob.md#launcher-memory)"));
  }
}
