package dev.jobc.mpi;

import dev.jobc.diag.FieldPath;

/**
 * Where the fields the validator checks live in the user's API version, so every message names what
 * the user wrote: v1alpha1 has one {@code spec.template} for both roles, v1alpha2 keeps {@code
 * backoffLimit} both at {@code spec} and in {@code runPolicy}, v1 keeps {@code cleanPodPolicy} at
 * {@code spec}.
 *
 * @param workerCount the field that decides how many workers there are: {@code
 *     mpiReplicaSpecs[Worker].replicas}, or v1alpha1's {@code spec.gpus}, {@code
 *     spec.processingUnits} or {@code spec.replicas}, whichever the job sets
 */
public record MpiPaths(
    FieldPath launcher,
    FieldPath worker,
    FieldPath cleanPodPolicy,
    FieldPath backoffLimit,
    FieldPath activeDeadlineSeconds,
    FieldPath implementation,
    FieldPath workerCount) {

  public static final FieldPath SPEC = FieldPath.of("spec");
  public static final FieldPath RUN_POLICY = SPEC.child("runPolicy");
  public static final FieldPath REPLICA_SPECS = SPEC.child("mpiReplicaSpecs");

  /** The replica spec of {@code type} ({@code Launcher} or {@code Worker}). */
  public FieldPath replica(String type) {
    return MpiJob.LAUNCHER.equals(type) ? launcher : worker;
  }

  public FieldPath ttlSecondsAfterFinished() {
    return RUN_POLICY.child("ttlSecondsAfterFinished");
  }
}
