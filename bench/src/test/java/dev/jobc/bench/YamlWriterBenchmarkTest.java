package dev.jobc.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jobc.model.CompileResult;
import dev.jobc.model.OutputObject;
import org.junit.jupiter.api.Test;

/** The writer benchmark writes exactly what the compile outputs, so it measures the real step. */
class YamlWriterBenchmarkTest {
  @Test
  void writesTheObjectsOfTheCompile() {
    YamlWriterBenchmark benchmark = new YamlWriterBenchmark();
    benchmark.setUp();
    CompileBenchmark compile = new CompileBenchmark();
    compile.workers = 2;
    compile.setUp();
    CompileResult result = compile.compile();
    assertThat(benchmark.written())
        .containsExactlyElementsOf(result.objects().stream().map(OutputObject::yaml).toList());
    assertThat(benchmark.writeObjects())
        .isEqualTo(result.objects().stream().mapToInt(o -> o.yaml().length()).sum());
  }
}
