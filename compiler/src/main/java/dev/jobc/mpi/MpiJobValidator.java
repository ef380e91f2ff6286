package dev.jobc.mpi;

import static dev.jobc.diag.Finding.error;
import static dev.jobc.validate.FieldRules.atLeast;
import static dev.jobc.validate.FieldRules.nonNegative;
import static dev.jobc.validate.FieldRules.oneOf;

import dev.jobc.conventions.JobSetNames;
import dev.jobc.conventions.MpiEra;
import dev.jobc.conventions.MpiLabels;
import dev.jobc.conventions.Naming;
import dev.jobc.diag.Code;
import dev.jobc.diag.FieldPath;
import dev.jobc.diag.Finding;
import dev.jobc.diag.Quoting;
import dev.jobc.jobset.JobSetRules;
import dev.jobc.k8s.ApiLimits;
import dev.jobc.model.ReplicaSpec;
import dev.jobc.options.CompileOptions;
import dev.jobc.options.Dns;
import dev.jobc.options.JobAnnotations;
import dev.jobc.options.OptionTable;
import dev.jobc.options.Target;
import dev.jobc.options.Transport;
import dev.jobc.options.WorkerKind;
import dev.jobc.validate.JobNames;
import dev.jobc.validate.PodTemplateRules;
import dev.jobc.validate.ReservedNames;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.PodSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * Validates a defaulted MPIJob. Ports mpi-operator's {@code validation.ValidateMPIJob} (v2beta1:
 * same field paths, same error types, applied to every version with its own spelling) and adds what
 * upstream forgot or only found out at run time: {@code slotsPerWorker: 0}, a Worker without {@code
 * replicas}, names that break the StatefulSet's label limit, names jobc itself needs, jobs too
 * large for one ConfigMap or Role, and settings that need something jobc cannot generate.
 */
public final class MpiJobValidator {
  static final FieldPath SPEC = MpiPaths.SPEC;

  /** Kubernetes rejects objects over about 1.5 MiB (etcd); jobc stops at 1 MiB of names. */
  public static final long OBJECT_LIMIT = ApiLimits.CONFIG_MAP_BYTES;

  public static final int STATEFUL_SET_NAME_MAX = JobNames.STATEFUL_SET_NAME_MAX;

  private static final ReservedNames RESERVED =
      new ReservedNames(
          Naming.RESERVED_VOLUMES, Naming.RESERVED_INIT_CONTAINERS, Naming.RESERVED_MOUNTS);

  private MpiJobValidator() {}

  public static List<Finding> validate(MpiJobModel job) {
    List<Finding> out = new ArrayList<>(job.findings());
    validateMetadata(job, out);
    validateSpec(job, out);
    validateReplicaSpecs(job, out);
    validateTransport(job, out);
    validateLauncherToken(job, out);
    validateKueue(job, out);
    warnAboutSshd(job, out);
    warnAboutTtl(job, out);
    KubexecSessions.validate(job, out);
    validateSuspend(job, out);
    GangValidator.validate(job, out);
    return out;
  }

  private static void validateMetadata(MpiJobModel job, List<Finding> out) {
    String name = job.name();
    if (JobNames.named(name, job.metadata().getGenerateName(), "every host name", out)) {
      if (jobSet(job)) {
        validateJobSetNames(job, out);
      } else {
        validatePlainNames(job, out);
      }
    }
    JobNames.namespace(job.namespace(), out);
    JobNames.queueName(job.metadata().getLabels(), out);
  }

  /** mpi-operator's rules on the names of the plain target's pods, Service and StatefulSet. */
  private static void validatePlainNames(MpiJobModel job, List<Finding> out) {
    String name = job.name();
    // mpi-operator validates the longest pod host name, <name>-worker-<n-1>; it covers
    // <name>-launcher and the Service <name> too.
    String host = Naming.workerPod(name, Math.max(job.maxWorkers(), 1) - 1);
    List<String> problems = Dns.dns1035Label(host);
    if (!problems.isEmpty()) {
      out.add(
          JobNames.invalidName(
              name,
              "pods and the service cannot be created with the invalid DNS label "
                  + Quoting.quote(host)
                  + ": "
                  + String.join("; ", problems)));
    } else if (!Dns.dns1035Label(name).isEmpty()) {
      // The headless Service is named after the job: "pi-" makes valid pod host names but no
      // Service (upstream checks only the host name and fails at run time).
      out.add(
          JobNames.invalidName(
              name,
              "the service cannot be created with the invalid DNS label "
                  + Quoting.quote(name)
                  + ": "
                  + String.join("; ", Dns.dns1035Label(name))));
    } else if (job.options().get(OptionTable.WORKERS) == WorkerKind.STATEFUL_SET) {
      JobNames.statefulSetFits(name, "use --workers pods", out);
    }
  }

  /**
   * The JobSet webhook's rules on the names the JobSet's children get, and the Service named after
   * it.
   */
  private static void validateJobSetNames(MpiJobModel job, List<Finding> out) {
    String name = job.name();
    if (!Dns.dns1035Label(name).isEmpty()) {
      // The JobSet's headless Service is named after it (its default subdomain), as the plain
      // target's is after the job.
      out.add(
          JobNames.invalidName(
              name,
              "the JobSet's service cannot be created with the invalid DNS label "
                  + Quoting.quote(name)
                  + ": "
                  + String.join("; ", Dns.dns1035Label(name))));
    } else {
      List<JobSetRules.Shape> shape = jobSetShape(job);
      JobSetRules.check(name, shape, shape.size(), job.metadata().getLabels(), job.options(), out);
      JobSetRules.queuedSuspend(
          job.metadata().getLabels(), job.suspend(), MpiPaths.RUN_POLICY.child("suspend"), out);
    }
  }

  /**
   * The JobSet's replicated Jobs as {@link MpiJobSetGenerator} makes them: the Indexed worker Job
   * (with as many pods as the job may scale to), then the launcher's.
   */
  static List<JobSetRules.Shape> jobSetShape(MpiJobModel job) {
    List<JobSetRules.Shape> shape = new ArrayList<>(2);
    if (job.workerReplicas() > 0) {
      shape.add(new JobSetRules.Shape(MpiLabels.WORKER, job.maxWorkers(), true));
    }
    shape.add(new JobSetRules.Shape(MpiLabels.LAUNCHER, 1, true));
    return shape;
  }

  static boolean jobSet(MpiJobModel job) {
    return job.options().get(OptionTable.TARGET) == Target.JOB_SET;
  }

  private static void validateSpec(MpiJobModel job, List<Finding> out) {
    MpiPaths paths = job.paths();
    FieldPath runPolicy = MpiPaths.RUN_POLICY;
    if (job.slotsPerWorker() != null && job.slotsPerWorker() < 1) {
      // Upstream accepts 0 and writes "slots=0", which MPI rejects at run time.
      out.add(atLeast(SPEC.child("slotsPerWorker"), job.slotsPerWorker(), 1));
    }
    oneOf(paths.cleanPodPolicy(), job.cleanPodPolicy(), List.of("All", "None", "Running"), out);
    nonNegative(paths.ttlSecondsAfterFinished(), job.ttlSecondsAfterFinished(), out);
    nonNegative(paths.activeDeadlineSeconds(), job.activeDeadlineSeconds(), out);
    nonNegative(paths.backoffLimit(), job.backoffLimit(), out);
    if (!List.of("OpenMPI", "Intel", "MPICH").contains(job.implementation())) {
      oneOf(
          paths.implementation(),
          job.implementation(),
          job.era() == MpiEra.V1ALPHA2
              ? List.of("IntelMPI", "MPICH", "OpenMPI")
              : List.of("Intel", "MPICH", "OpenMPI"),
          out);
    }
    if (job.era() == MpiEra.V2BETA1) {
      if (job.managedBy() != null) {
        oneOf(
            runPolicy.child("managedBy"),
            job.managedBy(),
            List.of("kubeflow.org/mpi-operator", "kueue.x-k8s.io/multikueue"),
            out);
      }
      oneOf(
          SPEC.child("launcherCreationPolicy"),
          job.launcherCreationPolicy(),
          List.of("AtStartup", "WaitForWorkersReady"),
          out);
      // The JobSet target always creates the launcher once every worker is Ready (dependsOn).
      if ("WaitForWorkersReady".equals(job.launcherCreationPolicy()) && !jobSet(job)) {
        // mpi-operator v0.8.2 (mpi_job_controller.go syncHandler) creates the launcher Job only
        // once every worker pod is Ready; with no controller, the Job is applied with the rest.
        out.add(
            Finding.warning(
                SPEC.child("launcherCreationPolicy"),
                "WaitForWorkersReady: mpi-operator creates the launcher Job only once every worker"
                    + " is Ready; jobc creates it with the workers, so the launcher pod is"
                    + " scheduled at once and its resource requests are held while the workers"
                    + " start. Only its main container waits until every worker is Ready (the"
                    + " jobc-sidecar's startup probe), as with AtStartup"));
        if (job.activeDeadlineSeconds() != null) {
          // The launcher Job's deadline counts from the Job's start (the Job controller's
          // status.startTime), which mpi-operator delays until the workers are Ready.
          out.add(
              Finding.warning(
                  job.paths().activeDeadlineSeconds(),
                  "counts the workers' start-up too: the launcher Job starts with the workers"
                      + " (mpi-operator starts it, and its deadline, once every worker is Ready"
                      + " under WaitForWorkersReady); allow for the start-up, or leave it out"));
        }
      }
    }
    if (job.mainContainer() != null && !Dns.dns1123Label(job.mainContainer()).isEmpty()) {
      out.add(
          error(
              Code.INVALID,
              SPEC.child("mainContainer"),
              "Invalid value: "
                  + Quoting.quote(job.mainContainer())
                  + ": "
                  + String.join("; ", Dns.dns1123Label(job.mainContainer()))));
    }
  }

  private static void validateReplicaSpecs(MpiJobModel job, List<Finding> out) {
    MpiPaths paths = job.paths();
    if (job.replicaSpecs() == null) {
      if (job.era() == MpiEra.V1ALPHA1) {
        out.add(
            error(Code.REQUIRED, SPEC.child("template"), "Required value: must have a template"));
      } else {
        out.add(
            error(
                Code.REQUIRED, MpiPaths.REPLICA_SPECS, "Required value: must have replica specs"));
      }
      return;
    }
    ReplicaSpec launcher = job.launcher();
    if (launcher == null) {
      out.add(
          error(
              Code.REQUIRED, paths.launcher(), "Required value: must have Launcher replica spec"));
    } else {
      if (!Objects.equals(launcher.replicas(), 1)) {
        out.add(
            error(
                Code.INVALID,
                paths.launcher().child("replicas"),
                "Invalid value: " + launcher.replicas() + ": must be 1"));
      }
      validateReplica(job, MpiJob.LAUNCHER, launcher, out);
    }
    ReplicaSpec worker = job.worker();
    if (worker != null) {
      FieldPath p = paths.worker();
      if (worker.replicas() == null) {
        // Upstream defaults a missing count to 0 and then says "must be greater than or equal
        // to 1"; say what is actually wrong. (v1alpha1 reports its packing error instead.)
        if (job.era() != MpiEra.V1ALPHA1) {
          out.add(
              error(
                  Code.REQUIRED,
                  p.child("replicas"),
                  "Required value: must define number of replicas"));
        }
      } else if (worker.replicas() < 1) {
        out.add(atLeast(p.child("replicas"), worker.replicas(), 1));
      }
      // v1alpha1 shares one template between the roles: report its problems once.
      if (job.era() != MpiEra.V1ALPHA1) {
        validateReplica(job, MpiJob.WORKER, worker, out);
      }
    }
    if (job.mainContainer() != null && worker != null && containers(worker) != null) {
      boolean found =
          containers(worker).stream().anyMatch(c -> job.mainContainer().equals(c.getName()));
      if (!found) {
        out.add(
            error(
                Code.INVALID,
                SPEC.child("mainContainer"),
                "Invalid value: "
                    + Quoting.quote(job.mainContainer())
                    + ": no container of that name in the Worker template (have: "
                    + containers(worker).stream()
                        .map(c -> c.getName() == null ? "" : Quoting.quote(c.getName()))
                        .collect(Collectors.joining(", "))
                    + ")"));
      }
    }
    validateElastic(job, out);
    validateSizes(job, out);
  }

  private static void validateReplica(
      MpiJobModel job, String type, ReplicaSpec spec, List<Finding> out) {
    FieldPath p = job.paths().replica(type);
    List<String> restart =
        job.era() == MpiEra.V2BETA1 || MpiJob.LAUNCHER.equals(type)
            ? List.of("Never", "OnFailure")
            : List.of("Always", "ExitCode", "Never", "OnFailure");
    if (job.era() != MpiEra.V1ALPHA1) {
      oneOf(p.child("restartPolicy"), spec.restartPolicy(), restart, out);
    }
    List<Container> containers = containers(spec);
    FieldPath podSpec = p.child("template").child("spec");
    if (containers == null || containers.isEmpty()) {
      out.add(
          error(
              Code.REQUIRED,
              podSpec.child("containers"),
              "Required value: must define at least one container"));
      return;
    }
    PodSpec pod = spec.template().getSpec();
    RESERVED.check(pod, podSpec, out);
    PodTemplateRules.check(spec.template(), p.child("template"), RESERVED.volumes(), out);
    String templateRestart = pod.getRestartPolicy();
    if (job.era() != MpiEra.V1ALPHA1 && templateRestart != null && !templateRestart.isEmpty()) {
      String effective =
          !MpiJob.WORKER.equals(type)
              ? spec.restartPolicy()
              : jobSet(job)
                  ? MpiJobSetGenerator.workerRestartPolicy(spec.restartPolicy())
                  : job.options().get(OptionTable.WORKERS) == WorkerKind.STATEFUL_SET
                      ? "Always"
                      : spec.restartPolicy();
      if (!templateRestart.equals(effective)) {
        // mpi-operator overrides it too, with a Warning event; say so at compile time.
        out.add(
            Finding.warning(
                podSpec.child("restartPolicy"),
                Quoting.quote(templateRestart)
                    + " is replaced by "
                    + Quoting.quote(effective)
                    + ("Always".equals(effective) && MpiJob.WORKER.equals(type)
                        ? " (worker pods belong to a StatefulSet, which requires Always)"
                        : MpiJob.WORKER.equals(type) && jobSet(job)
                            ? " (in target jobset worker pods belong to a Job, which restarts"
                                + " them with OnFailure or Never)"
                            : " from " + p.child("restartPolicy"))));
      }
    }
  }

  /**
   * {@code jobc.dev/max-replicas}: how far the workers (the StatefulSet, or in the JobSet target
   * the worker Job) may be scaled at run time.
   */
  private static void validateElastic(MpiJobModel job, List<Finding> out) {
    if (job.maxReplicas() == null) {
      return;
    }
    FieldPath path = FieldPath.of("metadata", "annotations").key(JobAnnotations.MAX_REPLICAS);
    if (job.worker() == null) {
      out.add(
          error(
              Code.FORBIDDEN,
              path,
              "Forbidden: a job without a Worker replica spec has no workers to scale"));
    } else if (job.options().get(OptionTable.WORKERS) == WorkerKind.PODS && !jobSet(job)) {
      // In the JobSet target --workers is ignored: the worker Job carries the workers.
      out.add(
          error(
              Code.FORBIDDEN,
              path,
              "Forbidden: scaling at run time needs StatefulSet workers; bare Pods"
                  + " (--workers pods) are fixed at render time"));
    } else if (job.maxReplicas() < job.workerReplicas()) {
      out.add(
          error(
              Code.INVALID,
              path,
              "Invalid value: \""
                  + job.maxReplicas()
                  + "\": must be at least the initial worker replicas ("
                  + job.workerReplicas()
                  + ")"));
    }
  }

  /**
   * The hostfile and discover_hosts.sh grow by one line per worker, the Role by one name per worker
   * it may exec into; estimate their size with arithmetic (never by rendering a billion lines) and
   * stop before Kubernetes would.
   */
  private static void validateSizes(MpiJobModel job, List<Finding> out) {
    String name = job.name();
    if (name == null || job.namespace() == null) {
      return;
    }
    long workers = job.workerReplicas();
    if (workers > 0) {
      long estimate = configMapBytes(job);
      if (estimate > ApiLimits.CONFIG_MAP_BYTES) {
        out.add(
            error(
                Code.INVALID,
                job.paths().workerCount(),
                "Invalid value: "
                    + (job.workerTotal() == null
                        ? workers + ":"
                        : job.workerTotal() + ": " + workers + " workers, and")
                    + " the ConfigMap "
                    + Naming.configMap(name)
                    + " would list every worker and outgrow Kubernetes' 1 MiB object limit"
                    + " (about "
                    + estimate / 1024
                    + " KiB)"));
        return;
      }
    }
    long max = job.maxWorkers();
    // The JobSet target's Role names no pods.
    if (max > workers && !jobSet(job)) {
      long estimate = max * (Naming.workerPod(name, (int) max - 1).length() + 4L) + 4096;
      if (estimate > OBJECT_LIMIT) {
        out.add(
            error(
                Code.INVALID,
                FieldPath.of("metadata", "annotations").key(JobAnnotations.MAX_REPLICAS),
                "Invalid value: \""
                    + max
                    + "\": the Role "
                    + Naming.launcher(name)
                    + " would name every worker and outgrow Kubernetes' 1 MiB object limit"));
      }
    }
  }

  /**
   * About the size of the ConfigMap's data: a hostfile line ("{@code <host> slots=N}") and a
   * discover_hosts.sh line per worker, the last worker's host name the longest, and 4 KiB for
   * kubexec.sh; 0 without workers, a name or a namespace.
   */
  static long configMapBytes(MpiJobModel job) {
    long workers = job.workerReplicas();
    if (workers <= 0 || job.name() == null || job.namespace() == null) {
      return 0;
    }
    int index = (int) Math.min(workers - 1, Integer.MAX_VALUE);
    String last =
        jobSet(job)
            ? JobSetNames.host(job.name(), MpiLabels.WORKER, 0, index)
            : Naming.workerPod(job.name(), index);
    long host =
        Naming.fqdn(
                last, job.name(), job.namespace(), job.options().get(OptionTable.CLUSTER_DOMAIN))
            .length();
    return workers * (2 * host + 24) + 4096;
  }

  /** SSH needs keys, and jobc never generates key material: they must come from a Secret. */
  private static void validateTransport(MpiJobModel job, List<Finding> out) {
    CompileOptions options = job.options();
    if (options.get(OptionTable.TRANSPORT) == Transport.SSH
        && options.get(OptionTable.SSH_SECRET) == null) {
      out.add(
          error(
              Code.REQUIRED,
              FieldPath.of("metadata", "annotations").key(JobAnnotations.SSH_SECRET),
              "Required value: the ssh transport mounts the keys of an existing Secret (type"
                  + " kubernetes.io/ssh-auth, keys ssh-privatekey and ssh-publickey); name it"
                  + " with --ssh-secret NAME or the annotation jobc.dev/ssh-secret. jobc never"
                  + " generates keys: create the Secret with Sealed Secrets or External Secrets"
                  + " (docs/mpijob.md#ssh-transport)"));
    }
  }

  /**
   * {@code kubexec.sh} runs {@code kubectl exec} in the launcher's main container with the
   * ServiceAccount token Kubernetes mounts there; {@code automountServiceAccountToken: false} on
   * the launcher template takes it away, and every launch would fail with "Unauthorized" at run
   * time. Under ssh the main container needs no token, and the sidecar gets a projected one of its
   * own ({@link dev.jobc.k8s.SidecarContainer#tokenVolume}). A ServiceAccount that turns the token
   * off cannot be seen here (the pod's setting wins over the ServiceAccount's).
   */
  private static void validateLauncherToken(MpiJobModel job, List<Finding> out) {
    ReplicaSpec launcher = job.launcher();
    if (job.options().get(OptionTable.TRANSPORT) != Transport.KUBEXEC
        || launcher == null
        || launcher.template() == null
        || launcher.template().getSpec() == null
        || !Boolean.FALSE.equals(launcher.template().getSpec().getAutomountServiceAccountToken())) {
      return;
    }
    out.add(
        error(
            Code.FORBIDDEN,
            job.paths()
                .launcher()
                .child("template")
                .child("spec")
                .child("automountServiceAccountToken"),
            "Forbidden: kubexec.sh runs kubectl exec in the launcher's main container with the"
                + " ServiceAccount token that this setting removes; drop it (or set it to true),"
                + " or use --transport ssh, where only the jobc-sidecar needs a token and gets"
                + " its own"));
  }

  /**
   * Kueue admits each object it manages as its own Workload (Kueue v0.19.2): the launcher Job
   * through its Job integration, the worker StatefulSet as a pod group of its own, and pods owned
   * by a Job never join a plain pod group ({@code pkg/controller/jobs/pod/pod_webhook.go}); a
   * prebuilt Workload must match its one job's pod sets ({@code jobframework} {@code
   * ensurePrebuiltWorkloadInSync}). Launcher and workers queued separately can each hold quota
   * while waiting for the other, so a queue name is refused rather than copied.
   */
  private static void validateKueue(MpiJobModel job, List<Finding> out) {
    var labels = job.metadata().getLabels();
    // The JobSet target's JobSet is one Workload (JobSetRules checks its pod sets).
    if (labels == null || !labels.containsKey(MpiLabels.KUEUE_QUEUE_NAME) || jobSet(job)) {
      return;
    }
    out.add(
        error(
            Code.FORBIDDEN,
            FieldPath.of("metadata", "labels").key(MpiLabels.KUEUE_QUEUE_NAME),
            "Forbidden: Kueue would admit the launcher Job and the workers as separate"
                + " Workloads, which can deadlock on quota (each holding its share while the other"
                + " waits); jobc cannot render them as one Workload. Remove the label, or let"
                + " mpi-operator run this MPIJob under Kueue's MPIJob integration"
                + " (docs/scheduling.md#kueue)"));
  }

  /**
   * {@code ttlSecondsAfterFinished} deletes the finished launcher Job; Argo CD (self-heal) and Flux
   * re-create a deleted object from Git, and the job runs again.
   */
  private static void warnAboutTtl(MpiJobModel job, List<Finding> out) {
    if (job.ttlSecondsAfterFinished() == null || job.ttlSecondsAfterFinished() < 0) {
      return;
    }
    out.add(
        Finding.warning(
            job.paths().ttlSecondsAfterFinished(),
            (jobSet(job) ? "the JobSet is deleted " : "the launcher Job is deleted ")
                + job.ttlSecondsAfterFinished()
                + "s after it finishes; a GitOps tool that re-applies or self-heals (Argo CD,"
                + " Flux) re-creates it from Git and the job runs again: drop"
                + " ttlSecondsAfterFinished, or delete the job from Git instead"));
  }

  /**
   * mpi-operator v0.8.2 creates no worker pod while the MPIJob is suspended and creates them on
   * resumption. Without an operator, the launcher's sidecar scales the worker StatefulSet up when
   * the Job is resumed; bare worker Pods cannot be created then (nothing holds their template).
   */
  private static void validateSuspend(MpiJobModel job, List<Finding> out) {
    if (job.suspend()
        && job.maxWorkers() > 0
        && job.options().get(OptionTable.WORKERS) == WorkerKind.PODS
        && !jobSet(job)) {
      out.add(
          error(
              Code.INVALID,
              MpiPaths.RUN_POLICY.child("suspend"),
              "Invalid value: true: a suspended job needs StatefulSet workers (--workers"
                  + " statefulset): it starts with none, and only a StatefulSet can be scaled up"
                  + " when the Job is resumed; bare worker Pods would run while it is suspended"));
    }
  }

  /**
   * mpi-operator v2beta1 images start {@code sshd} on workers, keyed by the Secret the operator
   * generated. Under the kubexec transport nothing provides those keys, so sshd would exit and the
   * worker crash-loop: {@link WorkerTemplates} runs the idle command instead, and this says so.
   */
  private static void warnAboutSshd(MpiJobModel job, List<Finding> out) {
    ReplicaSpec worker = job.worker();
    if (job.options().get(OptionTable.TRANSPORT) != Transport.KUBEXEC
        || job.era() == MpiEra.V1ALPHA1
        || worker == null
        || containers(worker) == null
        || containers(worker).isEmpty()) {
      return;
    }
    Container main = containers(worker).get(0);
    WorkerTemplates.SshdWord sshd = WorkerTemplates.sshdWord(main);
    if (sshd == null) {
      return;
    }
    List<String> dropped = new ArrayList<>();
    if (WorkerTemplates.probesPort(main.getReadinessProbe())) {
      dropped.add("readinessProbe");
    }
    if (WorkerTemplates.probesPort(main.getLivenessProbe())) {
      dropped.add("livenessProbe");
    }
    if (WorkerTemplates.probesPort(main.getStartupProbe())) {
      dropped.add("startupProbe");
    }
    out.add(
        Finding.warning(
            job.paths()
                .worker()
                .child("template")
                .child("spec")
                .child("containers")
                .index(0)
                .child(sshd.field())
                .index(sshd.index()),
            "workers start sshd, but the kubexec transport reaches them with kubectl exec and"
                + " nothing provides the SSH keys mpi-operator generated for sshd (it would exit"
                + " and the worker crash-loop); jobc runs \"sleep 365d\" instead"
                + (dropped.isEmpty()
                    ? ""
                    : " and drops the "
                        + String.join(" and ", dropped)
                        + " on a port, which nothing would answer")
                + ". To keep sshd, use --transport ssh with an existing Secret"));
  }

  private static List<Container> containers(ReplicaSpec spec) {
    if (spec.template() == null || spec.template().getSpec() == null) {
      return null;
    }
    return spec.template().getSpec().getContainers();
  }
}
