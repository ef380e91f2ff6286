package dev.jobc.sidecar.mpi;

import dev.jobc.conventions.DiscoverHosts;
import dev.jobc.sidecar.base.AtomicFile;
import dev.jobc.sidecar.base.Log;
import dev.jobc.sidecar.base.PodWatch;
import dev.jobc.sidecar.base.Termination;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.function.IntConsumer;
import java.util.function.IntFunction;

/**
 * The files an MPI launcher reads from {@code /etc/mpi} while a sidecar keeps them: {@code
 * hostfile} and {@code kubexec.sh} copied once from the ConfigMap, {@code discover_hosts.sh}
 * rewritten atomically whenever the Ready workers change (mpi-operator rewrote it in the ConfigMap
 * on every sync, and kubelet delivered it up to a minute later), and the ready file the sidecar's
 * startup probe tests for, created once enough workers are Ready. Shared by {@code run} (the plain
 * target) and {@code hosts} (an elastic job in the JobSet target), so both write the same bytes.
 */
final class LiveHosts {
  static final String DISCOVER_HOSTS = "discover_hosts.sh";

  private final Path configDir;
  private final Path outputDir;
  private final Path readyFile;
  private final String launcherHost;
  private final int readyWorkers;
  private final Termination termination;
  private final IntConsumer gateOpened;
  private String written;
  private boolean gateOpen;

  /**
   * Set when a file the launcher reads cannot be written: the sidecar then exits 1, so that the
   * kubelet restarts it and the pod shows why, instead of the launcher waiting for ever.
   */
  private volatile IOException writeFailed;

  /**
   * @param configDir where the ConfigMap is mounted, or {@code null} for nothing to copy
   * @param launcherHost echoed first, always, when not {@code null} (a launcher that runs ranks)
   * @param readyWorkers how many Ready workers open the gate
   * @param gateOpened told how many workers were Ready when the gate opened
   */
  LiveHosts(
      Path configDir,
      Path outputDir,
      Path readyFile,
      String launcherHost,
      int readyWorkers,
      Termination termination,
      IntConsumer gateOpened) {
    this.configDir = configDir;
    this.outputDir = outputDir;
    this.readyFile = readyFile;
    this.launcherHost = launcherHost;
    this.readyWorkers = readyWorkers;
    this.termination = termination;
    this.gateOpened = gateOpened;
    // The ready file lives in the pod's emptyDir: after a restart of this container (kubelet
    // restarts a native sidecar that exited) the gate stays open and is not reported again.
    this.gateOpen = Files.exists(readyFile);
  }

  /** Copies the ConfigMap's hostfile and kubexec.sh (when mounted) into the output directory. */
  void seed() throws IOException {
    copy("hostfile", AtomicFile.READ_ONLY);
    copy("kubexec.sh", AtomicFile.EXECUTABLE);
  }

  private void copy(String name, Set<PosixFilePermission> mode) throws IOException {
    if (configDir == null) {
      return;
    }
    Path from = configDir.resolve(name);
    if (Files.isRegularFile(from)) {
      AtomicFile.write(outputDir.resolve(name), Files.readString(from), mode);
    } else {
      Log.info("no " + from + " to copy");
    }
  }

  /**
   * Rewrites {@code discover_hosts.sh} for the Ready workers {@code indexes}, in their order, each
   * echoing {@code entry} of its index, when it changes; opens the gate once there are enough.
   */
  void update(Collection<Integer> indexes, IntFunction<String> entry) {
    List<String> lines = new ArrayList<>(indexes.size() + 1);
    if (launcherHost != null) {
      // mpi-operator v2beta1 lists a launcher that runs ranks first, without checking it.
      lines.add(launcherHost);
    }
    for (int index : indexes) {
      lines.add(entry.apply(index));
    }
    String script = DiscoverHosts.script(lines);
    if (!script.equals(written)) {
      try {
        AtomicFile.write(outputDir.resolve(DISCOVER_HOSTS), script, AtomicFile.EXECUTABLE);
      } catch (IOException e) {
        failWrite(outputDir.resolve(DISCOVER_HOSTS), e);
        return;
      }
      written = script;
      Log.info(DISCOVER_HOSTS + ": " + lines.size() + " Ready worker(s) " + indexes);
    }
    if (!gateOpen && indexes.size() >= readyWorkers) {
      try {
        AtomicFile.write(readyFile, "ready\n", AtomicFile.READ_ONLY);
      } catch (IOException e) {
        failWrite(readyFile, e);
        return;
      }
      gateOpen = true;
      gateOpened.accept(indexes.size());
    }
  }

  /** The first write that failed, or {@code null}. */
  IOException writeFailed() {
    return writeFailed;
  }

  /** Says on one line which file could not be written and why, and stops the sidecar with 1. */
  private void failWrite(Path file, IOException e) {
    if (writeFailed == null) {
      writeFailed = e;
      Log.info(
          "error: cannot write "
              + file
              + ": "
              + PodWatch.describe(e)
              + "; exiting so that the kubelet restarts this container");
      termination.requestStop();
    }
  }
}
