package dev.jobc.sidecar.mpi;

import dev.jobc.conventions.DiscoverHosts;
import dev.jobc.conventions.JobSetNames;
import dev.jobc.conventions.MpiEra;
import dev.jobc.conventions.MpiLabels;
import dev.jobc.sidecar.base.Log;
import dev.jobc.sidecar.base.PodWatch;
import dev.jobc.sidecar.base.Pods;
import dev.jobc.sidecar.base.Termination;
import dev.jobc.sidecar.client.ClusterApi;
import io.fabric8.kubernetes.api.model.Pod;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;

/**
 * The {@code hosts} sidecar beside an elastic MPIJob's launcher in the JobSet target. The JobSet
 * controller creates the launcher once the initial workers are Ready and deletes the workers when
 * the JobSet ends, so this sidecar only keeps {@code discover_hosts.sh} live (elastic Horovod
 * re-reads it): it watches the worker Job's pods by the labels the JobSet and Job controllers give
 * them ({@code jobset.sigs.k8s.io/jobset-name}, {@code replicatedjob-name: worker}) and lists the
 * Ready ones by their completion index, as the host names {@code <job>-worker-0-<index>} the JobSet
 * gives them. It changes nothing in the cluster.
 */
final class JobSetHostsSidecar {
  /** Everything {@code hosts} is told on its command line. */
  record Settings(
      String namespace,
      String job,
      MpiEra era,
      int slots,
      String clusterDomain,
      String launcherHost,
      int readyWorkers,
      int maxWorkers,
      Path configDir,
      Path outputDir,
      Path readyFile) {}

  private final ClusterApi api;
  private final Settings s;
  private final Termination termination;
  private final LiveHosts hosts;

  JobSetHostsSidecar(ClusterApi api, Settings settings, Termination termination) {
    this.api = api;
    this.s = settings;
    this.termination = termination;
    this.hosts =
        new LiveHosts(
            s.configDir(),
            s.outputDir(),
            s.readyFile(),
            s.launcherHost(),
            s.readyWorkers(),
            termination,
            ready ->
                Log.info(
                    ready
                        + " worker(s) Ready ("
                        + s.readyWorkers()
                        + " needed): the launcher starts"));
  }

  /** The worker pods' labels: the JobSet's name and the replicated Job's. */
  static Map<String, String> workerSelector(String job) {
    return Map.of(JobSetNames.JOBSET_NAME, job, JobSetNames.REPLICATED_JOB_NAME, MpiLabels.WORKER);
  }

  /** Runs until a stop is requested (SIGTERM) or a file cannot be written; the exit code. */
  int run() throws IOException, InterruptedException {
    hosts.seed();
    PodWatch watch = new PodWatch(api, s.namespace(), workerSelector(s.job()), this::onPods);
    try {
      termination.awaitStop();
    } finally {
      watch.close();
    }
    // Nothing to release: the JobSet controller ends the workers.
    return hosts.writeFailed() != null ? 1 : 0;
  }

  /** Reacts to the worker pods as they are now. */
  synchronized void onPods(Map<String, Pod> pods) {
    Map<Integer, Pod> ready = new TreeMap<>();
    for (Pod p : pods.values()) {
      int index = completionIndex(p);
      // Workers at or past jobc.dev/max-replicas are not listed, as in the plain target.
      boolean granted = s.maxWorkers() <= 0 || index < s.maxWorkers();
      if (index >= 0 && granted && Pods.ready(p)) {
        ready.put(index, p);
      }
    }
    hosts.update(
        ready.keySet(),
        index ->
            DiscoverHosts.jobSetEntry(
                s.era(), s.job(), s.namespace(), s.clusterDomain(), index, s.slots()));
  }

  /**
   * The pod's completion index from the label the Job controller sets on an Indexed Job's pods, or
   * -1 when it has none or it is not a small non-negative number.
   */
  static int completionIndex(Pod p) {
    Map<String, String> labels = p.getMetadata().getLabels();
    String value = labels == null ? null : labels.get(JobSetNames.COMPLETION_INDEX);
    if (value == null || value.isEmpty() || value.length() > 9) {
      return -1;
    }
    for (int i = 0; i < value.length(); i++) {
      if (value.charAt(i) < '0' || value.charAt(i) > '9') {
        return -1;
      }
    }
    return Integer.parseInt(value);
  }
}
