package dev.jobc.mpi;

import dev.jobc.conventions.Naming;
import dev.jobc.k8s.ApiLimits;
import dev.jobc.k8s.OutputSize;
import dev.jobc.options.OptionTable;
import dev.jobc.options.WorkerKind;

/**
 * How large an MPIJob's objects are, before it is planned: the launcher Job, the workers (one
 * StatefulSet, or a Pod per worker, each a copy of the Worker template), the ConfigMap's line per
 * worker and the Role's name per worker ({@link MpiJobValidator#configMapBytes}).
 */
final class MpiOutputSize {
  private MpiOutputSize() {}

  static OutputSize.Estimate estimate(MpiJobModel job) {
    long workers = job.workerReplicas();
    long launcher = OutputSize.template(job.launcher() == null ? null : job.launcher().template());
    long worker = OutputSize.template(job.worker() == null ? null : job.worker().template());
    boolean pods = job.options().get(OptionTable.WORKERS) == WorkerKind.PODS;
    long each = OutputSize.plus(worker, OutputSize.OBJECT_OVERHEAD);
    long workerObjects = pods ? OutputSize.times(workers, each) : each;
    long names =
        OutputSize.times(
            job.maxWorkers(), Naming.workerPod(job.name(), Math.max(job.maxWorkers(), 1)).length());
    long chars =
        OutputSize.plus(
            OutputSize.plus(launcher, 6 * OutputSize.OBJECT_OVERHEAD),
            OutputSize.plus(
                workerObjects, OutputSize.plus(MpiJobValidator.configMapBytes(job), names)));
    return new OutputSize.Estimate(
        chars,
        job.paths().workerCount(),
        pods
            ? workers + " worker pods of about " + ApiLimits.kib(each) + " each"
            : workers + " workers");
  }
}
