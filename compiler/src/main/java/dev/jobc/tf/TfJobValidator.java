package dev.jobc.tf;

import static dev.jobc.diag.Finding.error;
import static dev.jobc.diag.Finding.warning;
import static dev.jobc.validate.FieldRules.oneOf;

import dev.jobc.conventions.Naming;
import dev.jobc.diag.Code;
import dev.jobc.diag.FieldPath;
import dev.jobc.diag.Finding;
import dev.jobc.k8s.ApiLimits;
import dev.jobc.model.RunPolicy;
import dev.jobc.options.OptionTable;
import dev.jobc.options.WorkerKind;
import dev.jobc.replica.ReplicaJobSets;
import dev.jobc.replica.ReplicaKueue;
import dev.jobc.replica.ReplicaValidator;
import dev.jobc.validate.JobNames;
import dev.jobc.validate.ReservedNames;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Validates a defaulted TFJob: the rules of training-operator v1.9.0's webhook ({@code
 * pkg/webhooks/tensorflow/tfjob_webhook.go validateTFJob}, with its wording), and the ones it
 * forgot, whose breach upstream shows only at run time: negative replica counts, more than one
 * Chief or Master pod, a job with no replica that can decide its outcome, and names too long for
 * the Services every replica gets.
 */
public final class TfJobValidator {
  static final FieldPath RUN_POLICY = FieldPath.of("spec", "runPolicy");
  static final FieldPath REPLICA_SPECS = TfJobDefaults.REPLICA_SPECS;

  static final List<String> SUCCESS_POLICIES = List.of("", TfJob.ALL_WORKERS);

  /** Kubernetes' default {@code backoffLimit} of a Job. */
  static final int DEFAULT_JOB_BACKOFF_LIMIT = 6;

  private static final ReservedNames RESERVED =
      new ReservedNames(
          Set.of(Naming.SIDECAR_TMP_VOLUME, Naming.SIDECAR_TOKEN_VOLUME),
          Set.of(Naming.SIDECAR),
          Set.of(Naming.SIDECAR_TMP_MOUNT));

  private TfJobValidator() {}

  public static List<Finding> validate(TfJobModel job) {
    List<Finding> out = new ArrayList<>(job.findings());
    validateName(job, out);
    JobNames.namespace(job.namespace(), out);
    JobNames.queueName(job.metadata().getLabels(), out);
    ReplicaValidator.validateRunPolicy(job.runPolicy(), out);
    oneOf(FieldPath.of("spec", "successPolicy"), job.successPolicy(), SUCCESS_POLICIES, out);
    if (job.replicas() == null) {
      out.add(error(Code.REQUIRED, REPLICA_SPECS, "Required value: must be required"));
      return out;
    }
    int chiefOrMaster = 0;
    for (Map.Entry<TfReplicaType, TfJobModel.Replica> e : job.replicas().entrySet()) {
      TfReplicaType type = e.getKey();
      TfJobModel.Replica replica = e.getValue();
      FieldPath at = REPLICA_SPECS.key(replica.key());
      ReplicaValidator.validateReplica(
          TfJob.FRAMEWORK, replica.key(), replica.spec(), RESERVED, out);
      if (type.chiefOrMaster()) {
        chiefOrMaster++;
        if (replica.count() != 1 && replica.count() >= 0) {
          // Two are no valid TensorFlow cluster; with none, UpdateJobStatus finds the job
          // complete at once (0 expected, 0 succeeded).
          out.add(
              error(
                  Code.INVALID,
                  at.child("replicas"),
                  "Invalid value: "
                      + replica.count()
                      + ": must be 1: the "
                      + type.lower()
                      + " is one task of TensorFlow's cluster, and its outcome is the job's"));
        }
      }
    }
    if (chiefOrMaster > 1) {
      out.add(
          error(
              Code.FORBIDDEN,
              REPLICA_SPECS,
              "Forbidden: must not have more than 1 Chief or Master role"));
    }
    validateOutcome(job, out);
    validateDecidingReplica(job, out);
    validateJobCarrier(job, out);
    validateTfConfigSize(job, out);
    validateGang(job, out);
    validateKueue(job, out);
    validateJobSet(job, out);
    return out;
  }

  /**
   * In the JobSet target, what the JobSet webhook and Kueue would refuse about the JobSet the job
   * becomes, a replicated Job per replica ({@link TfJobSetGenerator}).
   */
  private static void validateJobSet(TfJobModel job, List<Finding> out) {
    Map<String, Integer> counts = new LinkedHashMap<>();
    for (Map.Entry<TfReplicaType, TfJobModel.Replica> e : job.replicas().entrySet()) {
      counts.put(e.getKey().lower(), e.getValue().count());
    }
    ReplicaValidator.validateJobSet(
        job.options(), job.metadata(), counts, job.totalReplicas(), job.runPolicy(), out);
  }

  private static void validateName(TfJobModel job, List<Finding> out) {
    Map<String, Integer> counts = new LinkedHashMap<>();
    if (job.replicas() != null) {
      for (Map.Entry<TfReplicaType, TfJobModel.Replica> e : job.replicas().entrySet()) {
        counts.put(e.getKey().lower(), e.getValue().count());
      }
    }
    ReplicaValidator.validateName(
        job.metadata(), "every replica's host name in TF_CONFIG", counts, out);
  }

  /**
   * Every replica's TF_CONFIG lists every replica's address, and the kubelet passes it as one
   * environment variable: past Linux's limit for one (MAX_ARG_STRLEN) no replica's process starts.
   * Worked out from the counts and names before anything is built (upstream builds and fails at run
   * time, and so, with enough replicas, did jobc, out of memory).
   */
  private static void validateTfConfigSize(TfJobModel job, List<Finding> out) {
    if (job.name() == null || job.namespace() == null) {
      return;
    }
    TfJobModel.Replica biggest = null;
    for (TfJobModel.Replica r : job.replicas().values()) {
      if (r.count() < 0) {
        return; // reported above
      }
      boolean counts = !job.enableDynamicWorker() || r == job.replica(TfReplicaType.PS);
      if (counts && (biggest == null || r.count() > biggest.count())) {
        biggest = r;
      }
    }
    long longest = TfOutputSize.longestTfConfig(job);
    if (biggest == null || TfOutputSize.ENV_PREFIX + longest <= ApiLimits.ENV_STRING_BYTES) {
      return;
    }
    out.add(
        error(
            Code.INVALID,
            REPLICA_SPECS.key(biggest.key()).child("replicas"),
            "Invalid value: "
                + biggest.count()
                + ": TF_CONFIG lists the address of every "
                + (job.enableDynamicWorker() ? "PS" : "replica")
                + " ("
                + (job.enableDynamicWorker() ? biggest.count() : job.totalReplicas())
                + "): about "
                + ApiLimits.kib(longest)
                + " in each pod's environment, more than the "
                + ApiLimits.kib(ApiLimits.ENV_STRING_BYTES)
                + " Linux passes to a process in one variable (MAX_ARG_STRLEN), so no replica"
                + " could start"));
  }

  /**
   * {@code UpdateJobStatus} declares success only through a Chief or Master, or else through the
   * workers: a job with neither runs until its deadline, which upstream never says.
   */
  private static void validateOutcome(TfJobModel job, List<Finding> out) {
    if (job.hasChiefOrMaster()) {
      return;
    }
    TfJobModel.Replica worker = job.replica(TfReplicaType.WORKER);
    if (worker == null || worker.count() < 1) {
      out.add(
          error(
              Code.REQUIRED,
              worker == null ? REPLICA_SPECS : REPLICA_SPECS.key(worker.key()).child("replicas"),
              "Required value: a TFJob needs a Chief, a Master or at least one Worker: only they"
                  + " can complete it (training-operator's UpdateJobStatus), so the job would"
                  + " never finish"));
    }
  }

  /**
   * The deciding replica's pods get no automatic token ({@link ReplicaValidator#decidingToken}).
   */
  private static void validateDecidingReplica(TfJobModel job, List<Finding> out) {
    if (ReplicaJobSets.chosen(job.options())) {
      return; // no sidecar: the pods keep the token they ask for
    }
    for (Map.Entry<TfReplicaType, TfJobModel.Replica> e : job.replicas().entrySet()) {
      TfJobModel.Replica replica = e.getValue();
      if (TfJobPlanner.decides(job, e.getKey(), 0)) {
        ReplicaValidator.decidingToken(
            REPLICA_SPECS.key(replica.key()), replica.spec().template(), out);
      }
    }
  }

  /**
   * What a Job per replica (the default carrier) changes: an unset {@code backoffLimit} is
   * unlimited in training-operator ({@code PastBackoffLimit} returns false) but Kubernetes' default
   * of 6 for each Job; {@code ttlSecondsAfterFinished} deletes each Job once it has finished, which
   * a GitOps tool re-creates (and the replica runs again), and which with {@code AllWorkers} takes
   * away the finished Workers the last one decides from.
   */
  private static void validateJobCarrier(TfJobModel job, List<Finding> out) {
    boolean jobSet = ReplicaJobSets.chosen(job.options());
    if (!jobSet && job.options().get(OptionTable.WORKERS) == WorkerKind.PODS) {
      return;
    }
    RunPolicy run = job.runPolicy();
    if (run.backoffLimit() == null) {
      for (TfJobModel.Replica replica : job.replicas().values()) {
        String policy = replica.spec().restartPolicy();
        if (!"Never".equals(policy) && ReplicaValidator.RESTART_POLICIES.contains(policy)) {
          out.add(
              warning(
                  REPLICA_SPECS.key(replica.key()).child("restartPolicy"),
                  "runPolicy.backoffLimit is not set: training-operator then retries without"
                      + " limit, but this replica's Job takes Kubernetes' default backoffLimit of "
                      + DEFAULT_JOB_BACKOFF_LIMIT
                      + " and then fails; set runPolicy.backoffLimit to choose"));
        }
      }
    }
    Integer ttl = run.ttlSecondsAfterFinished();
    if (ttl == null || ttl < 0) {
      return;
    }
    FieldPath at = RUN_POLICY.child("ttlSecondsAfterFinished");
    if (jobSet) {
      out.add(ReplicaValidator.jobSetTtl(at, ttl));
      return;
    }
    if (!job.hasChiefOrMaster() && TfJob.ALL_WORKERS.equals(job.successPolicy())) {
      out.add(
          error(
              Code.FORBIDDEN,
              at,
              "Forbidden: with successPolicy AllWorkers the last Worker to finish decides the"
                  + " job's success from the other Workers' Jobs, which this deletes "
                  + ttl
                  + "s after each finishes: Workers finishing further apart would leave the job"
                  + " undecided; drop ttlSecondsAfterFinished"));
      return;
    }
    out.add(
        warning(
            at,
            "every replica's Job is deleted "
                + ttl
                + "s after it finishes; a GitOps tool that re-applies or self-heals (Argo CD,"
                + " Flux) re-creates it from Git and that replica runs again: drop"
                + " ttlSecondsAfterFinished, or delete the job from Git instead"));
  }

  private static void validateGang(TfJobModel job, List<Finding> out) {
    Map<FieldPath, PodTemplateSpec> templates = new LinkedHashMap<>();
    for (TfJobModel.Replica r : job.replicas().values()) {
      templates.put(REPLICA_SPECS.key(r.key()), r.spec().template());
    }
    ReplicaValidator.validateGang(
        job.options(), job.runPolicy(), job.totalReplicas(), templates, out);
  }

  /**
   * Kueue admits each Job as its own Workload: a TFJob carried by one Job per replica could be
   * admitted in part, its parameter servers holding quota while its workers wait, and two such jobs
   * can deadlock. As bare Pods, the replicas form one Kueue pod group and are admitted together.
   * So, as for an MPIJob, a queue name with Jobs is refused rather than copied.
   */
  static void validateKueue(TfJobModel job, List<Finding> out) {
    Map<String, String> labels = job.metadata().getLabels();
    if (job.options().get(OptionTable.WORKERS) == WorkerKind.PODS
        && !ReplicaJobSets.chosen(job.options())) {
      ReplicaKueue.needsPodIntegration(labels, out);
    }
    if (labels == null
        || !labels.containsKey(TfKueue.QUEUE_NAME)
        || job.options().get(OptionTable.WORKERS) == WorkerKind.PODS
        || ReplicaJobSets.chosen(job.options())
        || job.totalReplicas() < 2) {
      return;
    }
    out.add(
        error(
            Code.FORBIDDEN,
            FieldPath.of("metadata", "labels").key(TfKueue.QUEUE_NAME),
            "Forbidden: Kueue would admit each replica's Job as a separate Workload, which can"
                + " deadlock on quota (part of the job holding its share while the rest waits);"
                + " render with --workers pods (or annotate jobc.dev/workers: pods) to have Kueue"
                + " admit all replicas together as one pod group"));
  }
}
