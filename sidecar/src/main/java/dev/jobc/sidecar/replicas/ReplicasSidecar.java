package dev.jobc.sidecar.replicas;

import dev.jobc.conventions.ReplicaLabels;
import dev.jobc.sidecar.base.JobEvents;
import dev.jobc.sidecar.base.Log;
import dev.jobc.sidecar.base.PodWatch;
import dev.jobc.sidecar.base.Pods;
import dev.jobc.sidecar.base.Termination;
import dev.jobc.sidecar.client.ClusterApi;
import io.fabric8.kubernetes.api.model.ObjectReference;
import io.fabric8.kubernetes.api.model.ObjectReferenceBuilder;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;

/**
 * The {@code replicas} sidecar beside each replica that decides a job of training-operator's family
 * (PyTorchJob, XGBoostJob, JAXJob, PaddleJob). From one {@link PodWatch} it does what the kind's
 * {@code UpdateJobStatus} and {@code DeletePodsAndServices} did: {@link ReplicaOutcome} decides
 * success or failure; the sidecar records the operator's Event ({@code <Kind>Succeeded}, {@code
 * <Kind>Failed}) on this replica's Job (or Pod) and then ends the replicas still running, through
 * {@link ReplicaStops}, without deleting any of them. Finished replicas are kept whatever {@code
 * cleanPodPolicy} says: they hold nothing, and Git holds their objects.
 *
 * <p>Replica 0 of the deciding type watches all the job's pods and decides as the operator does;
 * every other deciding replica watches its own replica's pods alone, and decides only what those
 * show: its own failure, or under {@code --success any} its own success. A job of N deciding
 * replicas thus puts about 2N pods' events on the API server, not N² ({@link
 * ReplicaOutcome.Rules#watchesAll}). Before ending the rest, a sidecar that watches its own pods
 * lists the job's pods once, to keep the finished replicas.
 */
final class ReplicasSidecar {
  /** Everything {@code replicas} is told on its command line. */
  record Settings(
      String namespace,
      String pod,
      String kind,
      String operator,
      String cleanPodPolicy,
      ReplicaOutcome.Rules rules) {}

  static final String STOPPED = "ReplicasStopped";
  static final String STOP_FAILED = "StopFailed";

  /** Attempts and first back-off for one stop; the API may be briefly unavailable. */
  static final int ATTEMPTS = 4;

  static final Duration FIRST_BACKOFF = Duration.ofMillis(250);

  private final ClusterApi client;
  private final Settings s;
  private final ReplicaOutcome outcome;
  private final ReplicaStops stops;
  private final Termination termination;
  private volatile ObjectReference carrier;
  private boolean finished;
  private Map<String, Pod> seen = Map.of();
  private Runnable observer = () -> {};

  ReplicasSidecar(ClusterApi client, Settings settings, Termination termination) {
    this.client = client;
    this.s = settings;
    this.outcome = new ReplicaOutcome(settings.rules());
    this.stops = new ReplicaStops(client, settings.namespace(), settings.rules().podCarrier());
    this.termination = termination;
  }

  /** Calls {@code observer} after each evaluation of the pods (tests wait on it). */
  ReplicasSidecar observed(Runnable observer) {
    this.observer = observer;
    return this;
  }

  /** Runs until a stop is requested (SIGTERM); returns the exit code. */
  int run() throws InterruptedException {
    PodWatch watch = new PodWatch(client, s.namespace(), selector(), this::onPods);
    try {
      termination.awaitStop();
      finish();
    } finally {
      watch.close();
    }
    return 0;
  }

  /** The job's pods for replica 0 of the deciding type, this replica's own for the others. */
  private Map<String, String> selector() {
    return s.rules().watchesAll()
        ? ReplicaLabels.jobSelector(s.operator(), s.rules().job())
        : ReplicaLabels.replicaSelector(
            s.operator(), s.rules().job(), s.rules().selfType(), s.rules().selfIndex());
  }

  /** The job's pods, to tell the replicas still running from the finished ones. */
  private Map<String, Pod> jobPods(Map<String, Pod> watched) {
    if (s.rules().watchesAll()) {
      return watched;
    }
    Map<String, Pod> pods = new LinkedHashMap<>(watched);
    try {
      for (Pod p :
          client.listPods(
              s.namespace(), ReplicaLabels.jobSelector(s.operator(), s.rules().job()))) {
        pods.put(p.getMetadata().getName(), p);
      }
    } catch (RuntimeException e) {
      // Unknown replicas are taken as running and stopped: suspending a finished Job is harmless.
      Log.info("could not read the job's pods: " + PodWatch.describe(e));
    }
    return pods;
  }

  /** Reacts to the job's pods as they are now. */
  synchronized void onPods(Map<String, Pod> pods) {
    try {
      if (finished) {
        return;
      }
      seen = pods;
      Pod me = pods.get(s.pod());
      if (me != null) {
        carrier(me);
      }
      ReplicaOutcome.Decision decision = outcome.decide(pods, me);
      if (decision != null) {
        conclude(pods, decision);
      }
    } finally {
      observer.run();
    }
  }

  /** The phase of pod {@code name} at the last evaluation, or null when it saw none (tests). */
  synchronized String seenPhase(String name) {
    Pod p = seen.get(name);
    return p == null ? null : Pods.phase(p);
  }

  /** On SIGTERM: read the pods once more, in case the watch has not delivered this end yet. */
  synchronized void finish() {
    if (finished) {
      return;
    }
    try {
      Map<String, Pod> pods = new LinkedHashMap<>();
      for (Pod p : client.listPods(s.namespace(), selector())) {
        pods.put(p.getMetadata().getName(), p);
      }
      onPods(pods);
    } catch (RuntimeException e) {
      Log.info("could not read the job's pods at exit: " + PodWatch.describe(e));
    }
  }

  private void conclude(Map<String, Pod> pods, ReplicaOutcome.Decision decision) {
    finished = true;
    String job = s.rules().job();
    if (decision.succeeded()) {
      // The master's controllers name the job alone, the workers' its namespace too.
      record(
          "Normal",
          s.kind() + "Succeeded",
          "master".equals(s.rules().deciding())
              ? s.kind() + " " + job + " is successfully completed."
              : s.kind() + " " + s.namespace() + "/" + job + " successfully completed.");
    } else {
      record(
          "Normal",
          s.kind() + "Failed",
          s.kind()
              + " "
              + job
              + " is failed because "
              + decision.failedReplicas()
              + " "
              + display(decision.failedType())
              + " replica(s) failed.");
    }
    stopTheRest(outcome.byReplica(jobPods(pods)), decision.succeeded());
  }

  /** The type as the spec spells it: {@code Master}, {@code Worker}. */
  static String display(String type) {
    return type.isEmpty()
        ? type
        : type.substring(0, 1).toUpperCase(Locale.ROOT) + type.substring(1);
  }

  /**
   * Ends every other replica still running, and after a failure this one too (under {@code
   * OnFailure} its container would otherwise be restarted); one Event says what was stopped and
   * kept.
   */
  private void stopTheRest(Map<String, List<Pod>> byReplica, boolean succeeded) {
    List<String> stopped = new ArrayList<>();
    List<String> kept = new ArrayList<>();
    List<String> failed = new ArrayList<>();
    List<String> replicas = new ArrayList<>(new TreeSet<>(s.rules().others().keySet()));
    if (!succeeded) {
      replicas.add(s.rules().self());
    }
    for (String replica : replicas) {
      List<Pod> pods = byReplica.getOrDefault(replica, List.of());
      boolean running = pods.isEmpty() || pods.stream().anyMatch(ReplicasSidecar::active);
      if (!running) {
        kept.add(replica);
      } else if (stop(replica)) {
        stopped.add(replica);
      } else {
        failed.add(replica);
      }
    }
    String message =
        "cleanPodPolicy "
            + s.cleanPodPolicy()
            + ": stopped "
            + (stopped.isEmpty() ? "none" : String.join(", ", stopped))
            + (kept.isEmpty() ? "" : "; kept the finished " + String.join(", ", kept))
            + (failed.isEmpty() ? "" : "; could not stop " + String.join(", ", failed));
    record(
        failed.isEmpty() ? "Normal" : "Warning", failed.isEmpty() ? STOPPED : STOP_FAILED, message);
  }

  private static boolean active(Pod p) {
    String phase = Pods.phase(p);
    return !"Succeeded".equals(phase) && !"Failed".equals(phase);
  }

  private boolean stop(String replica) {
    Duration backoff = FIRST_BACKOFF;
    for (int attempt = 1; attempt <= ATTEMPTS; attempt++) {
      try {
        stops.stop(replica);
        return true;
      } catch (RuntimeException e) {
        Log.info("stopping " + replica + ", attempt " + attempt + ": " + PodWatch.describe(e));
        try {
          if (attempt < ATTEMPTS && !termination.awaitStop(backoff)) {
            backoff = backoff.multipliedBy(2);
          }
        } catch (InterruptedException ie) {
          Thread.currentThread().interrupt();
          return false;
        }
      }
    }
    return false;
  }

  /** This replica's carrier, for the Events: its Job (from the owner reference) or this Pod. */
  private void carrier(Pod me) {
    if (carrier != null) {
      return;
    }
    if (!s.rules().podCarrier() && me.getMetadata().getOwnerReferences() != null) {
      for (OwnerReference r : me.getMetadata().getOwnerReferences()) {
        if ("Job".equals(r.getKind())) {
          carrier = reference("batch/v1", "Job", r.getName(), r.getUid());
          return;
        }
      }
    }
    if (s.rules().podCarrier()) {
      carrier = reference("v1", "Pod", me.getMetadata().getName(), me.getMetadata().getUid());
    }
  }

  private ObjectReference reference(String apiVersion, String kind, String name, String uid) {
    return new ObjectReferenceBuilder()
        .withApiVersion(apiVersion)
        .withKind(kind)
        .withName(name)
        .withNamespace(s.namespace())
        .withUid(uid)
        .build();
  }

  /** One Event on this replica's carrier; an Event that cannot be created is only logged. */
  private void record(String type, String reason, String message) {
    Log.info(reason + ": " + message);
    ObjectReference target =
        carrier != null
            ? carrier
            : s.rules().podCarrier()
                ? reference("v1", "Pod", s.pod(), null)
                : reference("batch/v1", "Job", s.rules().self(), null);
    JobEvents.create(client, s.namespace(), s.pod(), target, type, reason, message);
  }

  /** Whether the outcome has been decided (tests). */
  synchronized boolean finished() {
    return finished;
  }
}
