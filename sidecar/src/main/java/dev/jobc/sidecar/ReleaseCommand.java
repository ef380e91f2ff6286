package dev.jobc.sidecar;

import io.fabric8.kubernetes.api.model.ContainerStateTerminated;
import io.fabric8.kubernetes.api.model.ObjectReferenceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code release}: the native sidecar beside a DGLJob launcher, a bare Pod with restart policy
 * Never. Any end of that pod is final (its main container has ended, a wait before it failed, or
 * the pod was deleted), and each reaches this process as SIGTERM; it then applies {@code
 * cleanPodPolicy} to the workers, as dgl-operator ({@code dgljob_controller.go} at {@code 47bff27})
 * deletes the workers of a finished DGLJob, and records an Event on the launcher pod. It sends no
 * request before that.
 */
@Command(
    name = "release",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = "When this pod stops, release the workers by cleanPodPolicy.")
final class ReleaseCommand extends SidecarCommand {
  @Option(
      names = "--pod",
      paramLabel = "NAME",
      description = "The launcher pod (this pod); default: $POD_NAME.")
  String pod;

  @Option(
      names = "--container",
      paramLabel = "NAME",
      required = true,
      description = "The launcher's main container (its exit code goes into the Event).")
  String container;

  @Option(
      names = "--clean-pod-policy",
      paramLabel = "None|Running|All",
      description = "Default: Running (dgl-operator's).")
  String cleanPodPolicy = "Running";

  @Option(
      names = "--worker-set",
      paramLabel = "NAME",
      description = "The workers' StatefulSet, scaled to 0; without it, worker pods are deleted.")
  String workerSet;

  @Option(
      names = "--selector",
      paramLabel = "KEY=VALUE[,...]",
      description = "Labels of the worker pods (without --worker-set).")
  String selector;

  ReleaseCommand(Termination termination) {
    super(termination);
  }

  ReleaseCommand(
      Termination termination, Supplier<KubernetesClient> clients, Map<String, String> env) {
    super(termination, clients, env);
  }

  @Override
  public Integer call() throws Exception {
    PodIdentity self = thisPod(pod);
    if (!List.of("None", "Running", "All").contains(cleanPodPolicy)) {
      throw usage("--clean-pod-policy must be None, Running or All");
    }
    Map<String, String> labels;
    try {
      labels = WaitCommand.labels(selector);
    } catch (IllegalArgumentException e) {
      throw usage("--selector: " + e.getMessage());
    }
    if (workerSet == null && labels.isEmpty()) {
      throw usage("give --worker-set or --selector");
    }
    Log.info(
        "releasing "
            + (workerSet != null ? "StatefulSet " + workerSet : "the pods " + labels)
            + " by cleanPodPolicy "
            + cleanPodPolicy
            + " when this pod stops");
    termination.awaitStop();
    return withClient(
        client -> {
          release(client, self.namespace(), self.name(), labels);
          return 0;
        });
  }

  private void release(KubernetesClient client, String ns, String self, Map<String, String> labels)
      throws InterruptedException {
    JobEvents events = new JobEvents(client, ns, self, self);
    String outcome = "launcher pod stopped";
    try {
      Pod launcher = client.pods().inNamespace(ns).withName(self).get();
      if (launcher != null) {
        events.about(
            new ObjectReferenceBuilder()
                .withApiVersion("v1")
                .withKind("Pod")
                .withName(self)
                .withNamespace(ns)
                .withUid(launcher.getMetadata().getUid())
                .build());
        ContainerStateTerminated ended = JobOutcome.terminated(launcher, container);
        if (ended != null) {
          outcome =
              Integer.valueOf(0).equals(ended.getExitCode())
                  ? "launcher succeeded"
                  : "launcher failed (exit code " + ended.getExitCode() + ")";
        }
      }
    } catch (RuntimeException e) {
      Log.info("could not read the launcher pod: " + PodWatch.describe(e));
    }
    WorkerCleanup.Result r =
        new WorkerCleanup(client, ns).apply(cleanPodPolicy, workerSet, labels, termination);
    events.record(
        r.ok() ? JobEvents.NORMAL : JobEvents.WARNING, r.reason(), outcome + "; " + r.message());
  }
}
