package dev.jobc.sidecar.dgl;

import dev.jobc.sidecar.base.JobEvents;
import dev.jobc.sidecar.base.Log;
import dev.jobc.sidecar.base.PodWatch;
import dev.jobc.sidecar.base.Pods;
import dev.jobc.sidecar.base.SidecarCommand;
import dev.jobc.sidecar.base.Termination;
import dev.jobc.sidecar.base.WorkerCleanup;
import dev.jobc.sidecar.base.WorkerScale;
import dev.jobc.sidecar.client.ClusterApi;
import io.fabric8.kubernetes.api.model.ContainerStateTerminated;
import io.fabric8.kubernetes.api.model.ObjectReferenceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.Map;
import java.util.function.Supplier;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code release}: the native sidecar beside a DGLJob launcher, a bare Pod with restart policy
 * Never. Any end of that pod is final (its main container has ended, a wait before it failed, or
 * the pod was deleted), and each reaches this process as SIGTERM; it then applies {@code
 * cleanPodPolicy} to the workers, as dgl-operator ({@code dgljob_controller.go} at {@code 47bff27})
 * deletes the workers of a finished DGLJob, and records an Event on the launcher pod.
 *
 * <p>At start it reads its pod (the Event's target and the pod's grace period, the time it has
 * after SIGTERM) and sends the release's requests once with {@code dryRun=All}, which changes
 * nothing: a JVM loads and compiles the client's code on first use, about a CPU-second, which at a
 * container's small CPU limit would otherwise be spent after SIGTERM, in the grace period.
 */
@Command(
    name = "release",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = "When this pod stops, release the workers by cleanPodPolicy.")
public final class ReleaseCommand extends SidecarCommand {
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

  public ReleaseCommand(Termination termination) {
    super(termination);
  }

  public ReleaseCommand(
      Termination termination, Supplier<ClusterApi> apis, Map<String, String> env) {
    super(termination, apis, env);
  }

  @Override
  public Integer call() throws Exception {
    PodIdentity self = thisPod(pod);
    Map<String, String> labels = workers(cleanPodPolicy, workerSet, selector);
    {
      ClusterApi client = apis.get();
      JobEvents events = new JobEvents(client, self.namespace(), self.name(), self.name());
      warmUp(client, self, labels, events);
      Log.info(
          "releasing "
              + (workerSet != null ? "StatefulSet " + workerSet : "the pods " + labels)
              + " by cleanPodPolicy "
              + cleanPodPolicy
              + " when this pod stops");
      termination.awaitStop();
      release(client, self, labels, events);
    }
    return 0;
  }

  /** Reads this pod and sends the release's requests as dry runs (see the class comment). */
  private void warmUp(
      ClusterApi client, PodIdentity self, Map<String, String> labels, JobEvents events) {
    Log.info("warming up: reading this pod, and the release as a dry run");
    try {
      Pod launcher = client.getPod(self.namespace(), self.name());
      if (launcher != null) {
        about(events, launcher);
        termination.podGracePeriod(
            launcher.getSpec() == null
                ? null
                : launcher.getSpec().getTerminationGracePeriodSeconds());
      }
      if ("None".equals(cleanPodPolicy)) {
        // Nothing to release.
      } else if (workerSet != null) {
        new WorkerScale(client, self.namespace()).dryRun(workerSet, 0);
      } else {
        client.listPods(self.namespace(), labels);
      }
      events.warmUp();
    } catch (RuntimeException e) {
      Log.info("warming up failed (the release will still be attempted): " + PodWatch.describe(e));
    }
  }

  private static void about(JobEvents events, Pod launcher) {
    events.about(
        new ObjectReferenceBuilder()
            .withApiVersion("v1")
            .withKind("Pod")
            .withName(launcher.getMetadata().getName())
            .withNamespace(launcher.getMetadata().getNamespace())
            .withUid(launcher.getMetadata().getUid())
            .build());
  }

  private void release(
      ClusterApi client, PodIdentity self, Map<String, String> labels, JobEvents events)
      throws InterruptedException {
    String outcome = "launcher pod stopped";
    try {
      Pod launcher = client.getPod(self.namespace(), self.name());
      if (launcher != null) {
        about(events, launcher);
        ContainerStateTerminated ended = Pods.terminated(launcher, container);
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
        new WorkerCleanup(client, self.namespace(), self.name())
            .apply(cleanPodPolicy, workerSet, labels, termination);
    events.record(
        r.ok() ? JobEvents.NORMAL : JobEvents.WARNING, r.reason(), outcome + "; " + r.message());
  }
}
