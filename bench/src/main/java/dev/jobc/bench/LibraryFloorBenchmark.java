package dev.jobc.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.jobc.diag.Diagnostic;
import dev.jobc.load.Document;
import dev.jobc.load.LoadResult;
import dev.jobc.load.YamlLimits;
import dev.jobc.load.YamlLoader;
import dev.jobc.model.Source;
import dev.jobc.schema.SchemaValidator;
import java.io.IOException;
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
 * What the libraries jobc must use cost per small job in steady state, with none of jobc's own
 * work: the input of {@link CompileBenchmark} (2 workers) parsed by jackson-dataformat-yaml alone,
 * parsed by jobc's loader (SnakeYAML events plus positions), and checked by networknt. A compile
 * can be no faster than the parse and the check it must do, so these bound what {@code
 * CompileBenchmark} can reach.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class LibraryFloorBenchmark {
  private String text;
  private Source source;
  private YAMLMapper yaml;
  private YamlLoader loader;
  private SchemaValidator schemas;
  private Document document;

  @Setup
  public void setUp() {
    text = CompileBenchmark.piJob("pi", 2);
    source = new Source("pi.yaml", text);
    yaml = new YAMLMapper();
    loader = new YamlLoader(YamlLimits.defaults());
    schemas = SchemaValidator.load();
    LoadResult loaded = loader.load(source);
    if (!loaded.diagnostics().isEmpty() || loaded.documents().size() != 1) {
      throw new IllegalStateException("benchmark input does not load: " + loaded.diagnostics());
    }
    document = loaded.documents().get(0);
    if (!schemaCheck().isEmpty()) {
      throw new IllegalStateException("benchmark input fails its schema: " + schemaCheck());
    }
  }

  /** jackson-dataformat-yaml (SnakeYAML underneath) reading the job into a tree, nothing else. */
  @Benchmark
  public JsonNode yamlParseOnly() throws IOException {
    return yaml.readTree(text);
  }

  /** jobc's loader: the same parse plus duplicate-key, limit and position bookkeeping. */
  @Benchmark
  public LoadResult jobcLoad() {
    return loader.load(source);
  }

  /** networknt checking the parsed job against the v2beta1 MPIJob schema. */
  @Benchmark
  public List<Diagnostic> schemaCheck() {
    return schemas.validate(document, "kubeflow.org/v2beta1", "MPIJob");
  }
}
