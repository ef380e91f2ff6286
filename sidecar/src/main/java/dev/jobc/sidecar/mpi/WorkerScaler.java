package dev.jobc.sidecar.mpi;

import dev.jobc.sidecar.base.Attempts;
import dev.jobc.sidecar.base.JobEvents;
import dev.jobc.sidecar.base.JobWatch;
import dev.jobc.sidecar.base.Log;
import dev.jobc.sidecar.base.PodWatch;
import dev.jobc.sidecar.base.Termination;
import dev.jobc.sidecar.base.WorkerCleanup;
import dev.jobc.sidecar.base.WorkerScale;
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
 *   <li>running (not suspended, not finished) with the StatefulSet at 0, at its first look or once
 *       the Job has been suspended and resumed: scaled up to the job's workers, whatever it saw
 *       before, so that a release that landed late (a retry through an API outage) is undone at the
 *       next look;
 *   <li>finished ({@code Complete}, {@code SuccessCriteriaMet}, {@code Failed}, {@code
 *       FailureTarget}) or deleted: {@code cleanPodPolicy} is applied and the command exits 0, so
 *       its Job completes and holds nothing.
 * </ul>
 *
 * <p>It is level-triggered, as a controller: it acts on the Job's and the StatefulSet's state at
 * each look, at every change of the Job and at least every {@link #RESYNC} (client-go's informer
 * resync, tools/cache/shared_informer.go), since a change of the StatefulSet alone sends it no
 * event. The launcher's own sidecar does the same from inside its pod, sooner; each change is
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

  /** How often the scaler looks again without a change of the Job. */
  static final java.time.Duration RESYNC = java.time.Duration.ofSeconds(30);

  private final ClusterApi client;
  private final Settings s;
  private final java.time.Duration resync;
  private final Termination termination;
  private final WorkerScale scale;
  private final WorkerCleanup cleanup;
  private final JobEvents events;
  private final Object changes = new Object();
  private boolean changed; // guarded by changes
  private volatile boolean listed;
  private boolean seen;
  private boolean suspended;
  private boolean looked;

  WorkerScaler(ClusterApi client, Settings settings, Termination termination) {
    this(client, settings, termination, RESYNC);
  }

  WorkerScaler(
      ClusterApi client, Settings settings, Termination termination, java.time.Duration resync) {
    this.resync = resync;
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
          if (!changed && !termination.stopRequested()) {
            changes.wait(resync.toMillis());
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
      // Running: at the first look, and at every look once the Job has been suspended (its
      // Suspended condition, which the Job controller keeps with status False and reason
      // JobResumed on resumption: kubernetes/kubernetes pkg/controller/job/job_controller.go),
      // workers at 0 come back, however they got there. A Job never suspended is not scaled up
      // later: its launcher's sidecar releases the workers as the launcher ends, before the Job's
      // Complete condition.
      if (s.workerSet() != null
          && s.workerReplicas() > 0
          && (!looked || suspended || resumed(job))) {
        resume();
      }
      looked = true;
      suspended = false;
      return false;
    }
    if (outcome.kind() == JobOutcome.Kind.SUSPENDED) {
      // Suspended: released, again if they came back (a StatefulSet found at 0 is left alone);
      // bare worker pods once per suspension.
      if (!suspended || s.workerSet() != null) {
        suspended = true;
        release(outcome);
      }
      return false;
    }
    release(outcome);
    return true;
  }

  /** Whether the Job has been suspended at some time: it has a {@code Suspended} condition. */
  static boolean resumed(Job job) {
    if (job.getStatus() == null || job.getStatus().getConditions() == null) {
      return false;
    }
    return job.getStatus().getConditions().stream().anyMatch(c -> "Suspended".equals(c.getType()));
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
                // Read again before each attempt: suspended or finished meanwhile, no scale-up.
                Job now = client.getJob(s.namespace(), s.launcherJob());
                if (now == null || JobOutcome.ofJob(now) != null) {
                  return false;
                }
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
            ? cleanup.suspend(s.launcherJob(), s.workerSet(), s.workerLabels(), termination)
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
