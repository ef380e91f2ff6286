package dev.jobc.sidecar;

import dev.jobc.conventions.TfLabels;
import io.fabric8.kubernetes.api.model.ContainerStateTerminated;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.DeletionPropagation;
import io.fabric8.kubernetes.api.model.ObjectReference;
import io.fabric8.kubernetes.api.model.ObjectReferenceBuilder;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * The {@code tfjob} sidecar beside a TFJob's deciding replica (the Chief or Master, else Worker 0;
 * with {@code successPolicy: AllWorkers} every Worker). It does what training-operator v1.9.0's
 * {@code UpdateJobStatus} and {@code DeletePodsAndServices} did, from one {@link PodWatch} on the
 * job's pods:
 *
 * <ul>
 *   <li>the job has <b>succeeded</b> when this replica's main container exits 0 (with {@code
 *       AllWorkers}: once every Worker's has);
 *   <li>it has <b>failed</b> when any replica has failed for good: under {@code Never} a failed
 *       pod; under {@code ExitCode} an exit code of 1-127 (128 and above are retried); and under
 *       every policy more failed attempts than {@code backoffLimit}. Workers do not count with
 *       {@code enableDynamicWorker};
 *   <li>either way it records the operator's Event ({@code TFJobSucceeded}, {@code TFJobFailed}) on
 *       this replica's Job (or Pod), then stops the replicas still running, parameter servers above
 *       all, which never exit by themselves: it deletes their Jobs (or Pods); with {@code
 *       cleanPodPolicy: All} the finished ones too. Services stay: they are part of the output.
 * </ul>
 */
final class TfJobSidecar {
  /** Everything {@code tfjob} is told on its command line. */
  record Settings(
      String namespace,
      String pod,
      String job,
      String self,
      String mainContainer,
      Map<String, String> restartPolicies,
      int backoffLimit,
      boolean allWorkers,
      String cleanPodPolicy,
      boolean podCarrier,
      boolean dynamicWorkers,
      Map<String, String> others) {}

  static final String SUCCEEDED = "TFJobSucceeded";
  static final String FAILED = "TFJobFailed";
  static final String STOPPED = "ReplicasStopped";
  static final String STOP_FAILED = "StopFailed";
  static final String WORKER = "worker";

  /** Attempts and first back-off for one stop; the API may be briefly unavailable. */
  static final int ATTEMPTS = 4;

  static final Duration FIRST_BACKOFF = Duration.ofMillis(250);

  private final KubernetesClient client;
  private final Settings s;
  private final Termination termination;
  private final String selfType;
  private volatile ObjectReference carrier;
  private boolean finished;

  TfJobSidecar(KubernetesClient client, Settings settings, Termination termination) {
    this.client = client;
    this.s = settings;
    this.termination = termination;
    String rest = s.self().substring(Math.min(s.self().length(), s.job().length() + 1));
    this.selfType = rest.contains("-") ? rest.substring(0, rest.lastIndexOf('-')) : rest;
  }

  /** Runs until a stop is requested (SIGTERM); returns the exit code. */
  int run() throws InterruptedException {
    PodWatch watch =
        new PodWatch(client, s.namespace(), TfLabels.jobSelector(s.job()), this::onPods);
    try {
      termination.awaitStop();
      finish();
    } finally {
      watch.close();
    }
    return 0;
  }

  /** Reacts to the job's pods as they are now. */
  synchronized void onPods(Map<String, Pod> pods) {
    if (finished) {
      return;
    }
    Map<String, List<Pod>> byReplica = byReplica(pods);
    Pod me = pods.get(s.pod());
    if (me != null) {
      carrier(me);
    }
    String failed = failedType(byReplica, me);
    if (failed != null) {
      conclude(byReplica, false, failed);
      return;
    }
    if (me != null && succeeded(me) && (!s.allWorkers() || allWorkersSucceeded(byReplica, me))) {
      conclude(byReplica, true, null);
    }
  }

  /** On SIGTERM: read this pod once more, in case the watch has not delivered its end yet. */
  synchronized void finish() {
    if (finished) {
      return;
    }
    try {
      Map<String, Pod> pods = new LinkedHashMap<>();
      for (Pod p :
          client
              .pods()
              .inNamespace(s.namespace())
              .withLabels(TfLabels.jobSelector(s.job()))
              .list()
              .getItems()) {
        pods.put(p.getMetadata().getName(), p);
      }
      onPods(pods);
    } catch (RuntimeException e) {
      Log.info("could not read the job's pods at exit: " + PodWatch.describe(e));
    }
  }

  /** Pods by replica name, from the operator's replica-type and replica-index labels. */
  private Map<String, List<Pod>> byReplica(Map<String, Pod> pods) {
    Map<String, List<Pod>> out = new LinkedHashMap<>();
    for (Pod p : pods.values()) {
      Map<String, String> labels = p.getMetadata().getLabels();
      String type = labels == null ? null : labels.get(TfLabels.REPLICA_TYPE);
      String index = labels == null ? null : labels.get(TfLabels.REPLICA_INDEX);
      if (type == null || index == null) {
        continue;
      }
      out.computeIfAbsent(s.job() + "-" + type + "-" + index, k -> new ArrayList<>()).add(p);
    }
    return out;
  }

  /** The type of a replica that has failed for good, or {@code null}. */
  private String failedType(Map<String, List<Pod>> byReplica, Pod me) {
    if (me != null) {
      ContainerStateTerminated ended = terminated(me);
      if (ended != null && exitCode(ended) != 0) {
        // This attempt has ended too; the pod is not Failed yet while this sidecar runs.
        List<Pod> attempts = byReplica.getOrDefault(s.self(), List.of());
        if (failedForGood(selfType, attempts, exitCode(ended), 1 + restarts(me))) {
          return selfType;
        }
      }
    }
    for (Map.Entry<String, String> other : s.others().entrySet()) {
      String type = other.getValue();
      if (s.dynamicWorkers() && WORKER.equals(type)) {
        continue; // UpdateJobStatus: "continues regardless ... as enableDynamicWorker is set"
      }
      List<Pod> attempts = byReplica.getOrDefault(other.getKey(), List.of());
      if (failedForGood(type, attempts, 0, 0)) {
        return type;
      }
    }
    return null;
  }

  /**
   * Whether a replica has failed for good, given its pods and, for this replica, its own ended
   * attempt ({@code code} and {@code extraFailures}; 0 for the others).
   */
  private boolean failedForGood(String type, List<Pod> pods, int code, int extraFailures) {
    String policy = s.restartPolicies().getOrDefault(type, "Never");
    int failures = extraFailures;
    boolean nonRetryable = code > 0 && code < 128;
    for (Pod p : pods) {
      if ("Failed".equals(Pods.phase(p))) {
        failures++;
        ContainerStateTerminated ended = terminated(p);
        int c = ended == null ? 0 : exitCode(ended);
        nonRetryable |= c > 0 && c < 128;
      } else {
        failures += restarts(p);
      }
    }
    if (failures == 0) {
      return false;
    }
    return switch (policy) {
      case "Never" -> true;
      // IsRetryableExitCode: only signals (128 and above) are retried.
      case "ExitCode" -> nonRetryable || s.podCarrier() || failures > s.backoffLimit();
      default -> failures > s.backoffLimit();
    };
  }

  private boolean succeeded(Pod me) {
    ContainerStateTerminated ended = terminated(me);
    return ended != null && exitCode(ended) == 0;
  }

  private boolean allWorkersSucceeded(Map<String, List<Pod>> byReplica, Pod me) {
    for (Map.Entry<String, String> other : s.others().entrySet()) {
      if (!WORKER.equals(other.getValue())) {
        continue;
      }
      boolean done = false;
      for (Pod p : byReplica.getOrDefault(other.getKey(), List.of())) {
        done |= "Succeeded".equals(Pods.phase(p)) || succeeded(p);
      }
      if (!done) {
        return false;
      }
    }
    return succeeded(me);
  }

  private void conclude(Map<String, List<Pod>> byReplica, boolean success, String failedType) {
    finished = true;
    String job = s.namespace() + "/" + s.job();
    if (success) {
      record("Normal", SUCCEEDED, "TFJob " + job + " successfully completed.");
    } else {
      record(
          "Normal",
          FAILED,
          "TFJob " + job + " has failed because 1 " + display(failedType) + " replica(s) failed.");
    }
    stopTheRest(byReplica);
  }

  /** training-operator names the type as the spec spells it: {@code PS}, {@code Worker}, ... */
  static String display(String type) {
    return switch (type) {
      case "ps" -> "PS";
      case "chief" -> "Chief";
      case "master" -> "Master";
      case "evaluator" -> "Evaluator";
      case WORKER -> "Worker";
      default -> type;
    };
  }

  /**
   * Deletes the other replicas' Jobs (or Pods) still running; with {@code cleanPodPolicy: All} the
   * finished ones too. Each is retried a few times; the outcome is one Event.
   */
  private void stopTheRest(Map<String, List<Pod>> byReplica) {
    List<String> stopped = new ArrayList<>();
    List<String> kept = new ArrayList<>();
    List<String> failed = new ArrayList<>();
    for (String replica : new TreeSet<>(s.others().keySet())) {
      List<Pod> pods = byReplica.getOrDefault(replica, List.of());
      boolean running = pods.isEmpty() || pods.stream().anyMatch(TfJobSidecar::active);
      if (!running && !"All".equals(s.cleanPodPolicy())) {
        kept.add(replica);
        continue;
      }
      if (delete(replica)) {
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

  private boolean delete(String replica) {
    Duration backoff = FIRST_BACKOFF;
    for (int attempt = 1; attempt <= ATTEMPTS; attempt++) {
      try {
        if (s.podCarrier()) {
          client.pods().inNamespace(s.namespace()).withName(replica).delete();
        } else {
          // Background: the Job goes at once, the garbage collector then removes its pods.
          client
              .batch()
              .v1()
              .jobs()
              .inNamespace(s.namespace())
              .withName(replica)
              .withPropagationPolicy(DeletionPropagation.BACKGROUND)
              .delete();
        }
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

  private ContainerStateTerminated terminated(Pod p) {
    ContainerStatus status = Pods.container(p, s.mainContainer());
    if (status == null || status.getState() == null) {
      return null;
    }
    return status.getState().getTerminated();
  }

  private int restarts(Pod p) {
    ContainerStatus status = Pods.container(p, s.mainContainer());
    return status == null || status.getRestartCount() == null ? 0 : status.getRestartCount();
  }

  private static int exitCode(ContainerStateTerminated ended) {
    return ended.getExitCode() == null ? -1 : ended.getExitCode();
  }

  /** This replica's carrier, for the Events: its Job (from the owner reference) or this Pod. */
  private void carrier(Pod me) {
    if (carrier != null) {
      return;
    }
    if (!s.podCarrier() && me.getMetadata().getOwnerReferences() != null) {
      for (OwnerReference r : me.getMetadata().getOwnerReferences()) {
        if ("Job".equals(r.getKind())) {
          carrier = reference("batch/v1", "Job", r.getName(), r.getUid());
          return;
        }
      }
    }
    if (s.podCarrier()) {
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
            : s.podCarrier()
                ? reference("v1", "Pod", s.pod(), null)
                : reference("batch/v1", "Job", s.self(), null);
    JobEvents.create(client, s.namespace(), s.pod(), target, type, reason, message);
  }

  /** Whether the outcome has been decided (tests). */
  synchronized boolean finished() {
    return finished;
  }
}
