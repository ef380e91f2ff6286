package dev.jobc.replica;

import static dev.jobc.diag.Finding.error;
import static dev.jobc.diag.Finding.warning;
import static dev.jobc.validate.FieldRules.nonNegative;
import static dev.jobc.validate.FieldRules.oneOf;

import dev.jobc.conventions.Naming;
import dev.jobc.conventions.ReplicaLabels;
import dev.jobc.diag.Code;
import dev.jobc.diag.FieldPath;
import dev.jobc.diag.Finding;
import dev.jobc.diag.Quoting;
import dev.jobc.jobset.JobSetRules;
import dev.jobc.k8s.GangScheduling;
import dev.jobc.model.ReplicaSpec;
import dev.jobc.model.RunPolicy;
import dev.jobc.model.SchedulingPolicy;
import dev.jobc.options.CompileOptions;
import dev.jobc.options.Dns;
import dev.jobc.options.OptionTable;
import dev.jobc.options.WorkerKind;
import dev.jobc.validate.JobNames;
import dev.jobc.validate.PodTemplateRules;
import dev.jobc.validate.ReservedNames;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The rules every kind of the family shares: those of training-operator v1.9.0's webhooks ({@code
 * pkg/webhooks/<kind>/*_webhook.go}: the name, {@code ValidateRunPolicy}'s {@code managedBy}, and
 * per replica containers and the kind's container, with their wording; the API server's pod rules,
 * an image on every container among them, through {@link PodTemplateRules}), and those the webhooks
 * forgot, whose breach upstream shows only at run time or never: names too long for the Services
 * every replica gets, negative counts and durations, unknown restart and clean-pod policies, names
 * jobc adds to a pod, and gang-scheduling settings that cannot work. A kind's validator adds its
 * own.
 */
public final class ReplicaValidator {
  public static final FieldPath RUN_POLICY = FieldPath.of("spec", "runPolicy");

  /** {@code supportedJobControllers} of {@code pkg/common/util/webhooks.go}. */
  public static final String TRAINING_OPERATOR = "kubeflow.org/training-operator";

  public static final String MULTIKUEUE = "kueue.x-k8s.io/multikueue";
  static final List<String> MANAGERS = List.of(TRAINING_OPERATOR, MULTIKUEUE);

  public static final List<String> RESTART_POLICIES =
      List.of("Always", "OnFailure", "Never", "ExitCode");
  static final List<String> CLEAN_POD_POLICIES = List.of("All", "Running", "None");

  /**
   * Most replicas jobc renders for one job: each is a pod, a Service and a Job of its own, and
   * their number is checked before any of them is built, so a typo cannot make a render run out of
   * memory.
   */
  public static final int MAX_REPLICAS = 10_000;

  private ReplicaValidator() {}

  /**
   * The shared rules.
   *
   * @param reservedInitContainers init container names the kind adds besides jobc's sidecar
   */
  public static List<Finding> validate(ReplicaJob job, Set<String> reservedInitContainers) {
    List<Finding> out = new ArrayList<>(job.findings());
    validateName(job, out);
    JobNames.namespace(job.namespace(), out);
    JobNames.queueName(job.metadata().getLabels(), out);
    validateRunPolicy(job.runPolicy(), out);
    if (job.replicas() == null) {
      out.add(
          error(
              Code.REQUIRED,
              job.framework().replicaSpecsPath(),
              "Required value: must be required"));
      return out;
    }
    Set<String> initContainers = new HashSet<>(reservedInitContainers);
    initContainers.add(Naming.SIDECAR);
    ReservedNames reserved =
        new ReservedNames(
            Set.of(Naming.SIDECAR_TMP_VOLUME, Naming.SIDECAR_TOKEN_VOLUME),
            Set.copyOf(initContainers),
            Set.of());
    for (ReplicaJob.Replica replica : job.each()) {
      validateReplica(job.framework(), replica.key(), replica.spec(), reserved, out);
    }
    validateTotal(job, out);
    validateGang(job, out);
    validateJobSet(job, out);
    if (!ReplicaJobSets.chosen(job.options())) {
      ReplicaKueue.needsPodIntegration(job.metadata().getLabels(), out);
    }
    return out;
  }

  /**
   * In the JobSet target, what the JobSet webhook and Kueue would refuse about the JobSet the job
   * becomes, a replicated Job per replica ({@link ReplicaJobSets}).
   */
  private static void validateJobSet(ReplicaJob job, List<Finding> out) {
    Map<String, Integer> counts = new LinkedHashMap<>();
    for (ReplicaJob.Replica r : job.each()) {
      counts.put(r.lower(), r.count());
    }
    validateJobSet(
        job.options(), job.metadata(), counts, job.totalReplicas(), job.runPolicy(), out);
  }

  /**
   * In the JobSet target, {@link JobSetRules#check} on the JobSet of a job named by {@code meta}
   * whose types have {@code counts} replicas ({@code total} in all), a replicated Job each, and its
   * queued {@code suspend}. TFJob's validator checks its JobSet here too.
   */
  public static void validateJobSet(
      CompileOptions options,
      ObjectMeta meta,
      Map<String, Integer> counts,
      int total,
      RunPolicy run,
      List<Finding> out) {
    if (!ReplicaJobSets.chosen(options) || meta == null || meta.getName() == null) {
      return;
    }
    JobSetRules.check(
        meta.getName(), ReplicaJobSets.shapes(counts), total, meta.getLabels(), options, out);
    JobSetRules.queuedSuspend(
        meta.getLabels(),
        run != null && Boolean.TRUE.equals(run.suspend()),
        RUN_POLICY.child("suspend"),
        out);
  }

  /**
   * The pods of {@code type}, which decide the job's outcome, run the jobc-sidecar ({@link
   * #decidingToken}); none when the job has no such replica.
   */
  public static void decidingToken(ReplicaJob job, String type, List<Finding> out) {
    ReplicaJob.Replica replica = job.replica(type);
    // The JobSet target runs no sidecar: the pods keep the token they ask for.
    if (replica != null && !ReplicaJobSets.chosen(job.options())) {
      decidingToken(at(job, replica), replica.spec().template(), out);
    }
  }

  /**
   * A deciding replica's pods run the jobc-sidecar, whose Role is bound to their ServiceAccount; so
   * that the job's own code gains none of its rights, the pod gets no automatic token and only the
   * sidecar mounts one. A template at {@code spec.<replicaSpecs>[<key>]} ({@code at}) that asks for
   * the token in every container is refused rather than overridden. TFJob's validator checks its
   * deciding replica here too.
   */
  public static void decidingToken(FieldPath at, PodTemplateSpec template, List<Finding> out) {
    PodSpec pod = template == null ? null : template.getSpec();
    if (pod == null || !Boolean.TRUE.equals(pod.getAutomountServiceAccountToken())) {
      return;
    }
    out.add(
        error(
            Code.FORBIDDEN,
            at.child("template").child("spec").child("automountServiceAccountToken"),
            "Forbidden: these pods decide the job's outcome and run the jobc-sidecar, whose"
                + " Role (patch on the job's replicas) is bound to their ServiceAccount; so"
                + " that the job's own containers get none of its rights, only the sidecar"
                + " mounts a token: drop this setting"));
  }

  /** {@code spec.<replicaSpecs>[<key>]} of {@code replica}. */
  public static FieldPath at(ReplicaJob job, ReplicaJob.Replica replica) {
    return job.framework().replicaSpecsPath().key(replica.key());
  }

  private static void validateTotal(ReplicaJob job, List<Finding> out) {
    long total = 0;
    ReplicaJob.Replica largest = null;
    for (ReplicaJob.Replica r : job.each()) {
      total += Math.max(r.count(), 0);
      if (largest == null || r.count() > largest.count()) {
        largest = r;
      }
    }
    if (total > MAX_REPLICAS) {
      out.add(
          error(
              Code.INVALID,
              at(job, largest).child("replicas"),
              "Invalid value: "
                  + largest.count()
                  + ": the job would have "
                  + total
                  + " replicas in all, more than the "
                  + MAX_REPLICAS
                  + " jobc renders for one job (each is a pod, a Service and a Job of its own)"));
    }
  }

  private static void validateName(ReplicaJob job, List<Finding> out) {
    Map<String, Integer> counts = new LinkedHashMap<>();
    for (ReplicaJob.Replica r : job.each()) {
      counts.put(r.lower(), r.count());
    }
    validateName(job.metadata(), "every replica's name and address", counts, out);
  }

  /**
   * The job's name: there, a DNS-1035 label (the webhooks' rule), and short enough for the Service
   * of every replica, of which there are {@code counts} per lower-case type. TFJob's validator
   * checks it here too.
   *
   * @param usedBy what the name becomes part of, for the message when it is missing
   */
  public static void validateName(
      ObjectMeta metadata, String usedBy, Map<String, Integer> counts, List<Finding> out) {
    String name = metadata.getName();
    if (!JobNames.named(name, metadata.getGenerateName(), usedBy, out)) {
      return;
    }
    List<String> problems = Dns.dns1035Label(name);
    if (!problems.isEmpty()) {
      // The webhooks' wording: NameIsDNS1035Label's messages joined by ",".
      out.add(JobNames.invalidName(name, "should match: " + String.join(",", problems)));
      return;
    }
    // Every replica's Service <job>-<type>-<i> must be a DNS-1035 label; upstream does not check,
    // and its Services then fail to be created.
    String longest = null;
    for (Map.Entry<String, Integer> e : counts.entrySet()) {
      String replica = ReplicaLabels.replica(name, e.getKey(), Math.max(e.getValue(), 1) - 1);
      if (longest == null || replica.length() > longest.length()) {
        longest = replica;
      }
    }
    if (longest != null && longest.length() > Dns.LABEL_MAX) {
      out.add(
          JobNames.invalidName(
              name,
              "the Service "
                  + Quoting.quote(longest)
                  + " would have "
                  + longest.length()
                  + " characters, more than the "
                  + Dns.LABEL_MAX
                  + " of a DNS label; shorten the name to at most "
                  + (Dns.LABEL_MAX - (longest.length() - name.length()))
                  + " characters"));
    }
  }

  /**
   * {@code ValidateRunPolicy}'s {@code managedBy}, and what the webhooks forgot: known clean-pod
   * policies, no negative counts or durations. TFJob's validator checks them here too.
   */
  public static void validateRunPolicy(RunPolicy run, List<Finding> out) {
    oneOf(RUN_POLICY.child("managedBy"), run.managedBy(), MANAGERS, out);
    oneOf(RUN_POLICY.child("cleanPodPolicy"), run.cleanPodPolicy(), CLEAN_POD_POLICIES, out);
    nonNegative(RUN_POLICY.child("backoffLimit"), run.backoffLimit(), out);
    nonNegative(RUN_POLICY.child("ttlSecondsAfterFinished"), run.ttlSecondsAfterFinished(), out);
    if (run.activeDeadlineSeconds() != null && run.activeDeadlineSeconds() <= 0) {
      out.add(
          error(
              Code.INVALID,
              RUN_POLICY.child("activeDeadlineSeconds"),
              "Invalid value: " + run.activeDeadlineSeconds() + ": must be greater than 0"));
    }
    SchedulingPolicy policy = run.schedulingPolicy();
    if (policy != null) {
      FieldPath p = RUN_POLICY.child("schedulingPolicy");
      nonNegative(p.child("minAvailable"), policy.minAvailable(), out);
      nonNegative(p.child("scheduleTimeoutSeconds"), policy.scheduleTimeoutSeconds(), out);
    }
  }

  /**
   * One replica spec, {@code spec.<replicaSpecs>[key]}: its count and restart policy, the kind's
   * container among its containers, the Service's ports, the names jobc adds to the pod ({@code
   * reserved}) and the API server's pod rules. TFJob's validator checks its replicas here too.
   */
  public static void validateReplica(
      Framework fw, String key, ReplicaSpec spec, ReservedNames reserved, List<Finding> out) {
    FieldPath at = fw.replicaSpecsPath().key(key);
    nonNegative(at.child("replicas"), spec.replicas(), out);
    oneOf(at.child("restartPolicy"), spec.restartPolicy(), RESTART_POLICIES, out);
    FieldPath podSpec = at.child("template").child("spec");
    FieldPath containersPath = podSpec.child("containers");
    String needsContainer =
        "Required value: must have at least one container with name "
            // PaddleJob's webhook alone quotes the name (%q).
            + (fw.kind().equals("PaddleJob") ? Quoting.quote(fw.container()) : fw.container());
    PodSpec pod = spec.template() == null ? null : spec.template().getSpec();
    List<Container> containers = pod == null ? null : pod.getContainers();
    if (containers == null || containers.isEmpty()) {
      out.add(error(Code.REQUIRED, containersPath, "Required value: must be specified"));
      out.add(error(Code.REQUIRED, containersPath, needsContainer));
      return;
    }
    boolean named = false;
    for (int i = 0; i < containers.size(); i++) {
      Container c = containers.get(i);
      if (c == null) {
        // no golden case: the schema check refuses a null container before binding
        out.add(error(Code.REQUIRED, containersPath.index(i), "Required value: must be specified"));
        continue;
      }
      named |= fw.container().equals(c.getName());
    }
    if (!named) {
      out.add(error(Code.REQUIRED, containersPath, needsContainer));
    }
    validateServicePorts(fw, containers, containersPath, out);
    if (containers.get(0) != null) {
      reserved.check(pod, podSpec, out);
    }
    // What the API server checks in a pod (an image on every container among them).
    PodTemplateRules.check(spec.template(), at.child("template"), reserved.volumes(), out);
    String restart = pod.getRestartPolicy();
    if (restart != null && !restart.isEmpty()) {
      // training-operator's warning event SetPodTemplateRestartPolicy, at render time.
      out.add(
          warning(
              podSpec.child("restartPolicy"),
              "Restart policy in pod template will be overwritten by restart policy in replica"
                  + " spec ("
                  + spec.restartPolicy()
                  + ")"));
    }
  }

  /**
   * Each replica's Service takes every port of the kind's first container of that name ({@code
   * GetPortsFromJob}), the default port included; the API server rejects a Service with more than
   * one port unless each has a name, and upstream's job then waits for ever for its Services.
   */
  private static void validateServicePorts(
      Framework fw, List<Container> containers, FieldPath containersPath, List<Finding> out) {
    for (int i = 0; i < containers.size(); i++) {
      Container c = containers.get(i);
      if (c == null || !fw.container().equals(c.getName())) {
        continue;
      }
      List<ContainerPort> ports = c.getPorts();
      if (ports != null && ports.size() > 1) {
        for (int p = 0; p < ports.size(); p++) {
          ContainerPort port = ports.get(p);
          if (port != null && (port.getName() == null || port.getName().isEmpty())) {
            out.add(
                error(
                    Code.REQUIRED,
                    containersPath.index(i).child("ports").index(p).child("name"),
                    "Required value: the replica's Service gets every port of the "
                        + fw.container()
                        + " container, "
                        + fw.portName()
                        + " included, and the API server rejects a Service with more than one"
                        + " port unless each has a name"));
          }
        }
      }
      return;
    }
  }

  private static void validateGang(ReplicaJob job, List<Finding> out) {
    Map<FieldPath, PodTemplateSpec> templates = new LinkedHashMap<>();
    for (ReplicaJob.Replica r : job.each()) {
      templates.put(at(job, r), r.spec().template());
    }
    validateGang(job.options(), job.runPolicy(), job.totalReplicas(), templates, out);
  }

  /**
   * Gang-scheduling settings that cannot work: a scheduling policy without a gang scheduler, a
   * {@code minAvailable} above the job's {@code pods}, a template (by its replica's path) naming
   * another scheduler. TFJob's validator checks them here too.
   */
  public static void validateGang(
      CompileOptions options,
      RunPolicy run,
      int pods,
      Map<FieldPath, PodTemplateSpec> templates,
      List<Finding> out) {
    String scheduler = options.get(OptionTable.GANG_SCHEDULER);
    SchedulingPolicy policy = run.schedulingPolicy();
    if (scheduler == null) {
      if (policy != null) {
        out.add(
            warning(
                RUN_POLICY.child("schedulingPolicy"),
                "ignored: no gang scheduler is set; pass --gang-scheduler volcano,"
                    + " scheduler-plugins or a scheduler name, or annotate the job with "
                    + GangScheduling.SCHEDULER_ANNOTATION));
      }
      return;
    }
    if (policy != null && policy.minAvailable() != null && policy.minAvailable() > pods) {
      out.add(
          warning(
              RUN_POLICY.child("schedulingPolicy").child("minAvailable"),
              policy.minAvailable()
                  + " is more than the job's "
                  + pods
                  + " pods: the gang can never be complete and every pod stays Pending"));
    }
    String name = GangScheduling.schedulerName(scheduler);
    templates.forEach(
        (at, template) -> {
          PodSpec pod = template == null ? null : template.getSpec();
          String given = pod == null ? null : pod.getSchedulerName();
          if (given != null && !given.isEmpty() && !given.equals(name)) {
            // training-operator keeps it, with the warning event below.
            out.add(
                warning(
                    at.child("template").child("spec").child("schedulerName"),
                    "Another scheduler is specified when gang-scheduling is enabled and it will"
                        + " not be overwritten: "
                        + Quoting.quote(given)
                        + " is kept, so these pods are not gang-scheduled by "
                        + Quoting.quote(name)));
          }
        });
  }

  /** Kubernetes' default {@code backoffLimit} of a Job. */
  static final int DEFAULT_JOB_BACKOFF_LIMIT = 6;

  /**
   * What a Job per replica (the default carrier) changes: an unset {@code backoffLimit} is
   * unlimited in training-operator ({@code PastBackoffLimit} returns false) but Kubernetes' default
   * of 6 for each Job; {@code ttlSecondsAfterFinished} deletes each Job once it has finished, which
   * a GitOps tool re-creates (and the replica runs again), and which takes away the finished
   * replicas from the last of several that must all succeed.
   *
   * @param allMustSucceed how many replicas must all succeed for the job to (the deciding ones when
   *     each counts, else 1)
   */
  public static void validateJobCarrier(ReplicaJob job, int allMustSucceed, List<Finding> out) {
    boolean jobSet = ReplicaJobSets.chosen(job.options());
    if (!jobSet
        && (job.options().get(OptionTable.WORKERS) == WorkerKind.PODS
            || job.metadata().getLabels() != null
                && job.metadata().getLabels().containsKey(ReplicaKueue.QUEUE_NAME))) {
      return;
    }
    RunPolicy run = job.runPolicy();
    if (run.backoffLimit() == null) {
      for (ReplicaJob.Replica replica : job.each()) {
        String policy = replica.spec().restartPolicy();
        if (!"Never".equals(policy) && RESTART_POLICIES.contains(policy)) {
          out.add(
              warning(
                  at(job, replica).child("restartPolicy"),
                  "runPolicy.backoffLimit is not set: training-operator then retries without"
                      + " limit, but this replica's Job fails after Kubernetes' default of "
                      + DEFAULT_JOB_BACKOFF_LIMIT
                      + " failed attempts; set runPolicy.backoffLimit to choose"));
        }
      }
    }
    Integer ttl = run.ttlSecondsAfterFinished();
    if (ttl == null || ttl < 0) {
      return;
    }
    FieldPath ttlPath = RUN_POLICY.child("ttlSecondsAfterFinished");
    if (jobSet) {
      out.add(jobSetTtl(ttlPath, ttl));
      return;
    }
    if (allMustSucceed > 1) {
      out.add(
          error(
              Code.FORBIDDEN,
              ttlPath,
              "Forbidden: the job succeeds once all of its "
                  + allMustSucceed
                  + " deciding replicas have, which the last to finish reads from the others'"
                  + " Jobs, and this deletes each Job "
                  + ttl
                  + "s after it finishes: replicas finishing further apart would leave the job"
                  + " undecided; drop ttlSecondsAfterFinished"));
      return;
    }
    out.add(
        warning(
            ttlPath,
            "every replica's Job is deleted "
                + ttl
                + "s after it finishes; a GitOps tool that re-applies or self-heals (Argo CD,"
                + " Flux) re-creates it from Git and that replica runs again: drop"
                + " ttlSecondsAfterFinished, or delete the job from Git instead"));
  }

  /**
   * In the JobSet target {@code ttlSecondsAfterFinished} (at {@code at}) deletes the JobSet, which
   * a GitOps tool re-creates from Git and so runs the whole job again. TFJob's validator warns here
   * too.
   */
  public static Finding jobSetTtl(FieldPath at, int ttl) {
    return warning(
        at,
        "the JobSet is deleted "
            + ttl
            + "s after it finishes; a GitOps tool that re-applies or self-heals (Argo CD, Flux)"
            + " re-creates it from Git and the whole job runs again: drop"
            + " ttlSecondsAfterFinished, or delete the job from Git instead");
  }

  /**
   * The replica of {@code type} must have at least one pod, or the job would complete at once (or
   * never): what {@code UpdateJobStatus} needs to decide it.
   *
   * @param why the end of the message: what the type's pods decide
   */
  public static void needsPods(ReplicaJob job, String type, String why, List<Finding> out) {
    ReplicaJob.Replica replica = job.replica(type);
    if (replica != null && replica.count() >= 1) {
      return;
    }
    if (replica != null && replica.count() < 0) {
      return; // already reported as negative
    }
    out.add(
        error(
            Code.REQUIRED,
            replica == null
                ? job.framework().replicaSpecsPath()
                : at(job, replica).child("replicas"),
            "Required value: a "
                + job.framework().kind()
                + " needs at least one "
                + type
                + " pod: "
                + why));
  }
}
