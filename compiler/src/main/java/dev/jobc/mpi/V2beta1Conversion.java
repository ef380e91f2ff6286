package dev.jobc.mpi;

import static dev.jobc.mpi.MpiPaths.RUN_POLICY;
import static dev.jobc.mpi.MpiPaths.SPEC;

import dev.jobc.model.RunPolicy;

/**
 * {@code kubeflow.org/v2beta1}: the model's own shape, copied field by field ({@code
 * pkg/apis/kubeflow/v2beta1/types.go}). {@code mpiImplementation}, {@code sshAuthMountPath} and
 * {@code launcherCreationPolicy} are plain Go strings there, so an empty one is the same as none.
 */
final class V2beta1Conversion implements MpiEraConversion {

  @Override
  public void copy(MpiJobSpec spec, MpiJobModel.Draft draft) {
    RunPolicy run = spec.runPolicyOrEmpty();
    String implementation = spec.mpiImplementation();
    draft
        .slotsPerWorker(spec.slotsPerWorker())
        .runLauncherAsWorker(Boolean.TRUE.equals(spec.runLauncherAsWorker()))
        .cleanPodPolicy(run.cleanPodPolicy())
        .ttlSecondsAfterFinished(run.ttlSecondsAfterFinished())
        .activeDeadlineSeconds(run.activeDeadlineSeconds())
        .backoffLimit(run.backoffLimit())
        .suspend(Boolean.TRUE.equals(run.suspend()))
        .managedBy(run.managedBy())
        .schedulingPolicy(run.schedulingPolicy())
        .replicaSpecs(spec.mpiReplicaSpecs())
        .sshAuthMountPath(spec.sshAuthMountPath())
        .launcherCreationPolicy(spec.launcherCreationPolicy())
        .implementation(implementation == null || implementation.isEmpty() ? null : implementation)
        .paths(
            MpiEraConversion.replicaSpecPaths(
                RUN_POLICY.child("cleanPodPolicy"),
                RUN_POLICY.child("backoffLimit"),
                RUN_POLICY.child("activeDeadlineSeconds"),
                SPEC.child("mpiImplementation")));
  }
}
