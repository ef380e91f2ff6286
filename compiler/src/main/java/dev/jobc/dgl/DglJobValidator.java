package dev.jobc.dgl;

import static dev.jobc.diag.Finding.error;
import static dev.jobc.validate.FieldRules.notSupported;

import dev.jobc.conventions.DglNaming;
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
import dev.jobc.options.WorkerKind;
import dev.jobc.validate.JobNames;
import dev.jobc.validate.PodTemplateRules;
import dev.jobc.validate.ReservedNames;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.PodSpec;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * Validates a defaulted DGLJob. dgl-operator validates nothing (its CRD has no enums); these are
 * the rules whose breach made it fail at run time, or never run at all: an unknown {@code
 * partitionMode}, a missing Worker spec (a nil-pointer panic when the partitioner copies the Worker
 * template), a launcher without containers, {@code --num-partitions} unequal to the worker count
 * (an assertion deep inside dglrun's Python tools), and names too long for the pods jobc derives.
 */
public final class DglJobValidator {
  static final FieldPath SPEC = FieldPath.of("spec");
  static final FieldPath REPLICA_SPECS = SPEC.child("dglReplicaSpecs");
  static final String NUM_PARTITIONS = "--num-partitions";

  private DglJobValidator() {}

  public static List<Finding> validate(DglJobModel job) {
    CompileOptions options = job.options();
    List<Finding> out = new ArrayList<>(job.findings());
    // Its phases would fit dependsOn (launcher; partitioner once the launcher is Ready; workers
    // once the partitioner is Complete), but dgl-operator's scripts reach pods by name.
    JobSetRules.refuse(
        job.options(),
        "DGLJob",
        "the partitioner copies the partitions into the launcher pod, and the launcher starts"
            + " the workers through kubectl exec, each by its pod name (<job>-launcher,"
            + " <job>-worker-<i>), which a JobSet's pods do not have (theirs end in a random"
            + " suffix)",
        out);
    PartitionMode mode = job.mode().orElse(null);
    validateMetadata(job, mode, options, out);
    if (job.slotsPerWorker() != null && job.slotsPerWorker() < 1) {
      out.add(
          error(
              Code.INVALID,
              SPEC.child("slotsPerWorker"),
              "Invalid value: " + job.slotsPerWorker() + ": must be greater than or equal to 1"));
    }
    if (mode == null) {
      out.add(
          notSupported(
              SPEC.child("partitionMode"), job.partitionMode(), PartitionMode.specNames()));
    }
    if (!List.of("All", "Running", "None").contains(job.cleanPodPolicy())) {
      out.add(
          notSupported(
              SPEC.child("cleanPodPolicy"),
              job.cleanPodPolicy(),
              List.of("All", "Running", "None")));
    }
    validateDistParMetis(job, mode, out);
    validateReplicaSpecs(job, mode, out);
    validateTokens(job, mode, out);
    if (mode != null && mode.hasWorkers()) {
      validateNumPartitions(job, out);
      validateConfigMapSize(job, out);
    }
    return out;
  }

  /**
   * The ConfigMap's hostfile has a line per worker: past Kubernetes' 1 MiB for a ConfigMap's data
   * the API server refuses it (dgl-operator fills it at run time and would fail then).
   */
  private static void validateConfigMapSize(DglJobModel job, List<Finding> out) {
    long bytes = DglOutputSize.configMapBytes(job);
    if (bytes > ApiLimits.CONFIG_MAP_BYTES) {
      out.add(
          error(
              Code.INVALID,
              REPLICA_SPECS.key(DglJob.WORKER).child("replicas"),
              "Invalid value: "
                  + job.workerReplicas()
                  + ": the ConfigMap "
                  + Naming.configMap(job.name())
                  + " would list every worker and outgrow Kubernetes' 1 MiB ConfigMap limit (about "
                  + bytes / 1024
                  + " KiB)"));
    }
  }

  private static void validateMetadata(
      DglJobModel job, PartitionMode mode, CompileOptions options, List<Finding> out) {
    String name = job.name();
    if (JobNames.named(name, job.metadata().getGenerateName(), "every pod and host name", out)) {
      // Every pod name is a host name under the job's Service, so each must be a DNS-1035 label;
      // dgl-operator never checked, and its pods then failed to be created. The name itself is
      // the Service's; the longest derived name is the one to report.
      Map<String, String> hosts = new LinkedHashMap<>();
      hosts.put(Naming.service(name), "the service");
      if (mode == null || mode.hasWorkers()) {
        hosts.put(
            Naming.workerPod(name, Math.max(job.workerReplicas(), 1) - 1), "the last worker pod");
      }
      if (mode == null || mode.hasPartitioner()) {
        hosts.put(DglNaming.partitioner(name), "the partitioner pod");
      }
      hosts.put(Naming.launcher(name), "the launcher pod");
      String host = name;
      for (String h : hosts.keySet()) {
        if (Dns.dns1035Label(name).isEmpty() && h.length() > host.length()) {
          host = h;
        }
      }
      List<String> problems = Dns.dns1035Label(host);
      boolean reported = !problems.isEmpty();
      if (reported) {
        out.add(
            JobNames.invalidName(
                name,
                hosts.get(host)
                    + " cannot be created with the invalid DNS label "
                    + Quoting.quote(host)
                    + ": "
                    + String.join("; ", problems)
                    + (host.length() > Dns.LABEL_MAX
                        ? "; shorten the name to at most "
                            + (Dns.LABEL_MAX - (host.length() - name.length()))
                            + " characters"
                        : "")));
      }
      if (!reported
          && (mode == null || mode.hasWorkers())
          && options.get(OptionTable.WORKERS) == WorkerKind.STATEFUL_SET) {
        JobNames.statefulSetFits(name, "render with --workers pods", out);
      }
    }
    JobNames.namespace(job.namespace(), out);
  }

  /**
   * DistParMETIS partitions on the workers, which no dglrun of dgl-operator (any commit up to
   * {@code 47bff27}, {@code python/dglrun/exec/dglrun}) can do: without {@code
   * DGL_OPERATOR_PHASE_ENV} it runs the launcher's phases 3-5, and phase 3 dispatches {@code
   * <workspace>/dataset/<graph>.json}, which only a partitioner writes. The job would fail once its
   * workers hold their resources, so the mode needs the user's word that the images implement it.
   */
  private static void validateDistParMetis(DglJobModel job, PartitionMode mode, List<Finding> out) {
    boolean declared = Boolean.TRUE.equals(job.distParMetisImage());
    if (mode == PartitionMode.DIST_PAR_METIS && !declared) {
      out.add(
          error(
              Code.INVALID,
              SPEC.child("partitionMode"),
              "Invalid value: \"DistParMETIS\": dgl-operator's dglrun cannot partition on the"
                  + " workers (its launcher phase 3 reads <workspace>/dataset/<graph>.json, which"
                  + " only a partitioner writes); use ParMETIS or DGL-API, or annotate the job "
                  + JobAnnotations.DIST_PARMETIS_IMAGE
                  + ": \"true\" when its images' dglrun implements DistParMETIS"));
    } else if (job.distParMetisImage() != null && mode != PartitionMode.DIST_PAR_METIS) {
      out.add(
          Finding.warning(
              FieldPath.of("metadata", "annotations").key(JobAnnotations.DIST_PARMETIS_IMAGE),
              "ignored: partitionMode is " + Quoting.quote(job.partitionMode())));
    }
  }

  private static void validateReplicaSpecs(DglJobModel job, PartitionMode mode, List<Finding> out) {
    if (job.replicaSpecs() == null) {
      out.add(error(Code.REQUIRED, REPLICA_SPECS, "Required value: must have replica specs"));
      return;
    }
    ReplicaSpec launcher = job.launcher();
    if (launcher == null) {
      out.add(
          error(
              Code.REQUIRED,
              REPLICA_SPECS.key(DglJob.LAUNCHER),
              "Required value: must have Launcher replica spec"));
    } else {
      if (!Objects.equals(launcher.replicas(), 1)) {
        out.add(
            error(
                Code.INVALID,
                REPLICA_SPECS.key(DglJob.LAUNCHER).child("replicas"),
                "Invalid value: " + launcher.replicas() + ": must be 1"));
      }
      validateTemplate(DglJob.LAUNCHER, launcher, launcherReserved(mode), out);
    }

    ReplicaSpec worker = job.worker();
    FieldPath workerPath = REPLICA_SPECS.key(DglJob.WORKER);
    if (mode == PartitionMode.SKIP) {
      if (worker != null) {
        out.add(
            Finding.warning(
                workerPath,
                "ignored: partitionMode Skip runs the launcher alone (dgl-operator never creates"
                    + " workers in Skip mode either)"));
      }
    } else if (worker == null) {
      out.add(
          error(
              Code.REQUIRED,
              workerPath,
              "Required value: partitionMode "
                  + job.partitionMode()
                  + " needs a Worker replica spec"
                  + (mode != null && mode.hasPartitioner()
                      ? "; the partitioner runs the Worker template"
                      : "")));
    } else {
      if (worker.replicas() == null) {
        out.add(
            error(
                Code.REQUIRED,
                workerPath.child("replicas"),
                "Required value: must define number of replicas"));
      } else if (worker.replicas() < 1) {
        out.add(
            error(
                Code.INVALID,
                workerPath.child("replicas"),
                "Invalid value: " + worker.replicas() + ": must be greater than or equal to 1"));
      }
      validateTemplate(DglJob.WORKER, worker, workerReserved(mode), out);
    }

    ReplicaSpec partitioner = job.partitioner();
    if (partitioner != null) {
      FieldPath p = REPLICA_SPECS.key(DglJob.PARTITIONER);
      if (mode != null && !mode.hasPartitioner()) {
        out.add(
            Finding.warning(
                p, "ignored: partitionMode " + job.partitionMode() + " runs no partitioner"));
      } else {
        if (partitioner.replicas() != null && partitioner.replicas() != 1) {
          out.add(
              error(
                  Code.INVALID,
                  p.child("replicas"),
                  "Invalid value: " + partitioner.replicas() + ": must be 1"));
        }
        if (partitioner.template() != null) {
          out.add(
              error(
                  Code.FORBIDDEN,
                  p.child("template"),
                  "Forbidden: the partitioner always runs the Worker template with the launcher's"
                      + " command and args (as dgl-operator does); remove this template"));
        }
      }
    }
  }

  /**
   * The launcher (unless in Skip mode) and the partitioner, which runs the Worker template, run
   * {@code kubexec.sh} ({@code kubectl exec}, {@code kubectl cp}) and the jobc-sidecar with the
   * ServiceAccount token Kubernetes mounts in every container; {@code automountServiceAccountToken:
   * false} takes it away, and they would fail with "Unauthorized" at run time.
   */
  private static void validateTokens(DglJobModel job, PartitionMode mode, List<Finding> out) {
    if (mode == null || job.replicaSpecs() == null) {
      return;
    }
    if (mode != PartitionMode.SKIP) {
      refuseNoToken(job.launcher(), DglJob.LAUNCHER, "the launcher runs", out);
    }
    if (mode.hasPartitioner()) {
      refuseNoToken(
          job.worker(), DglJob.WORKER, "the partitioner, made from this template, runs", out);
    }
  }

  private static void refuseNoToken(ReplicaSpec spec, String type, String who, List<Finding> out) {
    if (spec == null
        || spec.template() == null
        || spec.template().getSpec() == null
        || !Boolean.FALSE.equals(spec.template().getSpec().getAutomountServiceAccountToken())) {
      return;
    }
    out.add(
        error(
            Code.FORBIDDEN,
            REPLICA_SPECS
                .key(type)
                .child("template")
                .child("spec")
                .child("automountServiceAccountToken"),
            "Forbidden: "
                + who
                + " kubexec.sh (kubectl) and the jobc-sidecar with the ServiceAccount token that"
                + " this setting removes; drop it (or set it to true)"));
  }

  /**
   * What jobc adds to the launcher pod ({@link DglLauncherGenerator}): nothing in Skip mode, as
   * dgl-operator's {@code buildLauncherPod}; otherwise kubectl, the dataset, {@code /etc/dgl} and
   * the watchers.
   */
  static ReservedNames launcherReserved(PartitionMode mode) {
    if (mode == PartitionMode.SKIP) {
      return new ReservedNames(Set.of(), Set.of(), Set.of());
    }
    Set<String> inits = new TreeSet<>(Set.of(DglNaming.KUBECTL_DOWNLOAD, DglNaming.WORKER_WATCHER));
    if (mode == null || mode.hasPartitioner()) {
      inits.add(DglNaming.PARTITIONER_WATCHER);
    }
    return new ReservedNames(
        Set.of(
            DglNaming.KUBECTL_VOLUME,
            DglNaming.DATASET_VOLUME,
            DglNaming.IPCONFIG_VOLUME,
            DglNaming.CONFIG_VOLUME),
        inits,
        Set.of(
            DglNaming.KUBECTL_MOUNT,
            DglNaming.CONFIG_MOUNT,
            DglNaming.CONFIG_MOUNT + "/" + DglNaming.KUBEXEC,
            DglNaming.DATASET_MOUNT));
  }

  /**
   * What jobc adds to the pods that run the Worker template: workers ({@link DglWorkerGenerator})
   * get {@code /dev/shm} and {@code /etc/dgl}; the partitioner ({@link DglPartitionerGenerator}),
   * where the mode has one, also kubectl at {@code /opt/kube}. Nothing goes to {@code
   * /dgl_workspace/dataset} in either, so a user's volume there (the PVC that dglkerun's {@code
   * --pvc-partitioned-dir} shares between partitioner and workers) is the user's to mount.
   */
  static ReservedNames workerReserved(PartitionMode mode) {
    Set<String> volumes =
        new TreeSet<>(
            Set.of(DglNaming.SHM_VOLUME, DglNaming.CONFIG_VOLUME, DglNaming.IPCONFIG_VOLUME));
    Set<String> inits = new TreeSet<>(Set.of(DglNaming.RESOLVE_HOSTS));
    Set<String> mounts = new TreeSet<>(Set.of(DglNaming.SHM_MOUNT, DglNaming.CONFIG_MOUNT));
    if (mode == null || mode.hasPartitioner()) {
      volumes.add(DglNaming.KUBECTL_VOLUME);
      inits.addAll(Set.of(DglNaming.KUBECTL_DOWNLOAD, DglNaming.LAUNCHER_WAIT));
      mounts.add(DglNaming.KUBECTL_MOUNT);
    }
    return new ReservedNames(volumes, inits, mounts);
  }

  private static void validateTemplate(
      String type, ReplicaSpec spec, ReservedNames reserved, List<Finding> out) {
    FieldPath podSpec = REPLICA_SPECS.key(type).child("template").child("spec");
    PodSpec pod =
        spec.template() == null || spec.template().getSpec() == null
            ? null
            : spec.template().getSpec();
    if (pod == null || pod.getContainers() == null || pod.getContainers().isEmpty()) {
      out.add(
          error(
              Code.REQUIRED,
              podSpec.child("containers"),
              "Required value: must define at least one container"));
      return;
    }
    reserved.check(pod, podSpec, out);
    PodTemplateRules.check(
        spec.template(), REPLICA_SPECS.key(type).child("template"), reserved.volumes(), out);
    String restart = pod.getRestartPolicy();
    if (restart != null && !restart.isEmpty() && !restart.equals("Never")) {
      out.add(
          Finding.warning(
              podSpec.child("restartPolicy"),
              Quoting.quote(restart)
                  + " is replaced: dgl-operator runs every pod with restartPolicy Never"
                  + (DglJob.WORKER.equals(type)
                      ? " (and jobc's worker StatefulSet requires Always)"
                      : "")));
    }
  }

  /**
   * dglrun partitions into {@code --num-partitions} parts and dispatches one per hostfile line;
   * dispatch.py and launch.py assert the two are equal, after the partitioning has run. The flag is
   * read from the launcher's first container, command then args, as dglrun parses it.
   */
  private static void validateNumPartitions(DglJobModel job, List<Finding> out) {
    ReplicaSpec launcher = job.launcher();
    ReplicaSpec worker = job.worker();
    if (launcher == null
        || worker == null
        || worker.replicas() == null
        || worker.replicas() < 1
        || launcher.template() == null
        || launcher.template().getSpec() == null
        || launcher.template().getSpec().getContainers() == null
        || launcher.template().getSpec().getContainers().isEmpty()) {
      return;
    }
    Container main = launcher.template().getSpec().getContainers().get(0);
    FieldPath container =
        REPLICA_SPECS
            .key(DglJob.LAUNCHER)
            .child("template")
            .child("spec")
            .child("containers")
            .index(0);
    checkFlag(main.getCommand(), container.child("command"), worker.replicas(), out);
    checkFlag(main.getArgs(), container.child("args"), worker.replicas(), out);
  }

  private static void checkFlag(List<String> list, FieldPath path, int workers, List<Finding> out) {
    if (list == null) {
      return;
    }
    for (int i = 0; i < list.size(); i++) {
      if (!NUM_PARTITIONS.equals(list.get(i))) {
        continue;
      }
      if (i + 1 >= list.size()) {
        out.add(
            error(
                Code.REQUIRED,
                path.index(i),
                "Required value: "
                    + NUM_PARTITIONS
                    + " needs a value, the number of workers ("
                    + workers
                    + ")"));
        return;
      }
      String value = list.get(i + 1);
      String expected = Integer.toString(workers);
      if (!value.equals(expected)) {
        out.add(
            error(
                Code.INVALID,
                path.index(i + 1),
                "Invalid value: "
                    + Quoting.quote(value)
                    + ": "
                    + NUM_PARTITIONS
                    + " must equal spec.dglReplicaSpecs[Worker].replicas ("
                    + workers
                    + "): dglrun places one partition on each worker and fails after"
                    + " partitioning when they differ"));
      }
      i++;
    }
  }
}
