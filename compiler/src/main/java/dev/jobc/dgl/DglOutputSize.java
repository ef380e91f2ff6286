package dev.jobc.dgl;

import dev.jobc.conventions.DglNaming;
import dev.jobc.conventions.Naming;
import dev.jobc.k8s.ApiLimits;
import dev.jobc.k8s.OutputSize;
import dev.jobc.options.OptionTable;
import dev.jobc.options.WorkerKind;

/**
 * How large a DGLJob's objects are, before it is planned: the launcher and partitioner, the workers
 * (one StatefulSet, or a Pod per worker, each a copy of the Worker template), and the ConfigMap's
 * hostfile line per worker ({@link #configMapBytes}).
 */
final class DglOutputSize {
  /** The ConfigMap's fixed part: kubexec.sh, partfile, leadfile. */
  private static final long FIXED = 4096;

  private DglOutputSize() {}

  /**
   * About the size of the ConfigMap's data: a hostfile line per worker ({@code <host> 30050 <pod>
   * slots=<n>}, the last worker's the longest); 0 without workers, a name or a namespace.
   */
  static long configMapBytes(DglJobModel job) {
    long workers =
        job.mode().map(PartitionMode::hasWorkers).orElse(false) ? job.workerReplicas() : 0;
    if (workers <= 0 || job.name() == null || job.namespace() == null) {
      return 0;
    }
    String pod = Naming.workerPod(job.name(), (int) Math.min(workers - 1, Integer.MAX_VALUE));
    long host =
        Naming.fqdn(
                pod,
                Naming.service(job.name()),
                job.namespace(),
                job.options().get(OptionTable.CLUSTER_DOMAIN))
            .length();
    int slots = job.slotsPerWorker() == null ? 1 : job.slotsPerWorker();
    long line =
        host
            + 1
            + Integer.toString(DglNaming.DGL_PORT).length()
            + 1
            + pod.length()
            + 7
            + Integer.toString(slots).length()
            + 1;
    return OutputSize.plus(OutputSize.times(workers, line), FIXED);
  }

  static OutputSize.Estimate estimate(DglJobModel job) {
    long workers =
        job.mode().map(PartitionMode::hasWorkers).orElse(false) ? job.workerReplicas() : 0;
    long launcher = OutputSize.template(job.launcher() == null ? null : job.launcher().template());
    long worker = OutputSize.template(job.worker() == null ? null : job.worker().template());
    boolean pods = job.options().get(OptionTable.WORKERS) == WorkerKind.PODS;
    long each = OutputSize.plus(worker, OutputSize.OBJECT_OVERHEAD);
    long workerObjects = pods ? OutputSize.times(workers, each) : each;
    long names =
        job.name() == null
            ? 0
            : OutputSize.times(workers, Naming.workerPod(job.name(), 0).length() + 8);
    long chars =
        OutputSize.plus(
            OutputSize.plus(launcher + worker, 8 * OutputSize.OBJECT_OVERHEAD),
            OutputSize.plus(workerObjects, OutputSize.plus(configMapBytes(job), names)));
    return new OutputSize.Estimate(
        chars,
        DglJobValidator.REPLICA_SPECS.key(DglJob.WORKER).child("replicas"),
        pods
            ? workers + " worker pods of about " + ApiLimits.kib(each) + " each"
            : workers + " workers");
  }
}
