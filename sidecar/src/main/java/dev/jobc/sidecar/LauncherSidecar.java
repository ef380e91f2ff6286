package dev.jobc.sidecar;

import dev.jobc.conventions.DiscoverHosts;
import dev.jobc.conventions.MpiEra;
import dev.jobc.conventions.MpiLabels;
import dev.jobc.conventions.Naming;
import io.fabric8.kubernetes.api.model.ContainerStateTerminated;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The {@code run} sidecar beside an MPI launcher. It copies {@code hostfile} and {@code kubexec.sh}
 * from the ConfigMap into the writable directory the launcher sees as {@code /etc/mpi}, then
 * follows the job's pods through one {@link PodWatch}:
 *
 * <ul>
 *   <li>{@code discover_hosts.sh} is rewritten atomically whenever the set of Ready workers changes
 *       (mpi-operator rewrote it in the ConfigMap from Running pods on every sync, and kubelet
 *       delivered it up to a minute later), in {@link DiscoverHosts}' format, the compiler's;
 *   <li>once {@code readyWorkers} workers are Ready, the ready file is created: the container's
 *       startup probe tests for it, and kubelet starts the launcher's main container only then
 *       (mpi-operator v1's kubectl-delivery and v2beta1's {@code WaitForWorkersReady});
 *   <li>when the launcher's main container has ended for good, {@code cleanPodPolicy} is applied
 *       and reported as an Event on the launcher Job.
 * </ul>
 */
final class LauncherSidecar {
  /** Everything {@code run} is told on its command line. */
  record Settings(
      String namespace,
      String pod,
      String job,
      MpiEra era,
      int slots,
      String clusterDomain,
      String launcherHost,
      int readyWorkers,
      String workerSet,
      String cleanPodPolicy,
      boolean cleanOnFailure,
      String launcherContainer,
      Path configDir,
      Path outputDir,
      Path readyFile) {}

  static final String DISCOVER_HOSTS = "discover_hosts.sh";

  private final KubernetesClient client;
  private final Settings s;
  private final JobEvents events;
  private final WorkerCleanup cleanup;
  private final Termination termination;
  private final Map<String, String> workerLabels;
  private String written;
  private boolean gateOpen;
  private boolean cleaned;
  private int reportedRestarts = -1;

  LauncherSidecar(KubernetesClient client, Settings settings, Termination termination) {
    this.client = client;
    this.s = settings;
    this.termination = termination;
    this.events = new JobEvents(client, s.namespace(), Naming.launcher(s.job()), s.pod());
    this.cleanup = new WorkerCleanup(client, s.namespace());
    this.workerLabels = MpiLabels.roleSelector(s.era(), s.job(), MpiLabels.WORKER);
  }

  /** Runs until a stop is requested (SIGTERM); returns the exit code. */
  int run() throws IOException, InterruptedException {
    seed();
    PodWatch watch =
        new PodWatch(client, s.namespace(), MpiLabels.jobSelector(s.era(), s.job()), this::onPods);
    try {
      termination.awaitStop();
      // Before closing the watch: closing interrupts its event thread, which may be in the middle
      // of a clean-up (kubelet sends SIGTERM right after the launcher has ended); finish() waits
      // for that to complete.
      finish();
    } finally {
      watch.close();
    }
    return 0;
  }

  /** Copies the ConfigMap's hostfile and kubexec.sh (when mounted) into the output directory. */
  void seed() throws IOException {
    copy("hostfile", AtomicFile.READ_ONLY);
    copy("kubexec.sh", AtomicFile.EXECUTABLE);
  }

  private void copy(String name, java.util.Set<java.nio.file.attribute.PosixFilePermission> mode)
      throws IOException {
    if (s.configDir() == null) {
      return;
    }
    Path from = s.configDir().resolve(name);
    if (Files.isRegularFile(from)) {
      AtomicFile.write(s.outputDir().resolve(name), Files.readString(from), mode);
    } else {
      Log.info("no " + from + " to copy");
    }
  }

  /** Reacts to the job's pods as they are now. */
  synchronized void onPods(Map<String, Pod> pods) {
    Map<Integer, Pod> ready = new TreeMap<>();
    for (Pod p : pods.values()) {
      int index = Naming.workerIndex(s.job(), p.getMetadata().getName());
      if (index >= 0 && isWorker(p) && Pods.ready(p)) {
        ready.put(index, p);
      }
    }
    List<String> entries = new ArrayList<>(ready.size() + 1);
    if (s.launcherHost() != null) {
      // mpi-operator v2beta1 lists a launcher that runs ranks first, without checking it.
      entries.add(s.launcherHost());
    }
    for (int index : ready.keySet()) {
      entries.add(
          DiscoverHosts.entry(
              s.era(), s.job(), s.namespace(), s.clusterDomain(), index, s.slots()));
    }
    String script = DiscoverHosts.script(entries);
    if (!script.equals(written)) {
      try {
        AtomicFile.write(s.outputDir().resolve(DISCOVER_HOSTS), script, AtomicFile.EXECUTABLE);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      written = script;
      Log.info(DISCOVER_HOSTS + ": " + entries.size() + " Ready worker(s) " + ready.keySet());
    }
    if (!gateOpen && ready.size() >= s.readyWorkers()) {
      openGate(ready.size());
    }
    Pod self = pods.get(s.pod());
    if (self != null) {
      events.owner(self);
      checkLauncher(self);
    }
  }

  private boolean isWorker(Pod p) {
    Map<String, String> labels = p.getMetadata().getLabels();
    return labels != null && labels.entrySet().containsAll(workerLabels.entrySet());
  }

  private void openGate(int ready) {
    try {
      AtomicFile.write(s.readyFile(), "ready\n", AtomicFile.READ_ONLY);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    gateOpen = true;
    events.record(
        JobEvents.NORMAL,
        "WorkersReady",
        ready + " worker(s) Ready (" + s.readyWorkers() + " needed): the launcher starts");
  }

  /** Applies the clean-up once the launcher's main container has ended for good. */
  private void checkLauncher(Pod self) {
    if (cleaned) {
      return;
    }
    ContainerStatus status = Pods.container(self, s.launcherContainer());
    if (status == null || status.getState() == null) {
      return;
    }
    ContainerStateTerminated ended = status.getState().getTerminated();
    if (ended == null) {
      return;
    }
    int code = ended.getExitCode() == null ? -1 : ended.getExitCode();
    if (code != 0 && !s.cleanOnFailure()) {
      int restarts = status.getRestartCount() == null ? 0 : status.getRestartCount();
      if (restarts != reportedRestarts) {
        reportedRestarts = restarts;
        // The Job may run the launcher again (restartPolicy OnFailure, or a new pod within
        // backoffLimit); upstream cleans up only when the whole MPIJob has finished.
        Log.info("launcher exited with " + code + "; it may be retried, workers kept");
      }
      return;
    }
    cleaned = true;
    String outcome = code == 0 ? "succeeded" : "failed (exit code " + code + ")";
    try {
      WorkerCleanup.Result r =
          cleanup.apply(s.cleanPodPolicy(), s.workerSet(), workerLabels, termination);
      events.record(
          r.ok() ? JobEvents.NORMAL : JobEvents.WARNING,
          r.reason(),
          "launcher " + outcome + "; " + r.message());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * On SIGTERM: kubelet stops a native sidecar after the main containers have ended, possibly
   * before the watch has delivered the launcher's final status, so read it once more. Synchronized
   * with {@link #onPods}, so a clean-up the watch has started completes first.
   */
  synchronized void finish() {
    if (cleaned) {
      return;
    }
    try {
      Pod self = client.pods().inNamespace(s.namespace()).withName(s.pod()).get();
      if (self != null) {
        events.owner(self);
        checkLauncher(self);
      }
    } catch (RuntimeException e) {
      Log.info("could not read the launcher pod at exit: " + PodWatch.describe(e));
    }
  }

  /** Whether the gate is open (tests). */
  synchronized boolean gateOpen() {
    return gateOpen;
  }
}
