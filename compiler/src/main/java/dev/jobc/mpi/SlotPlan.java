package dev.jobc.mpi;

import dev.jobc.diag.Code;
import dev.jobc.diag.FieldPath;
import dev.jobc.diag.Finding;
import dev.jobc.k8s.Quantities;
import dev.jobc.options.CompileOptions;
import dev.jobc.options.OptionTable;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Quantity;
import java.math.BigDecimal;
import java.util.List;

/**
 * How a v1alpha1 MPIJob's total {@code gpus:} / {@code processingUnits:} count becomes workers:
 * mpi-operator's final {@code allocateProcessingUnits} (after PR #16: the launcher gets none). A
 * total below one node's worth runs on one worker; a whole number of nodes runs one worker per
 * node; anything else is an error naming the total and the per-node count (upstream logged it and
 * silently did nothing; the seed version silently dropped the remainder).
 *
 * @param workers worker count
 * @param unitsPerWorker units each worker gets, 0 when the job gives a plain replica count and the
 *     template asks for none
 * @param resource the resource the units are ({@code nvidia.com/gpu} or {@code cpu})
 * @param writeLimit whether the unit count must be written into the worker's limits (total mode)
 */
public record SlotPlan(int workers, int unitsPerWorker, String resource, boolean writeLimit) {
  public static final String GPU = "nvidia.com/gpu";

  /** A packing, or why there is none. */
  public record Packing(SlotPlan plan, List<Finding> errors) {}

  static final FieldPath SPEC = FieldPath.of("spec");

  public static Packing pack(MpiJobSpec spec, CompileOptions options) {
    Integer gpus = spec.gpus();
    Integer units = spec.processingUnits();
    String type = spec.processingResourceType() == null ? GPU : spec.processingResourceType();
    if (gpus != null && units != null) {
      return error(
          Code.FORBIDDEN,
          SPEC.child("processingUnits"),
          "Forbidden: gpus and processingUnits cannot both be set (gpus is the deprecated name)");
    }
    if ((gpus != null || units != null) && spec.replicas() != null) {
      return error(
          Code.FORBIDDEN,
          SPEC.child("replicas"),
          "Forbidden: replicas cannot be set together with "
              + (gpus != null ? "gpus" : "processingUnits")
              + " (the total decides the worker count)");
    }
    if (gpus != null || units != null) {
      String field = gpus != null ? "gpus" : "processingUnits";
      String perNodeField = gpus != null ? "gpusPerNode" : "processingUnitsPerNode";
      int total = gpus != null ? gpus : units;
      Integer specPerNode = gpus != null ? spec.gpusPerNode() : spec.processingUnitsPerNode();
      int perNode =
          specPerNode != null
              ? specPerNode
              : gpus != null
                  ? options.get(OptionTable.GPUS_PER_NODE)
                  : options.get(OptionTable.UNITS_PER_NODE);
      String resource = gpus != null ? GPU : type;
      if (total < 1) {
        return error(
            Code.INVALID,
            SPEC.child(field),
            "Invalid value: " + total + ": must be greater than or equal to 1");
      }
      if (perNode < 1) {
        return error(
            Code.INVALID,
            SPEC.child(perNodeField),
            "Invalid value: " + perNode + ": must be greater than or equal to 1");
      }
      if (total < perNode) {
        return new Packing(new SlotPlan(1, total, resource, true), List.of());
      }
      if (total % perNode == 0) {
        return new Packing(new SlotPlan(total / perNode, perNode, resource, true), List.of());
      }
      int lower = total / perNode * perNode;
      long upper = (long) lower + perNode; // past Integer.MAX_VALUE, no count to suggest
      return error(
          Code.INVALID,
          SPEC.child(field),
          "Invalid value: "
              + total
              + ": "
              + field
              + " is not a multiple of "
              + perNodeField
              + " ("
              + perNode
              + (specPerNode == null ? ", from the per-node option" : "")
              + "): use "
              + lower
              + (upper <= Integer.MAX_VALUE ? " or " + upper : "")
              + ", or set "
              + perNodeField);
    }
    if (spec.replicas() != null) {
      return new Packing(
          new SlotPlan(spec.replicas(), limitOf(spec, type), type, false), List.of());
    }
    return error(
        Code.REQUIRED,
        SPEC,
        "Required value: set gpus, processingUnits or replicas; without them there are no workers");
  }

  /** The template's main container limit of {@code resource}, as whole units (0 when absent). */
  private static int limitOf(MpiJobSpec spec, String resource) {
    if (spec.template() == null || spec.template().getSpec() == null) {
      return 0;
    }
    List<Container> containers = spec.template().getSpec().getContainers();
    if (containers == null || containers.isEmpty() || containers.get(0).getResources() == null) {
      return 0;
    }
    var limits = containers.get(0).getResources().getLimits();
    Quantity q = limits == null ? null : limits.get(resource);
    if (q == null) {
      return 0;
    }
    BigDecimal amount = Quantities.value(q);
    if (amount == null) {
      return 0; // not a quantity: the schema check reports it, and validation still runs
    }
    // Whole units only (a "500m" cpu limit is no slot); capped so a huge limit cannot overflow.
    return amount.max(BigDecimal.ZERO).min(BigDecimal.valueOf(Integer.MAX_VALUE)).intValue();
  }

  private static Packing error(Code code, FieldPath path, String message) {
    return new Packing(null, List.of(Finding.error(code, path, message)));
  }
}
