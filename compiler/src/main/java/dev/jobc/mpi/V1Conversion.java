package dev.jobc.mpi;

import static dev.jobc.mpi.MpiPaths.RUN_POLICY;
import static dev.jobc.mpi.MpiPaths.SPEC;

import dev.jobc.model.RunPolicy;

/**
 * {@code kubeflow.org/v1} ({@code pkg/apis/kubeflow/v1/types.go}): {@code runPolicy} from
 * kubeflow/common v0.4.0 plus {@code spec.cleanPodPolicy}, which wins over runPolicy's as the
 * controller reads it; {@code mainContainer} names the launcher's MPI container. The version has no
 * ssh path, launcher creation policy, implementation or managedBy: the defaults decide them.
 */
final class V1Conversion implements MpiEraConversion {

  @Override
  public void copy(MpiJobSpec spec, MpiJobModel.Draft draft) {
    RunPolicy run = spec.runPolicyOrEmpty();
    draft
        .slotsPerWorker(spec.slotsPerWorker())
        .cleanPodPolicy(
            MpiEraConversion.specOverRunPolicy(spec.cleanPodPolicy(), run.cleanPodPolicy()))
        .ttlSecondsAfterFinished(run.ttlSecondsAfterFinished())
        .activeDeadlineSeconds(run.activeDeadlineSeconds())
        .backoffLimit(run.backoffLimit())
        .suspend(Boolean.TRUE.equals(run.suspend()))
        .schedulingPolicy(run.schedulingPolicy())
        .replicaSpecs(spec.mpiReplicaSpecs())
        .mainContainer(spec.mainContainer())
        .paths(
            MpiEraConversion.replicaSpecPaths(
                spec.cleanPodPolicy() != null
                    ? SPEC.child("cleanPodPolicy")
                    : RUN_POLICY.child("cleanPodPolicy"),
                RUN_POLICY.child("backoffLimit"),
                RUN_POLICY.child("activeDeadlineSeconds"),
                SPEC.child("mpiImplementation")));
  }
}
