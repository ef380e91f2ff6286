package dev.jobc.plan;

import java.util.List;

/**
 * The MPI implementations mpi-operator knows, with what differs between them: hostfile line format
 * and the launcher's environment (reference: mpi-operator v2beta1 {@code newConfigMap}, {@code
 * intelEnvVars}, {@code mpichEnvVars}; v1alpha2 for the kubexec variables).
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

  /** A name/value pair of the launcher environment. */
  public record Env(String name, String value) {}

  /**
   * Launcher environment for the kubexec transport, after the role variable and before the GPU
   * variables (upstream order). Open MPI keeps v2beta1's variables but uses {@code kubexec.sh} as
   * the rsh agent instead of ssh's {@code plm_rsh_args}; Intel MPI and MPICH use their bootstrap
   * executables as mpi-operator v1alpha2 did.
   */
  public List<Env> launcherEnv(String hostfile, String kubexec, int slots) {
    return switch (this) {
      case OPEN_MPI ->
          List.of(
              new Env("OMPI_MCA_orte_keep_fqdn_hostnames", "true"),
              new Env("OMPI_MCA_orte_default_hostfile", hostfile),
              new Env("OMPI_MCA_plm_rsh_agent", kubexec),
              new Env("OMPI_MCA_orte_set_default_slots", Integer.toString(slots)));
      case INTEL ->
          List.of(
              new Env("I_MPI_HYDRA_HOST_FILE", hostfile),
              new Env("I_MPI_HYDRA_BOOTSTRAP_EXEC", kubexec),
              new Env("I_MPI_PERHOST", Integer.toString(slots)));
      case MPICH ->
          List.of(new Env("HYDRA_HOST_FILE", hostfile), new Env("HYDRA_LAUNCHER_EXEC", kubexec));
    };
  }
}
