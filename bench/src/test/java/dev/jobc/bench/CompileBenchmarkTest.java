package dev.jobc.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The benchmark inputs compile, so {@code benchmarks.jar} measures the success path. */
class CompileBenchmarkTest {
  @ParameterizedTest
  @ValueSource(ints = {2, 1000})
  void inputCompiles(int workers) {
    CompileBenchmark benchmark = new CompileBenchmark();
    benchmark.workers = workers;
    assertThatCode(benchmark::setUp).doesNotThrowAnyException();
  }

  @org.junit.jupiter.api.Test
  void libraryFloorInputLoadsAndPassesItsSchema() throws Exception {
    LibraryFloorBenchmark benchmark = new LibraryFloorBenchmark();
    assertThatCode(benchmark::setUp).doesNotThrowAnyException();
    assertThat(benchmark.yamlParseOnly().path("kind").asText()).isEqualTo("MPIJob");
  }
}
