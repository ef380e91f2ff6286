package dev.jobc.sidecar;

import dev.jobc.conventions.MpiEra;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Path;
import java.util.Map;
import java.util.function.Supplier;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code hosts}: the native sidecar beside an elastic MPIJob's launcher in the JobSet target (see
 * {@link JobSetHostsSidecar}).
 */
@Command(
    name = "hosts",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = "Keep discover_hosts.sh live from a JobSet's Ready worker pods.")
final class HostsCommand extends SidecarCommand {
  @Option(
      names = "--job",
      paramLabel = "NAME",
      required = true,
      description = "The MPIJob's name, which is the JobSet's.")
  String job;

  @Option(
      names = "--era",
      paramLabel = "v1|v2beta1",
      description = "MPIJob API version: host format (default: v2beta1).")
  String era = "v2beta1";

  @Option(names = "--slots", paramLabel = "N", description = "Slots per worker (default: 1).")
  int slots = 1;

  @Option(names = "--cluster-domain", paramLabel = "DOMAIN", description = "As given to jobc.")
  String clusterDomain;

  @Option(
      names = "--launcher-host",
      paramLabel = "HOST",
      description = "Echoed first, always: the launcher's own line when it also runs ranks.")
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
          "The most workers the job may have: workers at or past N are left out of"
              + " discover_hosts.sh (default: no bound).")
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

  HostsCommand(Termination termination) {
    super(termination);
  }

  HostsCommand(
      Termination termination, Supplier<KubernetesClient> clients, Map<String, String> env) {
    super(termination, clients, env);
  }

  @Override
  public Integer call() throws Exception {
    return withClient(client -> new JobSetHostsSidecar(client, settings(), termination).run());
  }

  JobSetHostsSidecar.Settings settings() {
    String ns = namespace != null ? namespace : env.get("POD_NAMESPACE");
    if (ns == null || ns.isEmpty()) {
      throw usage("give --namespace or set POD_NAMESPACE");
    }
    MpiEra e =
        MpiEra.of("kubeflow.org/" + era)
            .orElseThrow(() -> usage("--era must be v1 or v2beta1, not '" + era + "'"));
    if (slots < 1 || readyWorkers < 0 || maxWorkers < 0) {
      throw usage("--slots must be at least 1, --ready-workers and --max-workers at least 0");
    }
    return new JobSetHostsSidecar.Settings(
        ns,
        job,
        e,
        slots,
        clusterDomain,
        launcherHost,
        readyWorkers,
        maxWorkers,
        configDir,
        outputDir,
        readyFile);
  }
}
