package dev.jobc;

import dev.jobc.model.Source;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

/**
 * A {@link ManifestCompiler} made ready on other threads while a short-lived process does its own
 * start-up (parsing its command line, reading its inputs).
 *
 * <p>Most of a cold {@code jobc render} is one-time work, not compiling: FreeMarker's
 * configuration, networknt building the schema's validators, Jackson introspecting the fabric8
 * model classes to bind pod templates and to turn generated objects into trees, and the JVM
 * initialising the classes of each step. All of it happens on first use, so running a small
 * built-in job through both halves of the pipeline on two other threads does it while the main
 * thread is busy elsewhere, and the real compile then finds it done. The output does not depend on
 * it: the warm-up's results are dropped, and the compiler is the same immutable object either way.
 *
 * <p>On a machine with one processor there is nothing to overlap, and {@link #begin} starts no
 * thread.
 */
public final class WarmStart {
  /**
   * The warm-up job: mpi-operator's v2beta1 {@code pi} example, shortened. It takes the paths most
   * jobs take (kubexec transport, StatefulSet workers, a launcher sidecar, RBAC).
   */
  private static final Source SAMPLE =
      new Source(
          "<warm-up>",
          """
          apiVersion: kubeflow.org/v2beta1
          kind: MPIJob
          metadata:
            name: warm-up
            namespace: default
          spec:
            slotsPerWorker: 1
            runPolicy:
              cleanPodPolicy: Running
            mpiReplicaSpecs:
              Launcher:
                replicas: 1
                template:
                  spec:
                    containers:
                    - image: mpioperator/mpi-pi:openmpi
                      name: mpi-launcher
                      command: [mpirun]
                      args: [-n, "2", /home/mpiuser/pi]
                      env:
                      - name: OMP_NUM_THREADS
                        value: "1"
                      resources:
                        limits:
                          cpu: 1
                          memory: 1Gi
              Worker:
                replicas: 2
                template:
                  spec:
                    containers:
                    - image: mpioperator/mpi-pi:openmpi
                      name: mpi-worker
                      securityContext:
                        runAsUser: 1000
                      resources:
                        limits:
                          cpu: 1
                          memory: 1Gi
          """);

  private final CompletableFuture<ManifestCompiler> compiler;

  private WarmStart(CompletableFuture<ManifestCompiler> compiler) {
    this.compiler = compiler;
  }

  /**
   * Starts building a compiler and warming it on two daemon threads, when there is a second
   * processor to run them; returns at once.
   */
  public static WarmStart begin() {
    if (Runtime.getRuntime().availableProcessors() < 2) {
      return new WarmStart(null);
    }
    CompletableFuture<ManifestCompiler> future = new CompletableFuture<>();
    daemon(
        "jobc-warm-checks",
        () -> {
          ManifestCompiler built;
          try {
            built = new ManifestCompiler();
          } catch (Throwable t) {
            // compiler() builds one itself and reports the failure where it belongs.
            future.completeExceptionally(t);
            return;
          }
          future.complete(built);
          built.warmUpChecks(SAMPLE);
        });
    daemon("jobc-warm-generation", () -> future.join().warmUpGeneration(SAMPLE));
    return new WarmStart(future);
  }

  /** A compiler with no warm-up, for callers that compile once and may not start threads. */
  public static WarmStart none() {
    return new WarmStart(null);
  }

  /**
   * The compiler: the one built in the background (waiting for its construction, not for the
   * warm-up), or a new one when none was started or building it failed.
   */
  public ManifestCompiler compiler() {
    if (compiler != null) {
      try {
        return compiler.get();
      } catch (ExecutionException e) {
        // Fall through: building it here throws the same failure on the caller's thread.
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    return new ManifestCompiler();
  }

  private static void daemon(String name, Runnable warmUp) {
    Thread thread =
        new Thread(
            () -> {
              try {
                warmUp.run();
              } catch (Throwable ignored) {
                // A warm-up only saves time; the real compile meets and reports any failure.
              }
            },
            name);
    thread.setDaemon(true);
    thread.start();
  }
}
