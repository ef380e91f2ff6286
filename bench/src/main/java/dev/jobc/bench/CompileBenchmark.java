package dev.jobc.bench;

import dev.jobc.ManifestCompiler;
import dev.jobc.model.CompileResult;
import dev.jobc.model.Source;
import dev.jobc.options.CompileOptions;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Measures one in-process compilation of the mpi-operator {@code pi} MPIJob (v2beta1), with 2
 * workers and with 1,000, through a reused {@link ManifestCompiler}.
 *
 * <p>The defaults suit a 2-core machine; override them on the command line ({@code -f}, {@code
 * -wi}, {@code -i}, {@code -w}, {@code -r}, {@code -p workers=1000}).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class CompileBenchmark {

  /**
   * Worker replicas of the job: mpi-operator's `examples/v2beta1/pi` 2, and a large job's 1,000.
   */
  @Param({"2", "1000"})
  public int workers;

  private ManifestCompiler compiler;
  private List<Source> sources;
  private CompileOptions options;

  /** The {@code pi} example of mpi-operator with {@code slotsPerWorker: 2} and N workers. */
  static String piJob(String name, int workers) {
    return """
        apiVersion: kubeflow.org/v2beta1
        kind: MPIJob
        metadata:
          name: %s
          namespace: default
        spec:
          slotsPerWorker: 2
          runPolicy:
            cleanPodPolicy: Running
            ttlSecondsAfterFinished: 60
          sshAuthMountPath: /home/mpiuser/.ssh
          mpiReplicaSpecs:
            Launcher:
              replicas: 1
              template:
                spec:
                  containers:
                  - image: mpioperator/mpi-pi:openmpi
                    name: mpi-launcher
                    securityContext:
                      runAsUser: 1000
                    command:
                    - mpirun
                    args:
                    - -n
                    - "%d"
                    - /home/mpiuser/pi
                    resources:
                      limits:
                        cpu: 1
                        memory: 1Gi
            Worker:
              replicas: %d
              template:
                spec:
                  containers:
                  - image: mpioperator/mpi-pi:openmpi
                    name: mpi-worker
                    securityContext:
                      runAsUser: 1000
                    command:
                    - /usr/sbin/sshd
                    args:
                    - -De
                    - -f
                    - /home/mpiuser/.sshd_config
                    resources:
                      limits:
                        cpu: 1
                        memory: 1Gi
        """
        .formatted(name, workers * 2, workers);
  }

  @Setup
  public void setUp() {
    compiler = new ManifestCompiler();
    sources = List.of(new Source("pi.yaml", piJob("pi", workers)));
    options = CompileOptions.defaults();
    // Measuring the error path by accident would give a fast, meaningless number.
    CompileResult first = compiler.compile(sources, options);
    if (!first.ok()) {
      throw new IllegalStateException("benchmark input does not compile: " + first.diagnostics());
    }
  }

  /** One whole compilation: parse, check, plan, generate and serialize. */
  @Benchmark
  public CompileResult compile() {
    return compiler.compile(sources, options);
  }
}
