package dev.jobc.bench;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jobc.ManifestCompiler;
import dev.jobc.load.Document;
import dev.jobc.load.LoadResult;
import dev.jobc.load.YamlLimits;
import dev.jobc.load.YamlLoader;
import dev.jobc.model.CompileResult;
import dev.jobc.model.OutputObject;
import dev.jobc.model.Source;
import dev.jobc.options.CompileOptions;
import dev.jobc.render.YamlWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The serializing step of {@link CompileBenchmark} (2 workers) alone: {@link YamlWriter} writing
 * the eight objects the compile outputs, in canonical key order, as the compiler does.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class YamlWriterBenchmark {
  private final YamlWriter writer = new YamlWriter();
  private List<JsonNode> trees;

  /** The objects of the compile, read back from its output. */
  @Setup
  public void setUp() {
    CompileResult compiled =
        new ManifestCompiler()
            .compile(
                List.of(new Source("pi.yaml", CompileBenchmark.piJob("pi", 2))),
                CompileOptions.defaults());
    if (!compiled.ok()) {
      throw new IllegalStateException(
          "benchmark input does not compile: " + compiled.diagnostics());
    }
    YamlLoader loader = new YamlLoader(YamlLimits.defaults());
    trees = new ArrayList<>();
    for (OutputObject o : compiled.objects()) {
      LoadResult loaded = loader.load(new Source(o.kind(), o.yaml()));
      for (Document d : loaded.documents()) {
        trees.add(d.root());
      }
    }
  }

  /** Every object written as one YAML document; the total length keeps the work observable. */
  @Benchmark
  public int writeObjects() {
    int length = 0;
    for (JsonNode tree : trees) {
      length += writer.write(tree, true).length();
    }
    return length;
  }

  /** What {@link #writeObjects} writes, one string per object; for the test. */
  List<String> written() {
    List<String> out = new ArrayList<>();
    for (JsonNode tree : trees) {
      out.add(writer.write(tree, true));
    }
    return out;
  }
}
