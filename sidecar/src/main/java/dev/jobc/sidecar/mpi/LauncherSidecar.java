package dev.jobc.sidecar.mpi;

import dev.jobc.conventions.DiscoverHosts;
import dev.jobc.conventions.MpiEra;
import dev.jobc.conventions.MpiLabels;
import dev.jobc.conventions.Naming;
import dev.jobc.sidecar.base.Attempts;
import dev.jobc.sidecar.base.Durations;
import dev.jobc.sidecar.base.JobEvents;
import dev.jobc.sidecar.base.JobWatch;
import dev.jobc.sidecar.base.Log;
import dev.jobc.sidecar.base.PodWatch;
import dev.jobc.sidecar.base.Pods;
import dev.jobc.sidecar.base.Termination;
import dev.jobc.sidecar.base.WorkerCleanup;
import dev.jobc.sidecar.base.WorkerScale;
import dev.jobc.sidecar.client.ClusterApi;
import io.fabric8.kubernetes.api.model.ContainerStateTerminated;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
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
 *   <li>when the launcher Job has finished, succeeded or failed, {@code cleanPodPolicy} is applied;
 *       when it is suspended, every worker is released; both are reported as Events on the Job.
 *   <li>at start, a worker StatefulSet found at 0 replicas (rendered so while the job is suspended,
 *       or released by a suspension or an earlier end) is scaled up to {@code workerReplicas}: a
 *       launcher pod exists only while its Job runs, so this is the resumption.
 * </ul>
 *
 * <p>Design: with no operator, the only process that lives exactly as long as a run is this one, so
 * it decides when the workers go. A success is seen on the watch; every other end reaches it as
 * SIGTERM (kubelet stops native sidecars once the main container has ended; the Job controller
 * deletes the pod on suspension, {@code DeadlineExceeded} or a used-up {@code backoffLimit}). Then
 * it reads its Job and decides with {@link JobOutcome}, waiting at most {@link #SETTLE} for a
 * status the kubelet or the Job controller has not written yet. Owner references from the workers
 * to the Job were rejected: they need the Job's UID (unknown when rendering, so the sidecar would
 * have to patch the StatefulSet itself, a wider grant), act only when the Job is deleted rather
 * than when it ends, and a GitOps tool would re-create the collected workers.
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
      int workerReplicas,
      int maxWorkers,
      String launcherContainer,
      Path configDir,
      Path outputDir,
      Path readyFile) {}

  static final String DISCOVER_HOSTS = LiveHosts.DISCOVER_HOSTS;

  /**
   * How long the stop waits for the kubelet to report the main container's end or the pod's
   * deletion, or (Kubernetes before 1.31, which deletes the pods before it writes {@code Failed})
   * for the Job's final condition. Well inside {@link Termination#GRACE}, which the clean-up needs
   * too.
   */
  static final Duration SETTLE = Duration.ofSeconds(5);

  /**
   * How long the launcher waits for its initial workers before a Warning Event names those not
   * Ready; it then waits on (mpi-operator's launcher waits as long as it takes), bounded by the
   * Job's {@code activeDeadlineSeconds} (the MPIJob's {@code runPolicy.activeDeadlineSeconds}).
   */
  static final Duration NOT_READY_AFTER = Duration.ofMinutes(5);

  /** How many workers the Event names at most; it counts the rest. */
  static final int NOT_READY_NAMED = 20;

  private Duration notReadyAfter = NOT_READY_AFTER;
  private Set<Integer> readyNow = Set.of();
  private volatile boolean gateOpen;

  private final ClusterApi client;
  private final Settings s;
  private final JobEvents events;
  private final WorkerCleanup cleanup;
  private final Termination termination;
  private final WorkerScale scale;
  private final Map<String, String> workerLabels;
  private final LiveHosts hosts;
  private boolean cleaned;
  private int reportedRestarts = -1;

  LauncherSidecar(ClusterApi client, Settings settings, Termination termination) {
    this.client = client;
    this.s = settings;
    this.termination = termination;
    this.events = new JobEvents(client, s.namespace(), Naming.launcher(s.job()), s.pod());
    this.cleanup = new WorkerCleanup(client, s.namespace(), s.pod());
    this.scale = new WorkerScale(client, s.namespace());
    this.workerLabels = MpiLabels.roleSelector(s.era(), s.job(), MpiLabels.WORKER);
    this.hosts =
        new LiveHosts(
            s.configDir(),
            s.outputDir(),
            s.readyFile(),
            s.launcherHost(),
            s.readyWorkers(),
            termination,
            this::gateOpened);
  }

  /** Reports workers not Ready after {@code after} instead of {@link #NOT_READY_AFTER} (tests). */
  LauncherSidecar notReadyAfter(Duration after) {
    this.notReadyAfter = after;
    return this;
  }

  /** Runs until a stop is requested (SIGTERM) or a file cannot be written; the exit code. */
  int run() throws IOException, InterruptedException {
    seed();
    Thread notReady = new Thread(this::reportNotReady, "jobc-not-ready");
    notReady.setDaemon(true);
    notReady.start();
    PodWatch watch =
        new PodWatch(client, s.namespace(), MpiLabels.jobSelector(s.era(), s.job()), this::onPods);
    try {
      resume();
      termination.awaitStop();
      if (hosts.writeFailed() != null) {
        // Not the job's end: nothing is released; the restarted sidecar picks up from here.
        return 1;
      }
      // Before closing the watch: closing interrupts its event thread, which may be in the middle
      // of a clean-up (kubelet sends SIGTERM right after the launcher has ended); finish() waits
      // for that to complete.
      finish();
    } finally {
      watch.close();
      notReady.interrupt();
    }
    return 0;
  }

  /**
   * Once {@link #notReadyAfter} has passed with the gate still closed, a Warning Event {@code
   * WorkersNotReady} on the Job names the initial workers not Ready, so that {@code kubectl
   * describe job} says which pods to look at.
   */
  private void reportNotReady() {
    try {
      // A restarted sidecar finds the gate open from before (the ready file).
      if (termination.awaitStop(notReadyAfter)
          || gateOpen
          || java.nio.file.Files.exists(s.readyFile())) {
        return;
      }
      List<String> missing = new ArrayList<>();
      int count = 0;
      synchronized (this) {
        for (int i = 0; i < s.readyWorkers(); i++) {
          if (!readyNow.contains(i)) {
            count++;
            if (missing.size() < NOT_READY_NAMED) {
              missing.add(s.job() + Naming.WORKER_SUFFIX + "-" + i);
            }
          }
        }
      }
      if (count == 0 || gateOpen) {
        return;
      }
      events.record(
          JobEvents.WARNING,
          "WorkersNotReady",
          count
              + " of "
              + s.readyWorkers()
              + " worker(s) not Ready after "
              + Durations.format(notReadyAfter)
              + ": "
              + String.join(", ", missing)
              + (count > missing.size() ? " and " + (count - missing.size()) + " more" : "")
              + "; the launcher waits on (runPolicy.activeDeadlineSeconds bounds the job)");
    } catch (InterruptedException e) {
      // the sidecar has ended
    }
  }

  /** Copies the ConfigMap's hostfile and kubexec.sh (when mounted) into the output directory. */
  void seed() throws IOException {
    hosts.seed();
  }

  /** Reacts to the job's pods as they are now. */
  synchronized void onPods(Map<String, Pod> pods) {
    Map<Integer, Pod> ready = new TreeMap<>();
    for (Pod p : pods.values()) {
      int index = Naming.workerIndex(s.job(), p.getMetadata().getName());
      // Workers at or past the largest size the job may scale to are not listed: the Role
      // grants exec on the workers below it only.
      boolean granted = s.maxWorkers() <= 0 || index < s.maxWorkers();
      if (index >= 0 && granted && isWorker(p) && Pods.ready(p)) {
        ready.put(index, p);
      }
    }
    readyNow = Set.copyOf(ready.keySet());
    hosts.update(
        ready.keySet(),
        index ->
            DiscoverHosts.entry(
                s.era(), s.job(), s.namespace(), s.clusterDomain(), index, s.slots()));
    if (hosts.writeFailed() != null) {
      return;
    }
    Pod self = pods.get(s.pod());
    if (self != null) {
      events.owner(self);
      termination.podGracePeriod(
          self.getSpec() == null ? null : self.getSpec().getTerminationGracePeriodSeconds());
      checkLauncher(self);
    }
  }

  private boolean isWorker(Pod p) {
    Map<String, String> labels = p.getMetadata().getLabels();
    return labels != null && labels.entrySet().containsAll(workerLabels.entrySet());
  }

  private void gateOpened(int ready) {
    gateOpen = true;
    events.record(
        JobEvents.NORMAL,
        "WorkersReady",
        ready + " worker(s) Ready (" + s.readyWorkers() + " needed): the launcher starts");
  }

  /**
   * Scales the worker StatefulSet up to {@code workerReplicas} when it is at 0 and the Job is not
   * suspended; again after an API error, until done or stopped. A StatefulSet already scaled (by
   * hand, or elastically beyond its initial size) is left as it is.
   */
  void resume() throws InterruptedException {
    if (s.workerSet() == null || s.workerReplicas() <= 0) {
      return;
    }
    Duration backoff = Attempts.FIRST_PAUSE;
    while (!termination.stopRequested()) {
      try {
        Job job = readJob();
        if (job != null
            && job.getSpec() != null
            && Boolean.TRUE.equals(job.getSpec().getSuspend())) {
          Log.info("launcher Job suspended: workers not scaled up");
          return;
        }
        if (scale.replicas(s.workerSet()) == 0) {
          scale.scale(s.workerSet(), s.workerReplicas());
          events.record(
              JobEvents.NORMAL,
              "WorkersResumed",
              "StatefulSet " + s.workerSet() + " scaled from 0 to " + s.workerReplicas());
        }
        return;
      } catch (RuntimeException e) {
        Log.info("scale-up of the workers failed, will retry: " + PodWatch.describe(e));
        if (termination.awaitStop(backoff)) {
          return;
        }
        backoff =
            backoff.multipliedBy(2).compareTo(Attempts.LONGEST_PAUSE) > 0
                ? Attempts.LONGEST_PAUSE
                : backoff.multipliedBy(2);
      }
    }
  }

  /** On the watch: a launcher that exited 0 has finished the Job (one completion). */
  private void checkLauncher(Pod self) {
    if (cleaned) {
      return;
    }
    ContainerStateTerminated ended = Pods.terminated(self, s.launcherContainer());
    if (ended == null) {
      return;
    }
    int code = ended.getExitCode() == null ? -1 : ended.getExitCode();
    if (code == 0) {
      conclude(new JobOutcome(JobOutcome.Kind.SUCCEEDED, "launcher succeeded"));
      return;
    }
    ContainerStatus status = Pods.container(self, s.launcherContainer());
    int restarts = status.getRestartCount() == null ? 0 : status.getRestartCount();
    if (restarts != reportedRestarts) {
      reportedRestarts = restarts;
      // Whether the Job runs the launcher again is decided when this pod stops (finish).
      Log.info("launcher exited with " + code + "; the workers' fate is decided at the stop");
    }
  }

  /** Applies what {@code outcome} asks for, once. */
  private void conclude(JobOutcome outcome) {
    if (!outcome.decided()) {
      events.record(
          JobEvents.NORMAL,
          "WorkersKept",
          outcome.description() + "; the workers are kept for the Job's next launcher");
      return;
    }
    cleaned = true;
    try {
      WorkerCleanup.Result r =
          outcome.kind() == JobOutcome.Kind.SUSPENDED
              ? cleanup.suspend(Naming.launcher(s.job()), s.workerSet(), workerLabels, termination)
              : cleanup.apply(s.cleanPodPolicy(), s.workerSet(), workerLabels, termination);
      events.record(
          r.ok() ? JobEvents.NORMAL : JobEvents.WARNING,
          r.reason(),
          outcome.description() + "; " + r.message());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * On SIGTERM: read the launcher pod and its Job once more and decide (see {@link JobOutcome}).
   * kubelet stops a native sidecar right after the main container has ended, possibly before the
   * watch has delivered that, or before its own status report has reached the API; so an undecided
   * outcome waits up to {@link #SETTLE} for the pod's end or deletion and the Job's condition.
   * Synchronized with {@link #onPods}, so a clean-up the watch has started completes first.
   */
  synchronized void finish() {
    if (cleaned) {
      return;
    }
    Pod self = null;
    boolean podGone = false;
    Job job = null;
    boolean jobGone = false;
    try {
      // Through an API outage, again until the pod's grace period (less a margin) runs out: the
      // workers' fate cannot be decided without these two reads.
      Exit read =
          Attempts.until(
              "reading the launcher pod and Job at exit",
              WorkerCleanup.LONGEST,
              termination,
              () -> new Exit(client.getPod(s.namespace(), s.pod()), readJob()));
      self = read.pod();
      podGone = self == null;
      job = read.job();
      jobGone = job == null;
      if (self != null) {
        events.owner(self);
        termination.podGracePeriod(
            self.getSpec() == null ? null : self.getSpec().getTerminationGracePeriodSeconds());
      }
    } catch (RuntimeException e) {
      Log.info("could not read the launcher pod and Job at exit: " + PodWatch.describe(e));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    JobOutcome outcome = JobOutcome.of(job, jobGone, self, podGone, s.launcherContainer());
    if (!outcome.decided()) {
      outcome = settle(self, podGone, job, outcome);
    }
    conclude(outcome);
  }

  /**
   * Waits up to {@link #SETTLE} for the launcher's end or deletion, and its Job's verdict, to be
   * written.
   */
  private JobOutcome settle(Pod self, boolean podGone, Job job, JobOutcome outcome) {
    long end = System.nanoTime() + SETTLE.toNanos();
    try {
      if (!podGone && !ending(self)) {
        // Running as far as the API knows: kubelet's report of its end may still be on the way.
        self =
            PodWatch.await(
                client, s.namespace(), s.pod(), p -> p == null || ending(p), remaining(end));
        podGone = self == null;
        job = readJob();
        outcome = JobOutcome.of(job, job == null, self, podGone, s.launcherContainer());
      }
      if (!outcome.decided() && job != null) {
        Pod ended = self;
        boolean gone = podGone;
        job =
            JobWatch.await(
                client,
                s.namespace(),
                Naming.launcher(s.job()),
                j -> JobOutcome.of(j, false, ended, gone, s.launcherContainer()).decided(),
                remaining(end));
        outcome = JobOutcome.of(job, false, self, podGone, s.launcherContainer());
      }
    } catch (RuntimeException e) {
      Log.info("nothing more within " + SETTLE.toSeconds() + " s: " + PodWatch.describe(e));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return outcome;
  }

  /** Whether the pod is being deleted, or its main container has ended. */
  private boolean ending(Pod p) {
    return p != null
        && (p.getMetadata().getDeletionTimestamp() != null
            || Pods.terminated(p, s.launcherContainer()) != null);
  }

  private static long remaining(long end) {
    return Math.max(1, end - System.nanoTime());
  }

  /** The launcher pod and Job as read at SIGTERM, each {@code null} when it does not exist. */
  private record Exit(Pod pod, Job job) {}

  /** The launcher Job, or {@code null} when it does not exist. */
  private Job readJob() {
    Job job = client.getJob(s.namespace(), Naming.launcher(s.job()));
    if (job != null) {
      events.owner(job);
    }
    return job;
  }
}
