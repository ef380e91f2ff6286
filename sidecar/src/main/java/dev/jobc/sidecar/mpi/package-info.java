/**
 * An MPIJob's run time, without mpi-operator: {@code run}, the native sidecar beside the launcher
 * ({@link dev.jobc.sidecar.mpi.LauncherSidecar}: a live {@code discover_hosts.sh}, the gate until
 * the workers are Ready, the workers' release by {@code cleanPodPolicy} when the launcher Job has
 * finished, as {@link dev.jobc.sidecar.mpi.JobOutcome} decides it); {@code scale-workers}, the
 * scaler Job that follows the launcher Job ({@link dev.jobc.sidecar.mpi.WorkerScaler}); and {@code
 * hosts}, the live {@code discover_hosts.sh} of an elastic job in the JobSet target ({@link
 * dev.jobc.sidecar.mpi.JobSetHostsSidecar}).
 */
package dev.jobc.sidecar.mpi;
