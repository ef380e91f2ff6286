package dev.jobc.sidecar.mpi;

import dev.jobc.conventions.MpiEra;
import dev.jobc.sidecar.base.SidecarCommand;
import dev.jobc.sidecar.base.Termination;
import dev.jobc.sidecar.client.ClusterApi;
import java.util.Map;
import java.util.function.Supplier;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
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
public final class HostsCommand extends SidecarCommand {
  @Option(
      names = "--job",
      paramLabel = "NAME",
      required = true,
      description = "The MPIJob's name, which is the JobSet's.")
  String job;

  @Mixin LiveHostsOptions hosts = new LiveHostsOptions();

  public HostsCommand(Termination termination) {
    super(termination);
  }

  public HostsCommand(Termination termination, Supplier<ClusterApi> apis, Map<String, String> env) {
    super(termination, apis, env);
  }

  @Override
  public Integer call() throws Exception {
    return new JobSetHostsSidecar(apis.get(), settings(), termination).run();
  }

  JobSetHostsSidecar.Settings settings() {
    String ns = namespace != null ? namespace : env.get("POD_NAMESPACE");
    if (ns == null || ns.isEmpty()) {
      throw usage("give --namespace or set POD_NAMESPACE");
    }
    MpiEra e = hosts.checkedEra(this::usage);
    return new JobSetHostsSidecar.Settings(
        ns,
        job,
        e,
        hosts.slots,
        hosts.clusterDomain,
        hosts.launcherHost,
        hosts.readyWorkers,
        hosts.maxWorkers,
        hosts.configDir,
        hosts.outputDir,
        hosts.readyFile);
  }
}
