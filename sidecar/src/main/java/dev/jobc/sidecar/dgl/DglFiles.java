package dev.jobc.sidecar.dgl;

import dev.jobc.conventions.DglNaming;
import dev.jobc.conventions.Naming;
import dev.jobc.sidecar.base.AtomicFile;
import dev.jobc.sidecar.base.Pods;
import io.fabric8.kubernetes.api.model.Pod;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Collection;
import java.util.Map;
import java.util.TreeMap;

/**
 * DGL's IP-based {@code hostfile}, {@code partfile} and {@code leadfile}, in dgl-operator's line
 * formats ({@code <ip> <port> <name>[ slots=<n>]}). Unlike the operator, which numbered workers by
 * their position in a string-sorted list (so {@code worker-10} became {@code worker-2}), each line
 * carries the pod's own index and lines are in numeric index order.
 */
final class DglFiles {
  private DglFiles() {}

  /** One line per pod of {@code pods} named {@code <job>-worker-<i>}, in index order. */
  static String hostfile(String job, Collection<Pod> pods, int port, int slots) {
    Map<Integer, Pod> byIndex = new TreeMap<>();
    for (Pod p : pods) {
      int i = Naming.workerIndex(job, p.getMetadata().getName());
      if (i >= 0) {
        byIndex.put(i, p);
      }
    }
    StringBuilder out = new StringBuilder();
    byIndex.forEach(
        (i, p) ->
            out.append(Pods.ip(p))
                .append(' ')
                .append(port)
                .append(' ')
                .append(Naming.workerPod(job, i))
                .append(" slots=")
                .append(slots)
                .append('\n'));
    return out.toString();
  }

  /** The partitioner's line, or empty when there is no partitioner pod. */
  static String partfile(String job, Pod partitioner, int port) {
    return partitioner == null
        ? ""
        : Pods.ip(partitioner) + " " + port + " " + DglNaming.partitioner(job) + "\n";
  }

  static String leadfile(String job, String launcherIp, int port) {
    return launcherIp + " " + port + " " + Naming.launcher(job) + "\n";
  }

  /** Writes the three files into {@code dir}, each atomically. */
  static void write(
      Path dir,
      String job,
      Collection<Pod> workers,
      Pod partitioner,
      String launcherIp,
      int port,
      int slots)
      throws IOException {
    AtomicFile.write(
        dir.resolve(DglNaming.HOSTFILE), hostfile(job, workers, port, slots), AtomicFile.READ_ONLY);
    AtomicFile.write(
        dir.resolve(DglNaming.PARTFILE), partfile(job, partitioner, port), AtomicFile.READ_ONLY);
    AtomicFile.write(
        dir.resolve(DglNaming.LEADFILE), leadfile(job, launcherIp, port), AtomicFile.READ_ONLY);
  }
}
