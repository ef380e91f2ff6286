package dev.jobc.mpi;

import dev.jobc.model.ReplicaSpec;
import dev.jobc.model.RunPolicy;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import java.util.Map;

/**
 * {@code spec} of an MPIJob, the union of the fields of every accepted API version. The schema of
 * the document's own version has already rejected fields that version does not have, so a field
 * being non-null here means the user's version has it.
 *
 * <p>Fields by version (mpi-operator): v1alpha1 {@code gpus, gpusPerNode, processingUnits,
 * processingUnitsPerNode, processingResourceType, launcherOnMaster, backoffLimit,
 * activeDeadlineSeconds, replicas, template, slotsPerWorker}; v1alpha2 adds {@code cleanPodPolicy,
 * mpiReplicaSpecs, mainContainer, runPolicy, mpiDistribution}; v1 {@code slotsPerWorker,
 * cleanPodPolicy, mpiReplicaSpecs, mainContainer, runPolicy}; v2beta1 {@code slotsPerWorker,
 * runLauncherAsWorker, runPolicy, mpiReplicaSpecs, sshAuthMountPath, launcherCreationPolicy,
 * mpiImplementation}.
 */
public record MpiJobSpec(
    Integer slotsPerWorker,
    Boolean runLauncherAsWorker,
    RunPolicy runPolicy,
    Map<String, ReplicaSpec> mpiReplicaSpecs,
    String sshAuthMountPath,
    String launcherCreationPolicy,
    String mpiImplementation,
    String cleanPodPolicy,
    String mainContainer,
    String mpiDistribution,
    Integer gpus,
    Integer gpusPerNode,
    Integer processingUnits,
    Integer processingUnitsPerNode,
    String processingResourceType,
    Boolean launcherOnMaster,
    Integer backoffLimit,
    Long activeDeadlineSeconds,
    Integer replicas,
    PodTemplateSpec template) {

  /** The spec of a document without one: every field absent. */
  public static final MpiJobSpec EMPTY =
      new MpiJobSpec(
          null, null, null, null, null, null, null, null, null, null, null, null, null, null, null,
          null, null, null, null, null);

  /** {@code runPolicy}, or one with every field absent. */
  public RunPolicy runPolicyOrEmpty() {
    return runPolicy != null ? runPolicy : RunPolicy.empty();
  }
}
