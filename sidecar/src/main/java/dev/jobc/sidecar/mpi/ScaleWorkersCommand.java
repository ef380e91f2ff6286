package dev.jobc.sidecar.mpi;

import dev.jobc.sidecar.base.SidecarCommand;
import dev.jobc.sidecar.base.Termination;
import dev.jobc.sidecar.client.ClusterApi;
import java.util.Map;
import java.util.function.Supplier;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code scale-workers}: the Job that follows an MPIJob's launcher Job (see {@link WorkerScaler}).
 */
@Command(
    name = "scale-workers",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description =
        "Follow the launcher Job: release the workers when it is suspended or has finished, scale"
            + " them up again when it is resumed.")
public final class ScaleWorkersCommand extends SidecarCommand {
  @Option(
      names = "--pod",
      paramLabel = "NAME",
      description = "This pod (the Events' reporter); default: $POD_NAME.")
  String pod;

  @Option(
      names = "--launcher-job",
      paramLabel = "NAME",
      required = true,
      description = "The launcher Job to follow.")
  String launcherJob;

  @Option(
      names = "--worker-set",
      paramLabel = "NAME",
      description =
          "The workers' StatefulSet, scaled to 0 and back; without it, worker pods are deleted.")
  String workerSet;

  @Option(
      names = "--worker-replicas",
      paramLabel = "N",
      description = "With --worker-set: the size it is scaled back to on resumption.")
  int workerReplicas;

  @Option(
      names = "--selector",
      paramLabel = "KEY=VALUE[,...]",
      description = "Labels of the worker pods (without --worker-set).")
  String selector;

  @Option(
      names = "--clean-pod-policy",
      paramLabel = "None|Running|All",
      description = "Applied when the launcher Job has finished (default: None).")
  String cleanPodPolicy = "None";

  @Option(
      names = "--resync-seconds",
      paramLabel = "S",
      description =
          "How often to look at the Job and the workers again without a change (default: 30).")
  int resyncSeconds = (int) WorkerScaler.RESYNC.toSeconds();

  public ScaleWorkersCommand(Termination termination) {
    super(termination);
  }

  public ScaleWorkersCommand(
      Termination termination, Supplier<ClusterApi> apis, Map<String, String> env) {
    super(termination, apis, env);
  }

  @Override
  public Integer call() throws Exception {
    WorkerScaler.Settings settings = settings();
    if (resyncSeconds < 1) {
      throw usage("--resync-seconds must be at least 1");
    }
    return new WorkerScaler(
            apis.get(), settings, termination, java.time.Duration.ofSeconds(resyncSeconds))
        .run();
  }

  WorkerScaler.Settings settings() {
    PodIdentity self = thisPod(pod);
    Map<String, String> labels = workers(cleanPodPolicy, workerSet, selector);
    if (workerReplicas < 0) {
      throw usage("--worker-replicas must be at least 0");
    }
    return new WorkerScaler.Settings(
        self.namespace(),
        self.name(),
        launcherJob,
        workerSet,
        workerReplicas,
        labels,
        cleanPodPolicy);
  }
}
