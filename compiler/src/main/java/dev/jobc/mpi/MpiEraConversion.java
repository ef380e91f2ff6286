package dev.jobc.mpi;

import dev.jobc.conventions.MpiEra;
import dev.jobc.diag.FieldPath;

/**
 * Copies what the user wrote in one MPIJob API version into a {@link MpiJobModel.Draft}, with that
 * version's own rules (which field wins, how names map, where each field lives). Defaults are not
 * applied here: {@link MpiJobDefaults} fills the gaps in one pass afterwards, so a field left
 * {@code null} by a conversion is one the defaults decide.
 */
interface MpiEraConversion {

  void copy(MpiJobSpec spec, MpiJobModel.Draft draft);

  static MpiEraConversion of(MpiEra era) {
    return switch (era) {
      case V2BETA1 -> new V2beta1Conversion();
      case V1 -> new V1Conversion();
      case V1ALPHA2 -> new V1alpha2Conversion();
      case V1ALPHA1 -> new V1alpha1Conversion();
    };
  }

  /** Field paths of a version with {@code mpiReplicaSpecs} (v1alpha2 onwards). */
  static MpiPaths replicaSpecPaths(
      FieldPath cleanPodPolicy,
      FieldPath backoffLimit,
      FieldPath activeDeadlineSeconds,
      FieldPath implementation) {
    FieldPath worker = MpiPaths.REPLICA_SPECS.key(MpiJob.WORKER);
    return new MpiPaths(
        MpiPaths.REPLICA_SPECS.key(MpiJob.LAUNCHER),
        worker,
        cleanPodPolicy,
        backoffLimit,
        activeDeadlineSeconds,
        implementation,
        worker.child("replicas"));
  }

  /**
   * v1 and v1alpha2 keep {@code cleanPodPolicy} both at {@code spec} and in {@code runPolicy};
   * mpi-operator's controllers act on {@code spec}'s ({@code
   * isCleanUpPods(mpiJob.Spec.CleanPodPolicy)}), so it wins when set. An empty string counts as
   * unset.
   */
  static String specOverRunPolicy(String atSpec, String atRunPolicy) {
    return atSpec != null && !atSpec.isEmpty() ? atSpec : atRunPolicy;
  }
}
