package dev.jobc.conventions;

import java.util.ArrayList;
import java.util.List;

/**
 * The MPI implementations mpi-operator knows, with what differs between them: hostfile line format
 * and the launcher's environment (mpi-operator v2beta1 {@code newConfigMap}, {@code intelEnvVars},
 * {@code mpichEnvVars}; v1alpha2 for the kubexec variables).
 */
public enum MpiImplementation {
  OPEN_MPI("OpenMPI"),
  INTEL("Intel"),
  MPICH("MPICH");

  private final String specName;

  MpiImplementation(String specName) {
    this.specName = specName;
  }

  public String specName() {
    return specName;
  }

  public static MpiImplementation fromSpec(String name) {
    for (MpiImplementation i : values()) {
      if (i.specName.equals(name)) {
        return i;
      }
    }
    throw new IllegalArgumentException("unknown MPI implementation " + name);
  }

  /** Hostfile line format: {@code host slots=N} for Open MPI, {@code host:N} for Hydra ones. */
  public boolean hydra() {
    return this != OPEN_MPI;
  }

  /** A name/value pair of the launcher environment; a null value renders as no value. */
  public record Env(String name, String value) {}

  /** Open MPI 4's switch that makes {@code mpirun} start every daemon itself. */
  private static final String NO_TREE_SPAWN = "OMPI_MCA_plm_rsh_no_tree_spawn";

  /** The same switch under PRRTE's name (Open MPI 5). */
  private static final String PRTE_NO_TREE_SPAWN = "PRTE_MCA_plm_ssh_no_tree_spawn";

  /** ssh's retry option, as mpi-operator v2beta1 passes it. */
  static final String SSH_ARGS = "-o ConnectionAttempts=10";

  /**
   * Launcher environment for the kubexec transport. Open MPI gets mpi-operator v2beta1's variables
   * with {@code kubexec.sh} as the rsh agent instead of ssh's options, and the same settings again
   * under PRRTE's names: Open MPI 5 ignores every {@code OMPI_MCA_orte_*} variable and would
   * silently run all ranks on the launcher (mpi-operator issue #842). Both get tree spawn turned
   * off ({@code plm_rsh_no_tree_spawn}, Open MPI v4.1 {@code orte/mca/plm/rsh}; {@code
   * plm_ssh_no_tree_spawn}, PRRTE v3.0 {@code src/mca/plm/ssh}): past the routing radix (64
   * daemons) a daemon would start the next ones through {@code kubexec.sh} from inside its worker
   * pod, which has neither kubectl nor the right to exec, so the launcher starts every daemon. (The
   * daemons then daemonize and their {@code kubectl exec} ends.) mpi-operator, whose v1 kubexec
   * kept tree spawn, fails there. Intel MPI and MPICH use their bootstrap executables, as
   * mpi-operator v1alpha2 did.
   *
   * @param fqdn whether host names are FQDNs that must not be shortened (v2beta1)
   */
  public List<Env> kubexecEnv(String hostfile, String kubexec, int slots, boolean fqdn) {
    // v2beta1 order: hostfile, then the variable that replaces ssh's extra arguments, then slots;
    // up to v1alpha2 and v1 the agent came first.
    List<Env> out = new ArrayList<>();
    switch (this) {
      case OPEN_MPI -> {
        if (fqdn) {
          out.add(new Env("OMPI_MCA_orte_keep_fqdn_hostnames", "true"));
          out.add(new Env("OMPI_MCA_orte_default_hostfile", hostfile));
          out.add(new Env("OMPI_MCA_plm_rsh_agent", kubexec));
          out.add(new Env("OMPI_MCA_orte_set_default_slots", Integer.toString(slots)));
          out.add(new Env(NO_TREE_SPAWN, "true"));
          out.add(new Env("PRTE_MCA_prte_keep_fqdn_hostnames", "true"));
        } else {
          out.add(new Env("OMPI_MCA_plm_rsh_agent", kubexec));
          out.add(new Env("OMPI_MCA_orte_default_hostfile", hostfile));
          out.add(new Env(NO_TREE_SPAWN, "true"));
        }
        out.add(new Env("PRTE_MCA_prte_default_hostfile", hostfile));
        out.add(new Env("PRTE_MCA_plm_ssh_agent", kubexec));
        out.add(new Env(PRTE_NO_TREE_SPAWN, "true"));
      }
      case INTEL -> {
        if (fqdn) {
          out.add(new Env("I_MPI_HYDRA_HOST_FILE", hostfile));
          out.add(new Env("I_MPI_HYDRA_BOOTSTRAP_EXEC", kubexec));
          out.add(new Env("I_MPI_PERHOST", Integer.toString(slots)));
        } else {
          out.add(new Env("I_MPI_HYDRA_BOOTSTRAP_EXEC", kubexec));
          out.add(new Env("I_MPI_HYDRA_HOST_FILE", hostfile));
        }
      }
      case MPICH -> {
        if (fqdn) {
          out.add(new Env("HYDRA_HOST_FILE", hostfile));
          out.add(new Env("HYDRA_LAUNCHER_EXEC", kubexec));
        } else {
          out.add(new Env("HYDRA_LAUNCHER_EXEC", kubexec));
          out.add(new Env("HYDRA_HOST_FILE", hostfile));
        }
      }
    }
    return out;
  }

  /**
   * Launcher environment for the ssh transport: mpi-operator v2beta1's {@code ompiEnvVars}, {@code
   * intelEnvVars}, {@code mpichEnvVars} exactly, plus PRRTE's names for Open MPI 5.
   */
  public List<Env> sshEnv(String hostfile, int slots) {
    return switch (this) {
      case OPEN_MPI ->
          List.of(
              new Env("OMPI_MCA_orte_keep_fqdn_hostnames", "true"),
              new Env("OMPI_MCA_orte_default_hostfile", hostfile),
              new Env("OMPI_MCA_plm_rsh_args", SSH_ARGS),
              new Env("OMPI_MCA_orte_set_default_slots", Integer.toString(slots)),
              new Env("PRTE_MCA_prte_keep_fqdn_hostnames", "true"),
              new Env("PRTE_MCA_prte_default_hostfile", hostfile),
              new Env("PRTE_MCA_plm_ssh_args", SSH_ARGS));
      case INTEL ->
          List.of(
              new Env("I_MPI_HYDRA_HOST_FILE", hostfile),
              new Env("I_MPI_HYDRA_BOOTSTRAP_EXEC_EXTRA_ARGS", SSH_ARGS),
              new Env("I_MPI_PERHOST", Integer.toString(slots)));
      case MPICH ->
          List.of(
              new Env("HYDRA_HOST_FILE", hostfile), new Env("HYDRA_LAUNCH_EXTRA_ARGS", SSH_ARGS));
    };
  }
}
