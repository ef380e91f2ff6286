package dev.jobc.validate;

import static dev.jobc.diag.Finding.error;

import dev.jobc.CompileOptions;
import dev.jobc.api.MpiEra;
import dev.jobc.api.MpiJob;
import dev.jobc.api.MpiJobModel;
import dev.jobc.api.ReplicaSpec;
import dev.jobc.diag.Code;
import dev.jobc.diag.FieldPath;
import dev.jobc.diag.Finding;
import dev.jobc.plan.Naming;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Volume;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * Validates a defaulted MPIJob. Ports mpi-operator's {@code validation.ValidateMPIJob} (v2beta1:
 * same field paths, same error types) and adds what upstream forgot or only found out at run time:
 * {@code slotsPerWorker: 0}, a Worker without {@code replicas}, names that break the StatefulSet's
 * label limit, names jobc itself needs, and jobs too large for one ConfigMap.
 */
public final class MpiJobValidator {
  static final FieldPath NAME = FieldPath.of("metadata", "name");
  static final FieldPath SPEC = FieldPath.of("spec");
  static final FieldPath REPLICA_SPECS = SPEC.child("mpiReplicaSpecs");

  /** Kubernetes rejects ConfigMaps whose data exceeds 1 MiB (etcd object limit headroom). */
  public static final long CONFIG_MAP_LIMIT = 1024 * 1024;

  /**
   * The StatefulSet controller labels each pod {@code controller-revision-hash: <set name>-<hash of
   * up to 10 chars>}; a label value has at most 63 characters, so longer set names create no pods
   * at all (kubernetes/kubernetes#64023).
   */
  public static final int STATEFUL_SET_NAME_MAX = 52;

  private MpiJobValidator() {}

  public static List<Finding> validate(MpiJobModel job, CompileOptions options) {
    String clusterDomain = options.clusterDomain();
    List<Finding> out = new ArrayList<>();
    validateMetadata(job, out);
    validateSpec(job, out);
    validateReplicaSpecs(job, clusterDomain, out);
    warnAboutSshd(job, options, out);
    return out;
  }

  private static void validateMetadata(MpiJobModel job, List<Finding> out) {
    String name = job.name();
    if (name == null || name.isEmpty()) {
      String detail =
          job.metadata().getGenerateName() != null
              ? "generateName is not supported: the name is part of every host name, so it must be"
                  + " known when rendering"
              : "Required value: name is required";
      out.add(error(Code.REQUIRED, NAME, detail));
    } else {
      // mpi-operator validates the longest pod host name, <name>-worker-<n-1>; it covers
      // <name>-launcher and the Service <name> too.
      String host = Naming.workerPod(name, Math.max(job.workerReplicas(), 1) - 1);
      List<String> problems = Dns.dns1035Label(host);
      if (!problems.isEmpty()) {
        out.add(
            error(
                Code.INVALID,
                NAME,
                "Invalid value: \""
                    + name
                    + "\": pods and the service cannot be created with the invalid DNS label \""
                    + host
                    + "\": "
                    + String.join("; ", problems)));
      } else if (Naming.workerSet(name).length() > STATEFUL_SET_NAME_MAX) {
        out.add(
            error(
                Code.INVALID,
                NAME,
                "Invalid value: \""
                    + name
                    + "\": the worker StatefulSet \""
                    + Naming.workerSet(name)
                    + "\" would have "
                    + Naming.workerSet(name).length()
                    + " characters; Kubernetes creates no pods for StatefulSets over "
                    + STATEFUL_SET_NAME_MAX
                    + " (the controller-revision-hash label must fit 63); shorten the name to at"
                    + " most "
                    + (STATEFUL_SET_NAME_MAX - Naming.WORKER_SUFFIX.length())
                    + " characters"));
      }
    }
    FieldPath nsPath = FieldPath.of("metadata", "namespace");
    if (job.namespace() == null || job.namespace().isEmpty()) {
      out.add(
          error(
              Code.REQUIRED,
              nsPath,
              "Required value: the namespace is part of host names and RBAC subjects; set"
                  + " metadata.namespace or pass --namespace"));
    } else {
      List<String> problems = Dns.dns1123Label(job.namespace());
      if (!problems.isEmpty()) {
        out.add(
            error(
                Code.INVALID,
                nsPath,
                "Invalid value: \"" + job.namespace() + "\": " + String.join("; ", problems)));
      }
    }
  }

  private static void validateSpec(MpiJobModel job, List<Finding> out) {
    boolean v2 = job.era() == MpiEra.V2BETA1;
    FieldPath runPolicy = SPEC.child("runPolicy");
    if (job.slotsPerWorker() != null && job.slotsPerWorker() < 1) {
      // Upstream accepts 0 and writes "slots=0", which MPI rejects at run time.
      out.add(atLeast(SPEC.child("slotsPerWorker"), job.slotsPerWorker(), 1));
    }
    oneOf(
        v2 ? runPolicy.child("cleanPodPolicy") : SPEC.child("cleanPodPolicy"),
        job.cleanPodPolicy(),
        List.of("All", "None", "Running"),
        out);
    nonNegative(runPolicy.child("ttlSecondsAfterFinished"), job.ttlSecondsAfterFinished(), out);
    nonNegative(runPolicy.child("activeDeadlineSeconds"), job.activeDeadlineSeconds(), out);
    nonNegative(runPolicy.child("backoffLimit"), job.backoffLimit(), out);
    if (v2) {
      if (job.managedBy() != null) {
        oneOf(
            runPolicy.child("managedBy"),
            job.managedBy(),
            List.of("kubeflow.org/mpi-operator", "kueue.x-k8s.io/multikueue"),
            out);
      }
      oneOf(
          SPEC.child("mpiImplementation"),
          job.implementation(),
          List.of("Intel", "MPICH", "OpenMPI"),
          out);
      oneOf(
          SPEC.child("launcherCreationPolicy"),
          job.launcherCreationPolicy(),
          List.of("AtStartup", "WaitForWorkersReady"),
          out);
      if (job.runLauncherAsWorker()) {
        out.add(
            error(
                Code.NOT_SUPPORTED,
                SPEC.child("runLauncherAsWorker"),
                "Unsupported value: true: not supported by this version of jobc"));
      }
    }
    if (job.schedulingPolicy() != null) {
      out.add(
          error(
              Code.NOT_SUPPORTED,
              runPolicy.child("schedulingPolicy"),
              "gang scheduling is not supported by this version of jobc"));
    }
  }

  private static void validateReplicaSpecs(
      MpiJobModel job, String clusterDomain, List<Finding> out) {
    if (job.replicaSpecs() == null) {
      out.add(error(Code.REQUIRED, REPLICA_SPECS, "Required value: must have replica specs"));
      return;
    }
    ReplicaSpec launcher = job.launcher();
    if (launcher == null) {
      out.add(
          error(
              Code.REQUIRED,
              REPLICA_SPECS.key(MpiJob.LAUNCHER),
              "Required value: must have Launcher replica spec"));
    } else {
      FieldPath p = REPLICA_SPECS.key(MpiJob.LAUNCHER);
      if (!Objects.equals(launcher.replicas(), 1)) {
        out.add(
            error(
                Code.INVALID,
                p.child("replicas"),
                "Invalid value: " + launcher.replicas() + ": must be 1"));
      }
      validateReplica(job, MpiJob.LAUNCHER, launcher, out);
    }
    ReplicaSpec worker = job.worker();
    if (worker != null) {
      FieldPath p = REPLICA_SPECS.key(MpiJob.WORKER);
      if (worker.replicas() == null) {
        // Upstream defaults a missing count to 0 and then says "must be greater than or equal
        // to 1"; say what is actually wrong.
        out.add(
            error(
                Code.REQUIRED,
                p.child("replicas"),
                "Required value: must define number of replicas"));
      } else if (worker.replicas() < 1) {
        out.add(atLeast(p.child("replicas"), worker.replicas(), 1));
      }
      validateReplica(job, MpiJob.WORKER, worker, out);
    }
    if (job.mainContainer() != null && !Dns.dns1123Label(job.mainContainer()).isEmpty()) {
      out.add(
          error(
              Code.INVALID,
              SPEC.child("mainContainer"),
              "Invalid value: \""
                  + job.mainContainer()
                  + "\": "
                  + String.join("; ", Dns.dns1123Label(job.mainContainer()))));
    } else if (job.mainContainer() != null && worker != null && containers(worker) != null) {
      boolean found =
          containers(worker).stream().anyMatch(c -> job.mainContainer().equals(c.getName()));
      if (!found) {
        out.add(
            error(
                Code.INVALID,
                SPEC.child("mainContainer"),
                "Invalid value: \""
                    + job.mainContainer()
                    + "\": no container of that name in the Worker template (have: "
                    + containers(worker).stream()
                        .map(Container::getName)
                        .collect(Collectors.joining(", "))
                    + ")"));
      }
    }
    validateConfigMapSize(job, clusterDomain, out);
  }

  private static void validateReplica(
      MpiJobModel job, String type, ReplicaSpec spec, List<Finding> out) {
    FieldPath p = REPLICA_SPECS.key(type);
    List<String> restart =
        job.era() == MpiEra.V2BETA1 || MpiJob.LAUNCHER.equals(type)
            ? List.of("Never", "OnFailure")
            : List.of("Always", "ExitCode", "Never", "OnFailure");
    oneOf(p.child("restartPolicy"), spec.restartPolicy(), restart, out);
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
    // jobc adds these volumes and mount points; a clash would silently replace the user's.
    PodSpec pod = spec.template().getSpec();
    List<Volume> volumes = pod.getVolumes() == null ? List.of() : pod.getVolumes();
    for (int i = 0; i < volumes.size(); i++) {
      String name = volumes.get(i).getName();
      if (Naming.RESERVED_VOLUMES.contains(name)) {
        out.add(
            error(
                Code.DUPLICATE,
                podSpec.child("volumes").index(i).child("name"),
                "Duplicate value: \"" + name + "\": this volume name is reserved for jobc"));
      }
    }
    if (pod.getInitContainers() != null) {
      for (int i = 0; i < pod.getInitContainers().size(); i++) {
        String name = pod.getInitContainers().get(i).getName();
        if (Naming.RESERVED_INIT_CONTAINERS.contains(name)) {
          out.add(
              error(
                  Code.DUPLICATE,
                  podSpec.child("initContainers").index(i).child("name"),
                  "Duplicate value: \""
                      + name
                      + "\": this init container name is reserved for jobc"));
        }
      }
    }
    String templateRestart = pod.getRestartPolicy();
    if (templateRestart != null && !templateRestart.isEmpty()) {
      String effective = MpiJob.WORKER.equals(type) ? "Always" : spec.restartPolicy();
      if (!templateRestart.equals(effective)) {
        // mpi-operator overrides it too, with a Warning event; say so at compile time.
        out.add(
            Finding.warning(
                podSpec.child("restartPolicy"),
                "\""
                    + templateRestart
                    + "\" is replaced by \""
                    + effective
                    + "\""
                    + (MpiJob.WORKER.equals(type)
                        ? " (worker pods belong to a StatefulSet, which requires Always)"
                        : " from " + p.child("restartPolicy"))));
      }
    }
    Container main = containers.get(0);
    if (main.getVolumeMounts() != null) {
      for (int i = 0; i < main.getVolumeMounts().size(); i++) {
        String path = main.getVolumeMounts().get(i).getMountPath();
        if (Naming.RESERVED_MOUNTS.contains(path)) {
          out.add(
              error(
                  Code.DUPLICATE,
                  podSpec
                      .child("containers")
                      .index(0)
                      .child("volumeMounts")
                      .index(i)
                      .child("mountPath"),
                  "Duplicate value: \"" + path + "\": jobc mounts its own files here"));
        }
      }
    }
  }

  /**
   * mpi-operator v2beta1 images start {@code sshd} on workers, keyed by the Secret the operator
   * generated. Under the kubexec transport nothing provides those keys, and sshd may refuse to
   * start; the user should know before the pods crash-loop.
   */
  private static void warnAboutSshd(MpiJobModel job, CompileOptions options, List<Finding> out) {
    ReplicaSpec worker = job.worker();
    if (options.transport() != CompileOptions.Transport.KUBEXEC
        || worker == null
        || containers(worker) == null
        || containers(worker).isEmpty()) {
      return;
    }
    List<String> command = containers(worker).get(0).getCommand();
    if (command != null && !command.isEmpty() && command.get(0).endsWith("sshd")) {
      out.add(
          Finding.warning(
              REPLICA_SPECS
                  .key(MpiJob.WORKER)
                  .child("template")
                  .child("spec")
                  .child("containers")
                  .index(0)
                  .child("command"),
              "workers run sshd, but the kubexec transport reaches them with kubectl exec, and"
                  + " jobc never generates the SSH key Secret mpi-operator mounts for sshd; drop"
                  + " command and args (workers then run \"sleep 365d\") unless the image starts"
                  + " sshd without that Secret"));
    }
  }

  /**
   * The hostfile and discover_hosts.sh grow by one line per worker; estimate their size with
   * arithmetic (never by rendering a billion lines) and stop before Kubernetes would.
   */
  private static void validateConfigMapSize(
      MpiJobModel job, String clusterDomain, List<Finding> out) {
    String name = job.name();
    if (name == null || job.namespace() == null || job.workerReplicas() <= 0) {
      return;
    }
    long workers = job.workerReplicas();
    String last = Naming.workerPod(name, (int) (workers - 1));
    // Each worker has a hostfile line ("<host> slots=N") and an echo line; the last worker's host
    // name is the longest. 4 KiB covers kubexec.sh.
    long host = Naming.fqdn(last, name, job.namespace(), clusterDomain).length();
    long estimate = workers * (2 * host + 24) + 4096;
    if (estimate > CONFIG_MAP_LIMIT) {
      out.add(
          error(
              Code.INVALID,
              REPLICA_SPECS.key(MpiJob.WORKER).child("replicas"),
              "Invalid value: "
                  + workers
                  + ": the ConfigMap "
                  + Naming.configMap(name)
                  + " would list every worker and outgrow Kubernetes' 1 MiB object limit"
                  + " (about "
                  + estimate / 1024
                  + " KiB)"));
    }
  }

  private static List<Container> containers(ReplicaSpec spec) {
    if (spec.template() == null || spec.template().getSpec() == null) {
      return null;
    }
    return spec.template().getSpec().getContainers();
  }

  private static void oneOf(FieldPath path, String value, List<String> allowed, List<Finding> out) {
    if (value != null && !allowed.contains(value)) {
      out.add(
          error(
              Code.NOT_SUPPORTED,
              path,
              "Unsupported value: \""
                  + value
                  + "\": supported values: "
                  + allowed.stream().map(a -> "\"" + a + "\"").collect(Collectors.joining(", "))));
    }
  }

  private static void nonNegative(FieldPath path, Number value, List<Finding> out) {
    if (value != null && value.longValue() < 0) {
      out.add(atLeast(path, value, 0));
    }
  }

  private static Finding atLeast(FieldPath path, Number value, int min) {
    return error(
        Code.INVALID,
        path,
        "Invalid value: " + value + ": must be greater than or equal to " + min);
  }
}
