package dev.jobc.sidecar.replicas;

import dev.jobc.sidecar.replicas.ReplicaState.Phase;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * How a job of training-operator v1.9.0's family ends, as data: which replicas decide its success,
 * which replica types' failures it ignores, which ones {@code cleanPodPolicy: None} leaves running.
 * {@link #decide} is {@code UpdateJobStatus} with {@code ReconcileJobs}' backoff and deadline
 * checks ({@code pkg/controller.v1/common/job.go}) over the replicas' {@link ReplicaState}s; {@link
 * #stops} says what then ends. Nothing here knows a kind: the TFJob's rules are what {@link
 * TfJobCommand} puts in.
 *
 * @param kind the job's kind, for the Events' reasons and messages ({@code TFJob})
 * @param types every replica (this one included) and its type as the spec spells it ({@code PS})
 * @param restartPolicies each type's restart policy ({@code Never}, {@code ExitCode}, {@code
 *     OnFailure}, {@code Always})
 * @param deciders the replicas whose success, all of them, is the job's; they end failed when the
 *     job fails
 * @param ignoredFailureTypes types whose failed replicas do not fail the job
 * @param keptUnderNone types that {@code cleanPodPolicy: None} leaves running: they end by
 *     themselves
 * @param cleanPodPolicy {@code None}, {@code Running} or {@code All}
 * @param jobWideBackoffLimit with bare Pods, {@code runPolicy.backoffLimit} over the restarts of
 *     every replica whose policy restarts ({@code PastBackoffLimit}); {@code null} when unset or
 *     when each replica's Job counts its own
 */
record OutcomeRules(
    String kind,
    String namespace,
    String job,
    Map<String, String> types,
    Map<String, String> restartPolicies,
    Set<String> deciders,
    Set<String> ignoredFailureTypes,
    Set<String> keptUnderNone,
    String cleanPodPolicy,
    Integer jobWideBackoffLimit) {

  OutcomeRules {
    types = Map.copyOf(types);
    restartPolicies = Map.copyOf(restartPolicies);
    deciders = Set.copyOf(deciders);
    ignoredFailureTypes = Set.copyOf(ignoredFailureTypes);
    keptUnderNone = Set.copyOf(keptUnderNone);
  }

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

  /**
   * The job's outcome from its replicas' states. Failures win over success, as in {@code
   * UpdateJobStatus}, whose last condition is {@code Failed} when both happen in one pass; among
   * failures, a used-up backoff limit comes first, then the deadline ({@code ReconcileJobs}), then
   * failed replicas by type in the order of their lower-case names, the order upstream visits them.
   */
  Verdict decide(Map<String, ReplicaState> states) {
    for (String d : deciders) {
      if (state(states, d).phase() == Phase.SUSPENDED) {
        return Verdict.SUSPENDED;
      }
    }
    boolean backoff = jobWideBackoffUsedUp(states);
    boolean deadline = false;
    Map<String, Integer> failed = new TreeMap<>(Comparator.comparing(OutcomeRules::lower));
    for (Map.Entry<String, String> r : types.entrySet()) {
      ReplicaState s = state(states, r.getKey());
      if (s.phase() != Phase.FAILED) {
        continue;
      }
      String type = r.getValue();
      if (ReplicaStates.DEADLINE_EXCEEDED.equals(s.reason())) {
        deadline = true;
      } else if (ReplicaStates.BACKOFF_LIMIT_EXCEEDED.equals(s.reason()) && restarts(type)) {
        backoff = true;
      } else if (!ignoredFailureTypes.contains(type)) {
        failed.merge(type, 1, Integer::sum);
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
    if (!failed.isEmpty()) {
      Map.Entry<String, Integer> first = failed.entrySet().iterator().next();
      return failed(
          kind
              + " "
              + namespace
              + "/"
              + job
              + " has failed because "
              + first.getValue()
              + " "
              + first.getKey()
              + " replica(s) failed.");
    }
    for (String d : deciders) {
      if (state(states, d).phase() != Phase.SUCCEEDED) {
        return Verdict.UNDECIDED;
      }
    }
    return new Verdict(
        Verdict.Kind.SUCCEEDED,
        kind + "Succeeded",
        kind + " " + namespace + "/" + job + " successfully completed.");
  }

  private Verdict failed(String message) {
    return new Verdict(Verdict.Kind.FAILED, kind + "Failed", message);
  }

  /** {@code PastBackoffLimit}: restarts of running pods of restarting types reach the limit. */
  private boolean jobWideBackoffUsedUp(Map<String, ReplicaState> states) {
    if (jobWideBackoffLimit == null) {
      return false;
    }
    int restarts = 0;
    for (Map.Entry<String, String> r : types.entrySet()) {
      if (restarts(r.getValue())) {
        restarts += state(states, r.getKey()).restarts();
      }
    }
    return jobWideBackoffLimit == 0 ? restarts > 0 : restarts >= jobWideBackoffLimit;
  }

  /** Whether a type's pods are restarted upstream (its failures count against the limit). */
  private boolean restarts(String type) {
    String policy = restartPolicies.getOrDefault(type, "Never");
    return !"Never".equals(policy);
  }

  /**
   * What ends once {@code verdict} is decided, by replica in name order: nothing that has finished
   * or is suspended; a deciding replica (this one too) still running only when the job failed, and
   * then its Job fails, so that it says what the job did; every other running replica, parameter
   * servers above all, which never exit by themselves, except the types {@code cleanPodPolicy:
   * None} leaves running. A Job is suspended ({@code carrierJobs}), a bare Pod ended. With {@code
   * All}, finished replicas stay as they are: their pods hold no resources, and what jobc rendered
   * is not deleted.
   */
  Map<String, Action> stops(
      Verdict verdict, Map<String, ReplicaState> states, boolean carrierJobs) {
    Map<String, Action> out = new LinkedHashMap<>();
    for (String replica : new TreeMap<>(types).keySet()) {
      if (state(states, replica).phase() != Phase.ACTIVE) {
        continue;
      }
      if (deciders.contains(replica)) {
        if (verdict.kind() == Verdict.Kind.FAILED) {
          out.put(replica, carrierJobs ? Action.FAIL : Action.END);
        }
      } else if (!("None".equals(cleanPodPolicy) && keptUnderNone.contains(types.get(replica)))) {
        out.put(replica, carrierJobs ? Action.SUSPEND : Action.END);
      }
    }
    return out;
  }

  /** The replicas {@link #stops} leaves running although they run, for the Event. */
  List<String> leftRunning(Map<String, ReplicaState> states, Map<String, Action> stops) {
    List<String> out = new ArrayList<>();
    for (String replica : new TreeMap<>(types).keySet()) {
      if (state(states, replica).phase() == Phase.ACTIVE && !stops.containsKey(replica)) {
        out.add(replica);
      }
    }
    return out;
  }

  private static ReplicaState state(Map<String, ReplicaState> states, String replica) {
    return states.getOrDefault(replica, ReplicaState.ABSENT);
  }

  private static String lower(String type) {
    return type.toLowerCase(Locale.ROOT);
  }
}
