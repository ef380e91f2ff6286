package dev.jobc.sidecar.mpi;

import dev.jobc.conventions.MpiEra;
import java.nio.file.Path;
import java.util.function.Function;
import picocli.CommandLine.Option;

/**
 * The options of {@code run} and {@code hosts} that say what goes into {@code discover_hosts.sh},
 * when the gate opens and where the files go ({@link LiveHosts}); a picocli mixin of both.
 */
final class LiveHostsOptions {
  @Option(
      names = "--era",
      paramLabel = "v1|v2beta1",
      description = "MPIJob API version: label keys and host format (default: v2beta1).")
  String era = "v2beta1";

  @Option(names = "--slots", paramLabel = "N", description = "Slots per worker (default: 1).")
  int slots = 1;

  @Option(names = "--cluster-domain", paramLabel = "DOMAIN", description = "As given to jobc.")
  String clusterDomain;

  @Option(
      names = "--launcher-host",
      paramLabel = "HOST",
      description =
          "Echoed first, always: the launcher's own line when it also runs ranks"
              + " (runLauncherAsWorker, or a v1 launcher with a GPU).")
  String launcherHost;

  @Option(
      names = "--ready-workers",
      paramLabel = "N",
      description = "Create the ready file once N workers are Ready (default: 0).")
  int readyWorkers;

  @Option(
      names = "--max-workers",
      paramLabel = "N",
      description =
          "The most workers the job may have (run: the Role's exec grant): workers at or past N"
              + " are left out of discover_hosts.sh (default: no bound).")
  int maxWorkers;

  @Option(
      names = "--config-dir",
      paramLabel = "DIR",
      description = "Where the ConfigMap is mounted (hostfile, kubexec.sh are copied from it).")
  Path configDir;

  @Option(
      names = "--output-dir",
      paramLabel = "DIR",
      description = "Writable directory the launcher sees as /etc/mpi (default: /etc/mpi).")
  Path outputDir = Path.of("/etc/mpi");

  @Option(
      names = "--ready-file",
      paramLabel = "FILE",
      description = "Created once the workers are Ready (default: /tmp/jobc-ready).")
  Path readyFile = Path.of("/tmp/jobc-ready");

  /**
   * The era {@code --era} names, once the numbers are checked; {@code usage} makes the error for a
   * value out of range.
   */
  MpiEra checkedEra(Function<String, RuntimeException> usage) {
    if (slots < 1 || readyWorkers < 0 || maxWorkers < 0) {
      throw usage.apply("--slots must be at least 1, --ready-workers and --max-workers at least 0");
    }
    return MpiEra.of("kubeflow.org/" + era)
        .orElseThrow(() -> usage.apply("--era must be v1 or v2beta1, not '" + era + "'"));
  }
}
