package dev.jobc.tf;

import dev.jobc.k8s.GangPlan;
import dev.jobc.options.OptionTable;
import dev.jobc.replica.ReplicaGangPlanner;
import dev.jobc.replica.ReplicaGangPlanner.PodCount;
import dev.jobc.replica.ReplicaJobSets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;

/**
 * Gang scheduling of a valid TFJob as training-operator v1.9.0 {@code ReconcileJobs} decides it, as
 * for the other kinds ({@link ReplicaGangPlanner}), except that {@code CalcPGMinResources} also
 * counts the jobc-sidecar beside each deciding pod (in the plain target).
 */
public final class TfGangPlanner {

  private TfGangPlanner() {}

  public static Optional<GangPlan> plan(TfJobModel job) {
    return ReplicaGangPlanner.plan(
        job.options(),
        job.runPolicy(),
        job.totalReplicas(),
        minMember -> minResources(job, minMember));
  }

  /**
   * {@code CalcPGMinResources} with the jobc-sidecar's requests on each deciding pod, the types in
   * {@link TfReplicaType} order.
   */
  static SortedMap<String, String> minResources(TfJobModel job, int minMember) {
    // The JobSet target runs no sidecar.
    boolean sidecar = !ReplicaJobSets.chosen(job.options());
    List<PodCount> types = new ArrayList<>();
    for (Map.Entry<TfReplicaType, TfJobModel.Replica> e : job.replicas().entrySet()) {
      TfReplicaType type = e.getKey();
      TfJobModel.Replica r = e.getValue();
      types.add(
          new PodCount(
              r.count(),
              r.spec().template(),
              take -> {
                int sidecars = 0;
                for (int i = 0; i < take; i++) {
                  sidecars += sidecar && TfJobPlanner.decides(job, type, i) ? 1 : 0;
                }
                return sidecars;
              }));
    }
    return ReplicaGangPlanner.minResources(
        job.options().get(OptionTable.RENDER_DEFAULTS), types, minMember);
  }
}
