package dev.jobc.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import dev.jobc.model.CompileResult;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The benchmark inputs compile, so {@code benchmarks.jar} measures the success path. */
class CompileBenchmarkTest {
  @ParameterizedTest
  @ValueSource(ints = {2, 1000})
  void inputRendersEveryWorker(int workers) {
    CompileBenchmark benchmark = new CompileBenchmark();
    benchmark.workers = workers;
    benchmark.setUp();
    CompileResult result = benchmark.compile();
    assertThat(result.ok()).as(result.diagnostics().toString()).isTrue();
    assertThat(result.objects())
        .extracting(o -> o.kind() + "/" + o.name())
        .containsExactly(
            "ServiceAccount/pi-launcher",
            "Role/pi-launcher",
            "RoleBinding/pi-launcher",
            "ConfigMap/pi-config",
            "Service/pi",
            "StatefulSet/pi-worker",
            "Job/pi-launcher",
            "Job/pi-scaler");
    String config = result.objects().get(3).yaml();
    String last = "pi-worker-" + (workers - 1) + ".pi.default.svc slots=2";
    assertThat(config).contains(last).doesNotContain("pi-worker-" + workers + ".");
    assertThat(result.objects().get(5).yaml()).contains("replicas: " + workers + "\n");
  }

  @org.junit.jupiter.api.Test
  void libraryFloorInputLoadsAndPassesItsSchema() throws Exception {
    LibraryFloorBenchmark benchmark = new LibraryFloorBenchmark();
    assertThatCode(benchmark::setUp).doesNotThrowAnyException();
    assertThat(benchmark.yamlParseOnly().path("kind").asText()).isEqualTo("MPIJob");
  }

  @org.junit.jupiter.api.Test
  void typedModelBenchmarkBindsTheJobAndTreesEveryObject() {
    TypedModelBenchmark benchmark = new TypedModelBenchmark();
    benchmark.setUp();
    assertThat(benchmark.bindJob().metadata().getName()).isEqualTo("pi");
    assertThat(benchmark.objectsToTrees())
        .extracting(t -> t.path("kind").asText())
        .containsExactly(
            "ServiceAccount",
            "Role",
            "RoleBinding",
            "ConfigMap",
            "Service",
            "StatefulSet",
            "Job",
            "Job");
  }
}
