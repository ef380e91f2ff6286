package dev.jobc.sidecar.replicas;

import dev.jobc.sidecar.base.JobEvents;
import dev.jobc.sidecar.base.JobWatch;
import dev.jobc.sidecar.base.Log;
import dev.jobc.sidecar.base.PodWatch;
import dev.jobc.sidecar.base.Pods;
import dev.jobc.sidecar.base.Termination;
import dev.jobc.sidecar.client.ClusterApi;
import dev.jobc.sidecar.replicas.OutcomeRules.Action;
import dev.jobc.sidecar.replicas.OutcomeRules.Carrier;
import dev.jobc.sidecar.replicas.OutcomeRules.Verdict;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectReferenceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The sidecar beside each replica that decides a job of training-operator's family: a TFJob's Chief
 * or Master, else Worker 0, with {@code successPolicy: AllWorkers} every Worker; a PyTorchJob's,
 * XGBoostJob's or PaddleJob's Master; else every Worker. With no operator, it does what the kind's
 * {@code UpdateJobStatus} and {@code CleanUpResources} did: it follows the job's pods and, when its
 * Role lets it, the replicas' Jobs, decides the outcome by the {@link OutcomeRules}, records it as
 * the operator's Event on this replica's Job (or Pod), and ends what still runs ({@link
 * ReplicaStop}) without deleting anything jobc rendered, so that a GitOps tool's re-apply neither
 * brings a replica back nor starts one again.
 *
 * <p>The first deciding replica watches the whole job; every other one its own replica's pods (and
 * Job) alone, so that the watch events per job grow linearly with the deciding replicas, not with
 * their square. Such a sidecar decides its own failure as it goes, and reads the whole job once
 * when it has decided and at its end.
 *
 * <p>A decision is seen on the watches. Every other end of this pod reaches the sidecar as SIGTERM:
 * its main container has ended (kubelet then stops native sidecars), its Job was suspended, failed
 * or hit its deadline (the Job controller deletes the pod). Then it reads the pods and Jobs again
 * and, while this replica's end is not known yet, waits up to {@link #SETTLE} for it: the kubelet's
 * report of the main container can arrive after the SIGTERM.
 */
final class OutcomeSidecar {
  /**
   * Everything the sidecar is told.
   *
   * @param self this replica's name
   * @param selector what selects the whole job's pods (and Jobs)
   * @param watched what the watches select: the whole job, or this replica alone
   */
  record Settings(
      String namespace,
      String pod,
      String self,
      Map<String, String> selector,
      Map<String, String> watched,
      OutcomeRules rules) {

    /** Whether the watches follow the whole job, not this replica's own pods and Job alone. */
    boolean watchesAll() {
      return watched.equals(selector);
    }

    /** Whether the replicas' Jobs are followed (the Role grants it), not their pods alone. */
    boolean followsJobs() {
      return rules.carrier() == Carrier.JOB && rules.readsJobs();
    }
  }

  static final String STOPPED = "ReplicasStopped";
  static final String STOP_FAILED = "StopFailed";

  /** How long the stop waits for this replica's end; well inside {@link Termination#GRACE}. */
  static final Duration SETTLE = Duration.ofSeconds(5);

  private final ClusterApi client;
  private final Settings s;
  private final Termination termination;
  private final JobEvents events;
  private Runnable observer = () -> {};
  private Map<String, Pod> pods = Map.of();
  private Map<String, Job> jobs = Map.of();
  private Map<String, Pod> otherPods = Map.of();
  private Map<String, Job> otherJobs = Map.of();
  private boolean podsListed;
  private boolean jobsListed;
  private Map<String, ReplicaState> states = Map.of();
  private Verdict verdict = Verdict.UNDECIDED;
  private boolean settling;

  OutcomeSidecar(ClusterApi client, Settings settings, Termination termination) {
    this.client = client;
    this.s = settings;
    this.termination = termination;
    this.events = new JobEvents(client, s.namespace(), s.self(), s.pod());
    this.jobsListed = !s.followsJobs();
  }

  /** Called after every evaluation of the replicas' states (tests). */
  OutcomeSidecar observed(Runnable observer) {
    this.observer = observer;
    return this;
  }

  /** Runs until a stop is requested (SIGTERM); returns the exit code. */
  int run() throws InterruptedException {
    PodWatch podWatch = new PodWatch(client, s.namespace(), s.watched(), this::onPods);
    JobWatch jobWatch = null;
    try {
      if (s.followsJobs()) {
        jobWatch = JobWatch.labelled(client, s.namespace(), s.watched(), this::onJobs);
      }
      termination.awaitStop();
      finish();
    } finally {
      if (jobWatch != null) {
        jobWatch.close();
      }
      podWatch.close();
    }
    return 0;
  }

  synchronized void onPods(Map<String, Pod> now) {
    pods = merged(otherPods, now);
    podsListed = true;
    evaluate();
  }

  synchronized void onJobs(Map<String, Job> now) {
    jobs = merged(otherJobs, now);
    jobsListed = true;
    evaluate();
  }

  /** Reads the replicas' states from what the watches hold and decides, once. */
  private void evaluate() {
    if (podsListed && jobsListed && !verdict.decided()) {
      Job ownJob = jobs.get(s.self());
      if (ownJob != null) {
        events.owner(ownJob);
      }
      Pod own = pods.get(s.pod());
      if (own != null && s.rules().carrier() == Carrier.JOB) {
        events.owner(own);
      }
      states = readStates();
      verdict = s.rules().decide(states);
      if (verdict.decided()) {
        conclude();
      }
    }
    notifyAll();
    observer.run();
  }

  private Map<String, ReplicaState> readStates() {
    return s.rules().states(s.self(), pods.get(s.pod()), pods, jobs);
  }

  /** Records the verdict, then ends what it asks to end; one Event says what was done. */
  private void conclude() {
    if (!s.watchesAll()) {
      // Watching its own replica alone, it reads the whole job once to tell what still runs.
      readWholeJob();
      states = readStates();
    }
    if (s.rules().carrier() == Carrier.POD) {
      events.about(
          new ObjectReferenceBuilder()
              .withApiVersion("v1")
              .withKind("Pod")
              .withName(s.pod())
              .withNamespace(s.namespace())
              .withUid(pods.containsKey(s.pod()) ? pods.get(s.pod()).getMetadata().getUid() : null)
              .build());
    }
    events.record(JobEvents.NORMAL, verdict.reason(), verdict.message());
    Map<String, Action> stops = s.rules().stops(verdict, states);
    ReplicaStop stop = new ReplicaStop(client, s.namespace(), s.self(), termination);
    Map<Action, List<String>> done = new LinkedHashMap<>();
    List<String> failed = new ArrayList<>();
    for (Map.Entry<String, Action> e : stops.entrySet()) {
      String replica = e.getKey();
      boolean ok =
          switch (e.getValue()) {
            case SUSPEND -> stop.suspendJob(replica);
            case FAIL -> stop.failJob(replica);
            case END -> stop.endPod(replica);
          };
      if (ok) {
        done.computeIfAbsent(e.getValue(), a -> new ArrayList<>()).add(replica);
      } else {
        failed.add(replica);
      }
    }
    StringBuilder m = new StringBuilder("cleanPodPolicy " + s.rules().cleanPodPolicy() + ": ");
    List<String> parts = new ArrayList<>();
    add(parts, "suspended", done.get(Action.SUSPEND));
    add(parts, "ended", done.get(Action.END));
    add(parts, "failed", done.get(Action.FAIL));
    add(parts, "left running", s.rules().leftRunning(states, stops));
    add(parts, "could not stop", failed);
    m.append(parts.isEmpty() ? "nothing left to stop" : String.join("; ", parts));
    events.record(
        failed.isEmpty() ? JobEvents.NORMAL : JobEvents.WARNING,
        failed.isEmpty() ? STOPPED : STOP_FAILED,
        m.toString());
  }

  private static void add(List<String> parts, String what, List<String> replicas) {
    if (replicas != null && !replicas.isEmpty()) {
      parts.add(what + " " + String.join(", ", replicas));
    }
  }

  /**
   * On SIGTERM: reads the pods (and Jobs) once more, in case a watch is behind, and while this
   * replica's own end is still unknown waits up to {@link #SETTLE} for the watches to deliver it.
   */
  synchronized void finish() throws InterruptedException {
    if (verdict.decided()) {
      return;
    }
    if (readWholeJob()) {
      podsListed = true;
      jobsListed = true;
    }
    evaluate();
    long end = System.nanoTime() + SETTLE.toNanos();
    settling = true;
    observer.run();
    while (!verdict.decided() && ownEndUnknown()) {
      long left = end - System.nanoTime();
      if (left <= 0) {
        Log.info("this replica's end not seen within " + SETTLE.toSeconds() + " s: undecided");
        return;
      }
      wait(Math.max(1, left / 1_000_000));
    }
  }

  /**
   * Reads all the job's pods (and Jobs, when followed) once, in case a watch is behind or follows
   * this replica alone; returns whether it could.
   */
  private boolean readWholeJob() {
    try {
      Map<String, Pod> podsNow = byName(client.listPods(s.namespace(), s.selector()));
      Map<String, Job> jobsNow =
          s.followsJobs() ? byName(client.listJobs(s.namespace(), s.selector())) : jobs;
      if (s.watchesAll()) {
        pods = podsNow;
        jobs = jobsNow;
      } else {
        // Kept beside what the watches deliver, which is this replica's own alone.
        otherPods = others(podsNow);
        otherJobs = others(jobsNow);
        pods = merged(otherPods, pods);
        jobs = merged(otherJobs, jobs);
      }
      return true;
    } catch (RuntimeException e) {
      Log.info("could not read the job's pods and Jobs: " + PodWatch.describe(e));
      return false;
    }
  }

  /**
   * Whether this replica's end is still unknown: not suspended, not finished, and its main
   * container not seen ended (the kubelet's report may still be on its way) or its pod being
   * deleted (its Job's condition, which says why, may follow the deletion).
   */
  private boolean ownEndUnknown() {
    if (verdict.kind() == Verdict.Kind.SUSPENDED
        || states.getOrDefault(s.self(), ReplicaState.ABSENT).finished()) {
      return false;
    }
    Pod own = pods.get(s.pod());
    return own == null
        || own.getMetadata().getDeletionTimestamp() != null
        || Pods.terminated(own, s.rules().mainContainer()) == null;
  }

  /** The objects the watches do not follow: those {@link Settings#watched} does not select. */
  private <T extends HasMetadata> Map<String, T> others(Map<String, T> all) {
    Map<String, T> out = new TreeMap<>();
    all.forEach(
        (name, o) -> {
          Map<String, String> labels = o.getMetadata().getLabels();
          if (labels == null || !labels.entrySet().containsAll(s.watched().entrySet())) {
            out.put(name, o);
          }
        });
    return out;
  }

  private static <T> Map<String, T> merged(Map<String, T> others, Map<String, T> watched) {
    if (others.isEmpty()) {
      return watched;
    }
    Map<String, T> out = new TreeMap<>(others);
    out.putAll(watched);
    return out;
  }

  private static <T extends HasMetadata> Map<String, T> byName(List<T> items) {
    Map<String, T> out = new TreeMap<>();
    for (T o : items) {
      out.put(o.getMetadata().getName(), o);
    }
    return out;
  }

  /** The resource version of the pod or Job {@code name} at the last evaluation (tests). */
  synchronized String seenVersion(String name) {
    var o = jobs.containsKey(name) ? jobs.get(name) : pods.get(name);
    return o == null ? null : o.getMetadata().getResourceVersion();
  }

  /** The phase of pod {@code name} at the last evaluation, or null when it saw none (tests). */
  synchronized String seenPhase(String name) {
    Pod p = pods.get(name);
    return p == null ? null : Pods.phase(p);
  }

  /** The outcome so far (tests). */
  synchronized Verdict verdict() {
    return verdict;
  }

  /** The replicas' states at the last evaluation (tests). */
  synchronized Map<String, ReplicaState> states() {
    return states;
  }

  /** Whether SIGTERM has come and the sidecar waits for this replica's end (tests). */
  synchronized boolean settling() {
    return settling;
  }
}
