package dev.jobc.sidecar.dgl;

import dev.jobc.conventions.DglNaming;
import dev.jobc.sidecar.base.Durations;
import dev.jobc.sidecar.base.Log;
import dev.jobc.sidecar.base.SidecarCommand;
import dev.jobc.sidecar.base.Termination;
import dev.jobc.sidecar.client.ClusterApi;
import io.fabric8.kubernetes.api.model.Pod;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code wait}: an init container that blocks until named pods are Ready, Running or Succeeded (or
 * one of their containers runs), then optionally writes DGL's files and starts a DGLJob's workers.
 */
@Command(
    name = "wait",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description =
        "Wait until the named pods are Ready, Running or Succeeded; optionally write DGL's files"
            + " and start the workers.")
public final class WaitCommand extends SidecarCommand {
  @Option(
      names = "--pod",
      paramLabel = "NAME",
      required = true,
      description = "A pod to wait for; repeatable, order kept.")
  List<String> pods = new ArrayList<>();

  @Option(
      names = "--for",
      paramLabel = "ready|running|succeeded",
      description =
          "ready: condition Ready=True; running: phase Running with every container started;"
              + " succeeded: phase Succeeded (default: ready).")
  String goal = "ready";

  @Option(
      names = "--container",
      paramLabel = "NAME",
      description = "With --for running: wait for this container (init or not) to run instead.")
  String container;

  @Option(
      names = "--timeout",
      paramLabel = "DURATION",
      converter = Durations.class,
      description = "Give up after this long, e.g. 90s, 10m, 1h (default: 10m).")
  Duration timeout = Duration.ofMinutes(10);

  @Option(
      names = "--selector",
      paramLabel = "KEY=VALUE[,...]",
      description =
          "Watch the pods with these labels (the job's); needed for more than one --pod, else"
              + " the one pod is watched by name.")
  String selector;

  @Option(
      names = "--dgl-files",
      paramLabel = "DIR",
      description = "Then write DIR/hostfile, DIR/partfile, DIR/leadfile (dgl-operator formats).")
  Path dglFiles;

  @Option(names = "--dgl-job", paramLabel = "NAME", description = "The DGLJob's name.")
  String dglJob;

  @Option(names = "--dgl-port", paramLabel = "N", description = "Default: 30050.")
  int dglPort = DglNaming.DGL_PORT;

  @Option(names = "--dgl-slots", paramLabel = "N", description = "Default: 1.")
  int dglSlots = 1;

  @Option(
      names = "--then-scale",
      paramLabel = "STATEFULSET=N",
      description = "After the wait, scale this StatefulSet to N (server-side apply).")
  String thenScale;

  @Option(
      names = "--then-ungate",
      paramLabel = "POD",
      description =
          "After the wait, remove the scheduling gate "
              + DglNaming.PARTITIONED_GATE
              + " from this pod; repeatable.")
  List<String> thenUngate = new ArrayList<>();

  @Option(
      names = "--then-serve",
      description = "After the wait, keep running until SIGTERM (a target for kubectl cp).")
  boolean thenServe;

  public WaitCommand(Termination termination) {
    super(termination);
  }

  public WaitCommand(Termination termination, Supplier<ClusterApi> apis, Map<String, String> env) {
    super(termination, apis, env);
  }

  @Override
  public Integer call() throws Exception {
    String ns = namespace != null ? namespace : env.get("POD_NAMESPACE");
    if (ns == null || ns.isEmpty()) {
      throw usage("no namespace: give --namespace or set POD_NAMESPACE");
    }
    PodWait.Goal g =
        switch (goal) {
          case "ready" -> PodWait.Goal.READY;
          case "running" -> PodWait.Goal.RUNNING;
          case "succeeded" -> PodWait.Goal.SUCCEEDED;
          default -> throw usage("--for must be ready, running or succeeded, not '" + goal + "'");
        };
    if (container != null && g != PodWait.Goal.RUNNING) {
      throw usage("--container needs --for running");
    }
    String scaleSet = null;
    int scaleTo = 0;
    if (thenScale != null) {
      int eq = thenScale.lastIndexOf('=');
      if (eq <= 0 || !thenScale.substring(eq + 1).matches("[0-9]{1,9}")) {
        throw usage("--then-scale must be STATEFULSET=N, not '" + thenScale + "'");
      }
      scaleSet = thenScale.substring(0, eq);
      scaleTo = Integer.parseInt(thenScale.substring(eq + 1));
    }
    String launcherIp = env.get("POD_IP");
    if (dglFiles != null) {
      if (dglJob == null) {
        throw usage("--dgl-files needs --dgl-job");
      }
      if (launcherIp == null || launcherIp.isEmpty()) {
        throw usage("--dgl-files needs POD_IP (the downward API's status.podIP) for the leadfile");
      }
      if (dglPort < 1 || dglPort > 65535 || dglSlots < 1) {
        throw usage("--dgl-port must be 1-65535 and --dgl-slots at least 1");
      }
    }
    Map<String, String> labels;
    try {
      labels = labels(selector);
    } catch (IllegalArgumentException e) {
      throw usage("--selector: " + e.getMessage());
    }
    List<String> names = List.copyOf(new LinkedHashSet<>(pods));
    if (labels.isEmpty() && names.size() > 1) {
      throw usage("--selector is needed to wait for more than one pod (the job's pods' labels)");
    }
    {
      ClusterApi client = apis.get();
      Log.info(
          "waiting up to "
              + Durations.format(timeout)
              + " for "
              + goal
              + ": "
              + String.join(", ", names));
      PodWait.Outcome o =
          PodWait.await(client, ns, labels, names, g, container, timeout, termination);
      if (!o.ok()) {
        spec.commandLine().getErr().println("jobc-sidecar wait: " + o.message());
        return 1;
      }
      Log.info("done: " + String.join(", ", names));
      if (dglFiles != null) {
        List<Pod> waited = new ArrayList<>();
        names.forEach(n -> waited.add(o.pods().get(n)));
        String partitionerName = DglNaming.partitioner(dglJob);
        Pod partitioner = o.pods().get(partitionerName);
        if (partitioner == null) {
          partitioner = client.getPod(ns, partitionerName);
        }
        DglFiles.write(dglFiles, dglJob, waited, partitioner, launcherIp, dglPort, dglSlots);
        Log.info("wrote hostfile, partfile, leadfile in " + dglFiles);
      }
      if (scaleSet != null || !thenUngate.isEmpty()) {
        String failure =
            new WorkerStart(client, ns)
                .start(
                    scaleSet, scaleTo, List.copyOf(new LinkedHashSet<>(thenUngate)), termination);
        if (failure != null) {
          spec.commandLine().getErr().println("jobc-sidecar wait: " + failure);
          return 1;
        }
      }
    }
    if (thenServe) {
      Log.info("serving until SIGTERM");
      termination.awaitStop();
    }
    return 0;
  }
}
