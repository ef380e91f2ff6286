package dev.jobc.mpi;

import dev.jobc.conventions.MpiEra;
import dev.jobc.diag.FieldPath;
import dev.jobc.diag.Finding;
import dev.jobc.model.ReplicaSpec;
import dev.jobc.model.RunPolicy;
import dev.jobc.options.CompileOptions;
import dev.jobc.options.JobAnnotations;
import dev.jobc.options.OptionTable;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.NodeSelectorTermBuilder;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpecBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.fabric8.kubernetes.api.model.TolerationBuilder;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Applies mpi-operator's defaults for the input's version and converts every version into the one
 * {@link MpiJobModel} the validator and planner read.
 *
 * <ul>
 *   <li>v2beta1 ({@code pkg/apis/kubeflow/v2beta1/default.go}): slotsPerWorker 1, cleanPodPolicy
 *       None, sshAuthMountPath /root/.ssh, OpenMPI, AtStartup; Launcher replicas 1 and
 *       restartPolicy OnFailure; Worker restartPolicy Never. Unlike upstream, a Worker without
 *       {@code replicas} keeps no count (upstream silently defaults it to 0 and then rejects 0), so
 *       the validator can say what is actually missing.
 *   <li>v1: slots 1, cleanPodPolicy None (spec's field wins over runPolicy's, as the controller
 *       reads it), restartPolicy Never for both replica types.
 *   <li>v1alpha2: slots 1, backoffLimit 6, cleanPodPolicy None, Launcher OnFailure unless Never;
 *       {@code runPolicy} overrides {@code backoffLimit}/{@code activeDeadlineSeconds} (with a
 *       warning when both are given, as the operator logged); {@code mpiDistribution} names mapped.
 *   <li>v1alpha1: one template split into both roles; the worker count from {@link SlotPlan}; the
 *       launcher's resources dropped and workers running {@code sleep 365d} (the template's command
 *       is the launcher's), as the final v1alpha1 controller did; backoffLimit 6.
 * </ul>
 */
public final class MpiJobDefaults {
  public static final int DEFAULT_SLOTS = 1;
  public static final String DEFAULT_CLEAN_POD_POLICY = "None";
  public static final String DEFAULT_SSH_AUTH_MOUNT_PATH = "/root/.ssh";
  public static final String DEFAULT_IMPLEMENTATION = "OpenMPI";
  public static final String DEFAULT_LAUNCHER_CREATION_POLICY = "AtStartup";

  /** The batch Job default mpi-operator v1alpha1/v1alpha2 wrote explicitly. */
  public static final int DEFAULT_BACKOFF_LIMIT = 6;

  private static final FieldPath SPEC = MpiPaths.SPEC;
  private static final FieldPath RUN_POLICY = MpiPaths.RUN_POLICY;
  private static final FieldPath REPLICA_SPECS = MpiPaths.REPLICA_SPECS;

  private MpiJobDefaults() {}

  public static MpiJobModel apply(MpiJob job, MpiEra era, CompileOptions options) {
    MpiJobSpec spec = job.spec() != null ? job.spec() : emptySpec();
    ObjectMeta meta = job.metadata() != null ? job.metadata() : new ObjectMeta();
    String namespace = meta.getNamespace();
    if (namespace == null || namespace.isEmpty()) {
      namespace = options.get(OptionTable.NAMESPACE);
    }
    JobAnnotations.Applied annotations = JobAnnotations.apply(meta, options);
    List<Finding> findings = new ArrayList<>(annotations.findings());
    CompileOptions effective = annotations.options();
    RunPolicy run = spec.runPolicy() != null ? spec.runPolicy() : RunPolicy.empty();
    MpiPaths replicaPaths =
        new MpiPaths(
            REPLICA_SPECS.key(MpiJob.LAUNCHER),
            REPLICA_SPECS.key(MpiJob.WORKER),
            RUN_POLICY.child("cleanPodPolicy"),
            RUN_POLICY.child("backoffLimit"),
            RUN_POLICY.child("activeDeadlineSeconds"),
            SPEC.child("mpiImplementation"),
            REPLICA_SPECS.key(MpiJob.WORKER).child("replicas"));
    return switch (era) {
      case V2BETA1 ->
          new MpiJobModel(
              era,
              meta,
              namespace,
              orDefault(spec.slotsPerWorker(), DEFAULT_SLOTS),
              Boolean.TRUE.equals(spec.runLauncherAsWorker()),
              orDefault(run.cleanPodPolicy(), DEFAULT_CLEAN_POD_POLICY),
              run.ttlSecondsAfterFinished(),
              run.activeDeadlineSeconds(),
              run.backoffLimit(),
              Boolean.TRUE.equals(run.suspend()),
              run.managedBy(),
              run.schedulingPolicy(),
              replicaDefaults(spec.mpiReplicaSpecs(), "OnFailure", "Never"),
              orDefault(spec.sshAuthMountPath(), DEFAULT_SSH_AUTH_MOUNT_PATH),
              orDefault(spec.launcherCreationPolicy(), DEFAULT_LAUNCHER_CREATION_POLICY),
              orDefault(spec.mpiImplementation(), DEFAULT_IMPLEMENTATION),
              null,
              effective,
              annotations.maxReplicas(),
              replicaPaths,
              null,
              findings);
      case V1 ->
          new MpiJobModel(
              era,
              meta,
              namespace,
              orDefault(spec.slotsPerWorker(), DEFAULT_SLOTS),
              false,
              orDefault(
                  spec.cleanPodPolicy(), orDefault(run.cleanPodPolicy(), DEFAULT_CLEAN_POD_POLICY)),
              run.ttlSecondsAfterFinished(),
              run.activeDeadlineSeconds(),
              run.backoffLimit(),
              Boolean.TRUE.equals(run.suspend()),
              null,
              run.schedulingPolicy(),
              replicaDefaults(spec.mpiReplicaSpecs(), "Never", "Never"),
              DEFAULT_SSH_AUTH_MOUNT_PATH,
              DEFAULT_LAUNCHER_CREATION_POLICY,
              DEFAULT_IMPLEMENTATION,
              spec.mainContainer(),
              effective,
              annotations.maxReplicas(),
              withCleanPodPolicyAt(replicaPaths, spec.cleanPodPolicy() != null),
              null,
              findings);
      case V1ALPHA2 -> v1alpha2(meta, namespace, spec, run, effective, annotations, findings);
      case V1ALPHA1 -> v1alpha1(meta, namespace, spec, effective, annotations, findings);
    };
  }

  private static MpiJobModel v1alpha2(
      ObjectMeta meta,
      String namespace,
      MpiJobSpec spec,
      RunPolicy run,
      CompileOptions options,
      JobAnnotations.Applied annotations,
      List<Finding> findings) {
    List<String> overridden = new ArrayList<>();
    if (spec.backoffLimit() != null && run.backoffLimit() != null) {
      overridden.add("backoffLimit");
    }
    if (spec.activeDeadlineSeconds() != null && run.activeDeadlineSeconds() != null) {
      overridden.add("activeDeadlineSeconds");
    }
    if (!overridden.isEmpty()) {
      // The operator logged "runPolicy is specified in MPIJobSpec so backOffLimit/
      // activeDeadlineSeconds in MPIJobSpec will be overwritten".
      findings.add(
          Finding.warning(
              RUN_POLICY,
              "overrides spec."
                  + String.join(" and spec.", overridden)
                  + " (runPolicy wins in v1alpha2)"));
    }
    Integer backoff =
        run.backoffLimit() != null
            ? run.backoffLimit()
            : orDefault(spec.backoffLimit(), DEFAULT_BACKOFF_LIMIT);
    Long deadline =
        run.activeDeadlineSeconds() != null
            ? run.activeDeadlineSeconds()
            : spec.activeDeadlineSeconds();
    MpiPaths paths =
        new MpiPaths(
            REPLICA_SPECS.key(MpiJob.LAUNCHER),
            REPLICA_SPECS.key(MpiJob.WORKER),
            spec.cleanPodPolicy() != null
                ? SPEC.child("cleanPodPolicy")
                : RUN_POLICY.child("cleanPodPolicy"),
            run.backoffLimit() != null
                ? RUN_POLICY.child("backoffLimit")
                : SPEC.child("backoffLimit"),
            run.activeDeadlineSeconds() != null
                ? RUN_POLICY.child("activeDeadlineSeconds")
                : SPEC.child("activeDeadlineSeconds"),
            SPEC.child("mpiDistribution"),
            REPLICA_SPECS.key(MpiJob.WORKER).child("replicas"));
    String distribution = spec.mpiDistribution();
    String implementation =
        distribution == null
            ? DEFAULT_IMPLEMENTATION
            : switch (distribution) {
              case "OpenMPI" -> "OpenMPI";
              case "IntelMPI" -> "Intel";
              case "MPICH" -> "MPICH";
              default -> distribution;
            };
    Map<String, ReplicaSpec> replicas =
        replicaDefaults(spec.mpiReplicaSpecs(), "OnFailure", "Always");
    return new MpiJobModel(
        MpiEra.V1ALPHA2,
        meta,
        namespace,
        orDefault(spec.slotsPerWorker(), DEFAULT_SLOTS),
        false,
        orDefault(spec.cleanPodPolicy(), orDefault(run.cleanPodPolicy(), DEFAULT_CLEAN_POD_POLICY)),
        run.ttlSecondsAfterFinished(),
        deadline,
        backoff,
        false,
        null,
        run.schedulingPolicy(),
        replicas,
        DEFAULT_SSH_AUTH_MOUNT_PATH,
        DEFAULT_LAUNCHER_CREATION_POLICY,
        implementation,
        spec.mainContainer(),
        options,
        annotations.maxReplicas(),
        paths,
        null,
        findings);
  }

  private static MpiJobModel v1alpha1(
      ObjectMeta meta,
      String namespace,
      MpiJobSpec spec,
      CompileOptions options,
      JobAnnotations.Applied annotations,
      List<Finding> findings) {
    SlotPlan.Packing packing = SlotPlan.pack(spec, options);
    findings.addAll(packing.errors());
    SlotPlan slots = packing.plan();
    Map<String, ReplicaSpec> replicas = null;
    PodTemplateSpec template = spec.template();
    if (template != null) {
      replicas = new LinkedHashMap<>();
      String templateRestart =
          template.getSpec() == null ? null : template.getSpec().getRestartPolicy();
      replicas.put(
          MpiJob.LAUNCHER,
          new ReplicaSpec(
              1,
              launcherTemplate(template, Boolean.TRUE.equals(spec.launcherOnMaster())),
              "Never".equals(templateRestart) ? "Never" : "OnFailure"));
      replicas.put(
          MpiJob.WORKER,
          new ReplicaSpec(
              slots == null ? null : slots.workers(), workerTemplate(template, slots), "Always"));
    }
    Integer slotsPerWorker = spec.slotsPerWorker();
    if (slotsPerWorker == null) {
      // "Defaults to the number of processing units per worker", else 1.
      slotsPerWorker = slots != null && slots.unitsPerWorker() > 0 ? slots.unitsPerWorker() : 1;
    }
    // The worker count comes from the total when there is one (SlotPlan), else from replicas.
    Integer total = spec.gpus() != null ? spec.gpus() : spec.processingUnits();
    MpiPaths paths =
        new MpiPaths(
            SPEC,
            SPEC,
            SPEC,
            SPEC.child("backoffLimit"),
            SPEC.child("activeDeadlineSeconds"),
            SPEC,
            SPEC.child(
                spec.gpus() != null
                    ? "gpus"
                    : spec.processingUnits() != null ? "processingUnits" : "replicas"));
    return new MpiJobModel(
        MpiEra.V1ALPHA1,
        meta,
        namespace,
        slotsPerWorker,
        false,
        // The v1alpha1 controller scaled the workers to 0 when the launcher finished.
        "All",
        null,
        spec.activeDeadlineSeconds(),
        orDefault(spec.backoffLimit(), DEFAULT_BACKOFF_LIMIT),
        false,
        null,
        null,
        replicas,
        DEFAULT_SSH_AUTH_MOUNT_PATH,
        DEFAULT_LAUNCHER_CREATION_POLICY,
        DEFAULT_IMPLEMENTATION,
        null,
        options,
        annotations.maxReplicas(),
        paths,
        total,
        findings);
  }

  /**
   * v1alpha1's launcher: no resources at all (so a template written for GPU workers takes no GPU
   * for the launcher), and with {@code launcherOnMaster} a toleration and node affinity for the
   * control plane. Upstream only knew the {@code master} label; clusters since Kubernetes 1.24
   * label {@code control-plane}, so jobc accepts either.
   */
  private static PodTemplateSpec launcherTemplate(PodTemplateSpec template, boolean onMaster) {
    PodTemplateSpec copy = new PodTemplateSpecBuilder(template).build();
    PodSpec pod = copy.getSpec();
    if (pod == null || pod.getContainers() == null || pod.getContainers().isEmpty()) {
      return copy;
    }
    List<Container> containers = new ArrayList<>(pod.getContainers());
    containers.set(0, new ContainerBuilder(containers.get(0)).withResources(null).build());
    pod.setContainers(containers);
    if (onMaster) {
      var tolerations =
          new ArrayList<>(pod.getTolerations() == null ? List.of() : pod.getTolerations());
      for (String role : List.of("master", "control-plane")) {
        tolerations.add(
            new TolerationBuilder()
                .withKey("node-role.kubernetes.io/" + role)
                .withEffect("NoSchedule")
                .withOperator("Exists")
                .build());
      }
      pod.setTolerations(tolerations);
      var affinity =
          new io.fabric8.kubernetes.api.model.AffinityBuilder()
              .withNewNodeAffinity()
              .withNewRequiredDuringSchedulingIgnoredDuringExecution()
              .withNodeSelectorTerms(
                  term("node-role.kubernetes.io/master"),
                  term("node-role.kubernetes.io/control-plane"))
              .endRequiredDuringSchedulingIgnoredDuringExecution()
              .endNodeAffinity()
              .build();
      pod.setAffinity(affinity);
    }
    return copy;
  }

  private static io.fabric8.kubernetes.api.model.NodeSelectorTerm term(String key) {
    return new NodeSelectorTermBuilder()
        .addNewMatchExpression()
        .withKey(key)
        .withOperator("Exists")
        .endMatchExpression()
        .build();
  }

  /**
   * v1alpha1's workers: the template's command belongs to the launcher, so workers always sleep; in
   * total mode each gets its share of units as a limit.
   */
  private static PodTemplateSpec workerTemplate(PodTemplateSpec template, SlotPlan slots) {
    PodTemplateSpec copy = new PodTemplateSpecBuilder(template).build();
    PodSpec pod = copy.getSpec();
    if (pod == null || pod.getContainers() == null || pod.getContainers().isEmpty()) {
      return copy;
    }
    List<Container> containers = new ArrayList<>(pod.getContainers());
    ContainerBuilder main =
        new ContainerBuilder(containers.get(0)).withCommand("sleep").withArgs("365d");
    if (slots != null && slots.writeLimit()) {
      ResourceRequirements resources = containers.get(0).getResources();
      Map<String, Quantity> limits = new LinkedHashMap<>();
      if (resources != null && resources.getLimits() != null) {
        limits.putAll(resources.getLimits());
      }
      limits.put(slots.resource(), new Quantity(Integer.toString(slots.unitsPerWorker())));
      main.editOrNewResources().withLimits(limits).endResources();
    }
    containers.set(0, main.build());
    pod.setContainers(containers);
    return copy;
  }

  private static MpiPaths withCleanPodPolicyAt(MpiPaths paths, boolean atSpec) {
    return atSpec
        ? new MpiPaths(
            paths.launcher(),
            paths.worker(),
            SPEC.child("cleanPodPolicy"),
            paths.backoffLimit(),
            paths.activeDeadlineSeconds(),
            paths.implementation(),
            paths.workerCount())
        : paths;
  }

  private static Map<String, ReplicaSpec> replicaDefaults(
      Map<String, ReplicaSpec> specs, String launcherRestart, String workerRestart) {
    if (specs == null) {
      return null;
    }
    Map<String, ReplicaSpec> out = new LinkedHashMap<>();
    specs.forEach(
        (type, spec) -> {
          if (spec == null) {
            spec = new ReplicaSpec(null, null, null);
          }
          if (MpiJob.LAUNCHER.equals(type)) {
            spec = spec.replicas() == null ? spec.withReplicas(1) : spec;
            spec = isEmpty(spec.restartPolicy()) ? spec.withRestartPolicy(launcherRestart) : spec;
          } else if (MpiJob.WORKER.equals(type)) {
            spec = isEmpty(spec.restartPolicy()) ? spec.withRestartPolicy(workerRestart) : spec;
          }
          out.put(type, spec);
        });
    return out;
  }

  private static boolean isEmpty(String s) {
    return s == null || s.isEmpty();
  }

  private static <T> T orDefault(T value, T fallback) {
    return value == null || (value instanceof String s && s.isEmpty() && fallback != null)
        ? fallback
        : value;
  }

  private static MpiJobSpec emptySpec() {
    return new MpiJobSpec(
        null, null, null, null, null, null, null, null, null, null, null, null, null, null, null,
        null, null, null, null, null);
  }
}
