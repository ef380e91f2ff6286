package dev.jobc.mpi;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jobc.diag.Code;
import dev.jobc.diag.Finding;
import dev.jobc.options.CompileOptions;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The final mpi-operator v1alpha1 packing table (mpi-operator `8943cf7`
 * `pkg/controllers/v1alpha1/mpi_job_controller.go` `allocateProcessingUnits`), remainders as
 * errors.
 */
class SlotPlanTest {

  static Stream<Arguments> packings() {
    return Stream.of(
        Arguments.of(Named.of("gpus 1", spec(1, null, null)), 1, 1),
        Arguments.of(Named.of("gpus 4 (below a node)", spec(4, null, null)), 1, 4),
        Arguments.of(Named.of("gpus 8 (one node)", spec(8, null, null)), 1, 8),
        Arguments.of(Named.of("gpus 16", spec(16, null, null)), 2, 8),
        Arguments.of(Named.of("gpus 64", spec(64, null, null)), 8, 8),
        Arguments.of(Named.of("gpus 128", spec(128, null, null)), 16, 8),
        Arguments.of(Named.of("gpus 32, 4 per node", spec(32, 4, null)), 8, 4),
        Arguments.of(Named.of("gpus 2, 1 per node", spec(2, 1, null)), 2, 1),
        Arguments.of(Named.of("replicas 4", spec(null, null, 4)), 4, 0));
  }

  @ParameterizedTest
  @MethodSource("packings")
  void packsWholeNodes(MpiJobSpec spec, int workers, int units) {
    SlotPlan.Packing p = SlotPlan.pack(spec, CompileOptions.defaults());
    assertThat(p.errors()).isEmpty();
    assertThat(p.plan().workers()).isEqualTo(workers);
    assertThat(p.plan().unitsPerWorker()).isEqualTo(units);
  }

  static Stream<Arguments> errors() {
    return Stream.of(
        Arguments.of(Named.of("gpus 12", spec(12, null, null)), Code.INVALID, "spec.gpus"),
        Arguments.of(Named.of("gpus 20", spec(20, null, null)), Code.INVALID, "spec.gpus"),
        Arguments.of(Named.of("gpus 0", spec(0, null, null)), Code.INVALID, "spec.gpus"),
        Arguments.of(
            Named.of("gpus and replicas", spec(8, null, 2)), Code.FORBIDDEN, "spec.replicas"),
        Arguments.of(Named.of("nothing", spec(null, null, null)), Code.REQUIRED, "spec"));
  }

  @ParameterizedTest
  @MethodSource("errors")
  void reportsWhatCannotBePacked(MpiJobSpec spec, Code code, String path) {
    SlotPlan.Packing p = SlotPlan.pack(spec, CompileOptions.defaults());
    assertThat(p.plan()).isNull();
    assertThat(p.errors())
        .extracting(Finding::code, f -> f.path().toString())
        .containsExactly(org.assertj.core.api.Assertions.tuple(code, path));
  }

  private static MpiJobSpec spec(Integer gpus, Integer gpusPerNode, Integer replicas) {
    return new MpiJobSpec(
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        gpus,
        gpusPerNode,
        null,
        null,
        null,
        null,
        null,
        null,
        replicas,
        null);
  }
}
