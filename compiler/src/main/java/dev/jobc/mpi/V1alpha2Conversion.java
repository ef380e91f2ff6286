package dev.jobc.mpi;

import static dev.jobc.mpi.MpiPaths.RUN_POLICY;
import static dev.jobc.mpi.MpiPaths.SPEC;

import dev.jobc.diag.Finding;
import dev.jobc.model.RunPolicy;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code kubeflow.org/v1alpha2} ({@code pkg/apis/kubeflow/v1alpha2/types.go}): {@code backoffLimit}
 * and {@code activeDeadlineSeconds} exist both at {@code spec} and in {@code runPolicy}, and
 * runPolicy's win (with a warning when both are given, as the operator logged); {@code
 * spec.cleanPodPolicy} wins over runPolicy's; {@code mpiDistribution} names the implementation in
 * this version's spelling ({@code IntelMPI} is the model's {@code Intel}).
 */
final class V1alpha2Conversion implements MpiEraConversion {

  @Override
  public void copy(MpiJobSpec spec, MpiJobModel.Draft draft) {
    RunPolicy run = spec.runPolicyOrEmpty();
    List<String> overridden = new ArrayList<>();
    if (spec.backoffLimit() != null && run.backoffLimit() != null) {
      overridden.add("backoffLimit");
    }
    if (spec.activeDeadlineSeconds() != null && run.activeDeadlineSeconds() != null) {
      overridden.add("activeDeadlineSeconds");
    }
    if (!overridden.isEmpty()) {
      // The operator logged "runPolicy is specified in MPIJobSpec so backOffLimit/
      // activeDeadlineSeconds in MPIJobSpec will be overwritten".
      draft.addFinding(
          Finding.warning(
              RUN_POLICY,
              "overrides spec."
                  + String.join(" and spec.", overridden)
                  + " (runPolicy wins in v1alpha2)"));
    }
    boolean backoffInRunPolicy = run.backoffLimit() != null;
    boolean deadlineInRunPolicy = run.activeDeadlineSeconds() != null;
    draft
        .slotsPerWorker(spec.slotsPerWorker())
        .cleanPodPolicy(
            MpiEraConversion.specOverRunPolicy(spec.cleanPodPolicy(), run.cleanPodPolicy()))
        .ttlSecondsAfterFinished(run.ttlSecondsAfterFinished())
        .activeDeadlineSeconds(
            deadlineInRunPolicy ? run.activeDeadlineSeconds() : spec.activeDeadlineSeconds())
        .backoffLimit(backoffInRunPolicy ? run.backoffLimit() : spec.backoffLimit())
        .schedulingPolicy(run.schedulingPolicy())
        .replicaSpecs(spec.mpiReplicaSpecs())
        .implementation(implementation(spec.mpiDistribution()))
        .mainContainer(spec.mainContainer())
        .paths(
            MpiEraConversion.replicaSpecPaths(
                spec.cleanPodPolicy() != null
                    ? SPEC.child("cleanPodPolicy")
                    : RUN_POLICY.child("cleanPodPolicy"),
                (backoffInRunPolicy ? RUN_POLICY : SPEC).child("backoffLimit"),
                (deadlineInRunPolicy ? RUN_POLICY : SPEC).child("activeDeadlineSeconds"),
                SPEC.child("mpiDistribution")));
  }

  /**
   * The model's name for a {@code mpiDistribution}; a name jobc does not know (even an empty one:
   * the field is a pointer upstream, so it was written) is kept for the validator to report.
   */
  static String implementation(String distribution) {
    if (distribution == null) {
      return null;
    }
    return switch (distribution) {
      case "IntelMPI" -> "Intel";
      default -> distribution;
    };
  }
}
