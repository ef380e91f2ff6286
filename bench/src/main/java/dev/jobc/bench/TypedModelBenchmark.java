package dev.jobc.bench;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jobc.bind.ObjectTrees;
import dev.jobc.load.Document;
import dev.jobc.load.YamlLimits;
import dev.jobc.load.YamlLoader;
import dev.jobc.model.Source;
import dev.jobc.mpi.MpiJob;
import dev.jobc.mpi.MpiJobKind;
import dev.jobc.options.CompileOptions;
import dev.jobc.render.Templates;
import io.fabric8.kubernetes.api.model.HasMetadata;
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
 * What the typed representations cost per small job with Jackson, the library that binds and
 * serialises them: the 2-worker {@code pi} job of {@link CompileBenchmark} bound to its record
 * (with fabric8 pod templates), and the eight fabric8 objects its compile generates turned into
 * trees for the writer. Beside {@link LibraryFloorBenchmark}, these say how much of a compile is
 * Jackson working on fabric8's model classes rather than jobc's own steps.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class TypedModelBenchmark {
  private MpiJobKind kind;
  private Document document;
  private List<HasMetadata> objects;

  @Setup
  public void setUp() {
    kind = new MpiJobKind(new Templates());
    Source source = new Source("pi.yaml", CompileBenchmark.piJob("pi", 2));
    document = new YamlLoader(YamlLimits.defaults()).load(source).documents().get(0);
    objects = kind.generate(kind.plan(kind.defaults(bindJob(), CompileOptions.defaults())));
    if (objects.size() != 8) {
      throw new IllegalStateException("expected the eight objects of a pi job: " + objects);
    }
  }

  /** Jackson binding the parsed job (after its schema check) to jobc's record. */
  @Benchmark
  public MpiJob bindJob() {
    return kind.bind(document.root());
  }

  /** Jackson serialising the eight generated fabric8 objects into trees. */
  @Benchmark
  public List<ObjectNode> objectsToTrees() {
    List<ObjectNode> trees = new ArrayList<>(objects.size());
    for (HasMetadata object : objects) {
      trees.add(ObjectTrees.tree(object));
    }
    return trees;
  }
}
