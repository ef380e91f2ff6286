package dev.jobc.sidecar;

import dev.jobc.sidecar.client.ClusterApi;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import java.util.Map;

/**
 * The {@code scale-workers} Job beside an MPIJob's launcher Job: keeps the workers in step with the
 * launcher Job from outside the launcher pod, so that every end and every suspension releases them
 * even when no launcher pod runs its sidecar: one that is Pending, still pulling its images,
 * between two retries, evicted with its sidecar, force-deleted, or whose sidecar could not reach
 * the API within the pod's grace period. mpi-operator's controller did this from outside too
 * ({@code mpi_job_controller.go} syncHandler: {@code cleanUpWorkerPods} once the launcher Job has
 * finished and whenever the MPIJob is suspended, workers created again on resumption).
 *
 * <p>It follows the launcher Job through one watch (a list and a watch of that one Job by name) and
 * acts on what the Job controller has written, which needs no prediction:
 *
 * <ul>
 *   <li>suspended: every worker is released (the StatefulSet scaled to 0), whatever {@code
 *       cleanPodPolicy} says, as upstream on suspension;
 *   <li>resumed after a suspension it saw (or running when it starts) with the StatefulSet at 0:
 *       scaled up to the job's workers;
 *   <li>finished ({@code Complete}, {@code SuccessCriteriaMet}, {@code Failed}, {@code
 *       FailureTarget}) or deleted: {@code cleanPodPolicy} is applied and the command exits 0, so
 *       its Job completes and holds nothing.
 * </ul>
 *
 * <p>The launcher's own sidecar does the same from inside its pod, sooner; each change is
 * idempotent, and an Event is recorded only for a change this process made.
 */
final class WorkerScaler {
  /** Everything {@code scale-workers} is told on its command line. */
  record Settings(
      String namespace,
      String pod,
      String launcherJob,
      String workerSet,
      int workerReplicas,
      Map<String, String> workerLabels,
      String cleanPodPolicy) {}

  private final ClusterApi client;
  private final Settings s;
  private final Termination termination;
  private final WorkerScale scale;
  private final WorkerCleanup cleanup;
  private final JobEvents events;
  private final Object changes = new Object();
  private boolean changed; // guarded by changes
  private volatile boolean listed;
  private boolean seen;
  private boolean suspended;
  private boolean started;

  WorkerScaler(ClusterApi client, Settings settings, Termination termination) {
    this.client = client;
    this.s = settings;
    this.termination = termination;
    this.scale = new WorkerScale(client, s.namespace());
    this.cleanup = new WorkerCleanup(client, s.namespace(), s.pod());
    this.events = new JobEvents(client, s.namespace(), s.launcherJob(), s.pod());
  }

  /** Follows the Job until it has finished or is gone (0), or until SIGTERM (0). */
  int run() throws InterruptedException {
    JobWatch watch =
        JobWatch.named(
            client,
            s.namespace(),
            s.launcherJob(),
            jobs -> {
              listed = true;
              signal();
            });
    Thread stopWatch =
        new Thread(
            () -> {
              try {
                termination.awaitStop();
                signal();
              } catch (InterruptedException e) {
                // the command has ended
              }
            },
            "jobc-scaler-stop");
    stopWatch.setDaemon(true);
    stopWatch.start();
    try {
      Log.info(
          "following Job "
              + s.launcherJob()
              + ": the workers ("
              + (s.workerSet() != null
                  ? "StatefulSet " + s.workerSet()
                  : "pods " + s.workerLabels())
              + ") go when it is suspended or has finished");
      while (true) {
        synchronized (changes) {
          while (!changed && !termination.stopRequested()) {
            changes.wait();
          }
          changed = false;
        }
        if (termination.stopRequested()) {
          Log.info("SIGTERM: stopping (the Job's next pod follows on)");
          return 0;
        }
        if (listed && follow(watch.snapshot().get(s.launcherJob()))) {
          return 0;
        }
      }
    } finally {
      watch.close();
      stopWatch.interrupt();
    }
  }

  private void signal() {
    synchronized (changes) {
      changed = true;
      changes.notifyAll();
    }
  }

  /** Acts on the Job as it is now; true once there is nothing more to follow. */
  boolean follow(Job job) throws InterruptedException {
    if (job == null) {
      if (!seen) {
        return false; // not created yet: GitOps tools apply a batch in some order
      }
      release(new JobOutcome(JobOutcome.Kind.FAILED, "launcher Job deleted"));
      return true;
    }
    if (!seen) {
      seen = true;
      events.owner(job);
    }
    JobOutcome outcome = JobOutcome.ofJob(job);
    if (outcome == null) {
      if ((suspended || !started) && s.workerSet() != null && s.workerReplicas() > 0) {
        resume();
      }
      suspended = false;
      started = true;
      return false;
    }
    if (outcome.kind() == JobOutcome.Kind.SUSPENDED) {
      if (!suspended) {
        suspended = true;
        started = true;
        release(outcome);
      }
      return false;
    }
    release(outcome);
    return true;
  }

  /** Scales the StatefulSet from 0 to the job's workers (a StatefulSet at any other size stays). */
  private void resume() throws InterruptedException {
    try {
      boolean scaled =
          Attempts.until(
              "resuming the workers",
              WorkerCleanup.LONGEST,
              termination,
              () -> {
                if (scale.replicas(s.workerSet()) != 0) {
                  return false;
                }
                scale.scale(s.workerSet(), s.workerReplicas());
                return true;
              });
      if (scaled) {
        events.record(
            JobEvents.NORMAL,
            "WorkersResumed",
            "StatefulSet " + s.workerSet() + " scaled from 0 to " + s.workerReplicas());
      }
    } catch (RuntimeException e) {
      events.record(
          JobEvents.WARNING,
          "ResumeFailed",
          "StatefulSet " + s.workerSet() + " not scaled up: " + PodWatch.describe(e));
    }
  }

  /** Releases the workers as {@code outcome} asks, recording an Event when this changed them. */
  private void release(JobOutcome outcome) throws InterruptedException {
    if (outcome.kind() != JobOutcome.Kind.SUSPENDED && "None".equals(s.cleanPodPolicy())) {
      Log.info(outcome.description() + "; cleanPodPolicy None: the workers keep running");
      return;
    }
    if (s.workerSet() != null && alreadyReleased()) {
      Log.info(outcome.description() + "; StatefulSet " + s.workerSet() + " is at 0 already");
      return;
    }
    WorkerCleanup.Result r =
        outcome.kind() == JobOutcome.Kind.SUSPENDED
            ? cleanup.suspend(s.workerSet(), s.workerLabels(), termination)
            : cleanup.apply(s.cleanPodPolicy(), s.workerSet(), s.workerLabels(), termination);
    if (r.ok() && r.message().endsWith(": ended no pods")) {
      Log.info(outcome.description() + "; " + r.message());
      return;
    }
    events.record(
        r.ok() ? JobEvents.NORMAL : JobEvents.WARNING,
        r.reason(),
        outcome.description() + "; " + r.message());
  }

  private boolean alreadyReleased() {
    try {
      return scale.replicas(s.workerSet()) == 0;
    } catch (RuntimeException e) {
      return false; // the release itself retries
    }
  }
}
