package dev.jobc.sidecar.replicas;

import dev.jobc.sidecar.replicas.ReplicaState.Phase;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * How a job of training-operator v1.9.0's family ends, as data: which replicas decide its success,
 * in which order failed replicas are named, which types' failures it ignores, which ones {@code
 * cleanPodPolicy: None} leaves running, what carries the replicas and what the sidecar may read of
 * them. {@link #decide} is the kinds' {@code UpdateJobStatus} with {@code ReconcileJobs}' backoff
 * and deadline checks ({@code pkg/controller.v1/common/job.go}) over the replicas' {@link
 * ReplicaState}s; {@link #stops} says what then ends. Nothing here knows a kind: {@link
 * TfJobCommand} and {@link ReplicasCommand} put each kind's rules in.
 *
 * @param kind the job's kind, for the Events' reasons ({@code TFJob}, {@code PyTorchJob})
 * @param job the job's name
 * @param types every replica (this one included) and its type as the spec spells it ({@code PS})
 * @param restartPolicies each type's restart policy ({@code Never}, {@code ExitCode}, {@code
 *     OnFailure}, {@code Always})
 * @param deciders the replicas whose success is the job's: all of them, or with {@code anyDecides}
 *     the first; they end failed when the job fails
 * @param anyDecides whether one decider's success completes the job (PyTorchJob's {@code
 *     elasticPolicy})
 * @param failureOrder every replica, in the order failures are looked at: the first failed one's
 *     type is named, with the count of that type's failed replicas
 * @param ignoredFailureTypes types whose failed replicas do not fail the job
 * @param keptUnderNone types that {@code cleanPodPolicy: None} leaves running: they end by
 *     themselves
 * @param restartingPolicies the restart policies under which the kind's operator starts a failed
 *     pod again instead of failing the job ({@code ExitCode}: for exit codes it retries alone)
 * @param cleanPodPolicy {@code None}, {@code Running} or {@code All}
 * @param backoffLimit {@code runPolicy.backoffLimit}, {@code null} when unset: each replica's Job's
 *     limit, and with bare Pods the limit over the restarts of every replica whose policy restarts
 *     ({@code PastBackoffLimit})
 * @param carrier what carries each replica's pod
 * @param readsJobs whether the sidecar reads the replicas' Jobs (its Role lets it), rather than
 *     their pods alone
 * @param mainContainer the container whose exit decides
 * @param successMessage the Event's message when the job succeeds
 * @param failureMessage the Event's message when replicas failed, a format of their count and type
 */
record OutcomeRules(
    String kind,
    String job,
    Map<String, String> types,
    Map<String, String> restartPolicies,
    Set<String> deciders,
    boolean anyDecides,
    List<String> failureOrder,
    Set<String> ignoredFailureTypes,
    Set<String> keptUnderNone,
    Set<String> restartingPolicies,
    String cleanPodPolicy,
    Integer backoffLimit,
    Carrier carrier,
    boolean readsJobs,
    String mainContainer,
    String successMessage,
    String failureMessage) {

  OutcomeRules {
    types = Map.copyOf(types);
    restartPolicies = Map.copyOf(restartPolicies);
    deciders = Set.copyOf(deciders);
    failureOrder = List.copyOf(failureOrder);
    ignoredFailureTypes = Set.copyOf(ignoredFailureTypes);
    keptUnderNone = Set.copyOf(keptUnderNone);
    restartingPolicies = Set.copyOf(restartingPolicies);
  }

  /** What carries each replica's pod. */
  enum Carrier {
    JOB,
    POD
  }

  /** The Job controller's default {@code backoffLimit}. */
  static final int DEFAULT_BACKOFF_LIMIT = 6;

  /** What a replica's end does to the job. */
  enum Action {
    /** Its Job is suspended: the Job controller deletes its pod, and the Job stays. */
    SUSPEND,
    /** Its Job fails now (deadline): the Job controller deletes its pod. */
    FAIL,
    /** Its bare Pod ends now (deadline): the kubelet stops it. */
    END
  }

  /** The outcome decided so far. */
  record Verdict(Kind kind, String reason, String message) {
    enum Kind {
      UNDECIDED,
      /** A deciding replica's Job is suspended: nothing is decided while it is. */
      SUSPENDED,
      SUCCEEDED,
      FAILED
    }

    static final Verdict UNDECIDED = new Verdict(Kind.UNDECIDED, null, null);
    static final Verdict SUSPENDED = new Verdict(Kind.SUSPENDED, null, null);

    boolean decided() {
      return kind == Kind.SUCCEEDED || kind == Kind.FAILED;
    }
  }

  /** What a replica of {@code type} is, for reading its state ({@link ReplicaStates#of}). */
  ReplicaRules replica(String type) {
    String policy = restartPolicy(type);
    // jobc renders backoffLimit 0 on the Job of a replica under Never, else runPolicy's (or none,
    // Kubernetes' 6): the limit a Job the sidecar cannot read applies.
    int jobLimit =
        "Never".equals(policy) ? 0 : backoffLimit == null ? DEFAULT_BACKOFF_LIMIT : backoffLimit;
    return new ReplicaRules(
        carrier, readsJobs, policy, mainContainer, jobLimit, restartingPolicies.contains(policy));
  }

  /**
   * Every replica's state from what the sidecar sees: {@code pods} and {@code jobs} by name (the
   * Jobs empty when not read), {@code own} this sidecar's pod, of replica {@code self}. A bare Pod
   * is named as its replica; a Job's pods carry the replica's labels.
   */
  Map<String, ReplicaState> states(
      String self, Pod own, Map<String, Pod> pods, Map<String, Job> jobs) {
    Map<String, List<Pod>> byReplica = ReplicaStates.byReplica(job, pods);
    Map<String, ReplicaState> out = new TreeMap<>();
    for (Map.Entry<String, String> replica : types.entrySet()) {
      String name = replica.getKey();
      List<Pod> replicaPods =
          carrier == Carrier.POD
              ? (pods.containsKey(name) ? List.of(pods.get(name)) : List.of())
              : byReplica.getOrDefault(name, List.of());
      out.put(
          name,
          ReplicaStates.of(
              replica(replica.getValue()),
              jobs.get(name),
              replicaPods,
              name.equals(self) ? own : null));
    }
    return out;
  }

  private String restartPolicy(String type) {
    return restartPolicies.getOrDefault(type, "Never");
  }

  /**
   * The job's outcome from its replicas' states. Failures win over success, as in {@code
   * UpdateJobStatus}, whose last condition is {@code Failed} when both happen in one pass; among
   * failures, a used-up backoff limit comes first, then the deadline ({@code ReconcileJobs}), then
   * failed replicas: the type of the first in {@link #failureOrder}, and how many of that type.
   */
  Verdict decide(Map<String, ReplicaState> states) {
    for (String d : deciders) {
      if (state(states, d).phase() == Phase.SUSPENDED) {
        return Verdict.SUSPENDED;
      }
    }
    boolean backoff = carrier == Carrier.POD && jobWideBackoffUsedUp(states);
    boolean deadline = false;
    String failedType = null;
    int failed = 0;
    for (String replica : failureOrder) {
      ReplicaState s = state(states, replica);
      if (s.phase() != Phase.FAILED) {
        continue;
      }
      String type = types.get(replica);
      if (ReplicaStates.DEADLINE_EXCEEDED.equals(s.reason())) {
        deadline = true;
      } else if (ReplicaStates.BACKOFF_LIMIT_EXCEEDED.equals(s.reason()) && restarts(type)) {
        backoff = true;
      } else if (!ignoredFailureTypes.contains(type)) {
        if (failedType == null) {
          failedType = type;
        }
        if (failedType.equals(type)) {
          failed++;
        }
      }
    }
    if (backoff) {
      return failed(
          "Job " + job + " has failed because it has reached the specified backoff limit");
    }
    if (deadline) {
      return failed(
          "Job " + job + " has failed because it was active longer than specified deadline");
    }
    if (failedType != null) {
      return failed(String.format(failureMessage, failed, failedType));
    }
    int succeeded = 0;
    for (String d : deciders) {
      if (state(states, d).phase() == Phase.SUCCEEDED) {
        succeeded++;
      }
    }
    if (succeeded == 0 || (!anyDecides && succeeded < deciders.size())) {
      return Verdict.UNDECIDED;
    }
    return new Verdict(Verdict.Kind.SUCCEEDED, kind + "Succeeded", successMessage);
  }

  private Verdict failed(String message) {
    return new Verdict(Verdict.Kind.FAILED, kind + "Failed", message);
  }

  /** {@code PastBackoffLimit}: restarts of running pods of restarting types reach the limit. */
  private boolean jobWideBackoffUsedUp(Map<String, ReplicaState> states) {
    if (backoffLimit == null) {
      return false;
    }
    int restarts = 0;
    for (Map.Entry<String, String> r : types.entrySet()) {
      if (restarts(r.getValue())) {
        restarts += state(states, r.getKey()).restarts();
      }
    }
    return backoffLimit == 0 ? restarts > 0 : restarts >= backoffLimit;
  }

  /** Whether a type's pods are restarted upstream (its failures count against the limit). */
  private boolean restarts(String type) {
    return !"Never".equals(restartPolicy(type));
  }

  /**
   * What ends once {@code verdict} is decided, by replica in name order: nothing that has finished
   * or is suspended (a replica failed by a pod its Job starts again has not finished); a deciding
   * replica (this one too) still running when the job failed, and then its Job fails, so that it
   * says what the job did; every other running replica, parameter servers above all, which never
   * exit by themselves, except the types {@code cleanPodPolicy: None} leaves running. A Job is
   * suspended, a bare Pod ended. With {@code All}, finished replicas stay as they are: their pods
   * hold no resources, and what jobc rendered is not deleted.
   */
  Map<String, Action> stops(Verdict verdict, Map<String, ReplicaState> states) {
    boolean jobs = carrier == Carrier.JOB;
    Map<String, Action> out = new LinkedHashMap<>();
    for (String replica : new TreeMap<>(types).keySet()) {
      if (!state(states, replica).runsOn()) {
        continue;
      }
      if (deciders.contains(replica) && verdict.kind() == Verdict.Kind.FAILED) {
        out.put(replica, jobs ? Action.FAIL : Action.END);
      } else if (!("None".equals(cleanPodPolicy) && keptUnderNone.contains(types.get(replica)))) {
        out.put(replica, jobs ? Action.SUSPEND : Action.END);
      }
    }
    return out;
  }

  /** The replicas {@link #stops} leaves running although they run, for the Event. */
  List<String> leftRunning(Map<String, ReplicaState> states, Map<String, Action> stops) {
    List<String> out = new ArrayList<>();
    for (String replica : new TreeMap<>(types).keySet()) {
      if (state(states, replica).runsOn() && !stops.containsKey(replica)) {
        out.add(replica);
      }
    }
    return out;
  }

  private static ReplicaState state(Map<String, ReplicaState> states, String replica) {
    return states.getOrDefault(replica, ReplicaState.ABSENT);
  }
}
