package dev.jobc.mpi;

import dev.jobc.conventions.MpiEra;
import dev.jobc.diag.Code;
import dev.jobc.diag.FieldPath;
import dev.jobc.diag.Finding;
import dev.jobc.diag.Quoting;
import dev.jobc.model.ReplicaSpec;
import dev.jobc.options.CompileOptions;
import dev.jobc.options.JobAnnotations;
import dev.jobc.options.OptionTable;
import dev.jobc.options.Target;
import dev.jobc.options.WorkerKind;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Turns an MPIJob of any accepted version into the one {@link MpiJobModel} the validator and
 * planner read: the job's {@code jobc.dev/*} annotations, then the version's conversion ({@link
 * MpiEraConversion}), then mpi-operator's defaults in one pass ({@link #fillDefaults}).
 */
public final class MpiJobDefaults {
  public static final int DEFAULT_SLOTS = 1;
  public static final String DEFAULT_CLEAN_POD_POLICY = "None";
  public static final String DEFAULT_SSH_AUTH_MOUNT_PATH = "/root/.ssh";
  public static final String DEFAULT_IMPLEMENTATION = "OpenMPI";
  public static final String DEFAULT_LAUNCHER_CREATION_POLICY = "AtStartup";

  /** The batch Job default mpi-operator v1alpha1/v1alpha2 wrote explicitly. */
  public static final int DEFAULT_BACKOFF_LIMIT = 6;

  private MpiJobDefaults() {}

  public static MpiJobModel apply(MpiJob job, MpiEra era, CompileOptions options) {
    MpiJobSpec spec = job.spec() != null ? job.spec() : MpiJobSpec.EMPTY;
    ObjectMeta meta = job.metadata() != null ? job.metadata() : new ObjectMeta();
    String namespace = options.namespace(meta.getNamespace());
    JobAnnotations.Applied annotations = JobAnnotations.apply(meta, options);
    MpiJobModel.Draft draft =
        new MpiJobModel.Draft(era)
            .metadata(meta)
            .namespace(namespace)
            .options(annotations.options())
            .maxReplicas(annotations.maxReplicas())
            .addFindings(annotations.findings());
    if (annotations.distParMetisImage() != null) {
      draft.addFindings(
          List.of(
              Finding.error(
                  Code.FORBIDDEN,
                  FieldPath.of("metadata", "annotations").key(JobAnnotations.DIST_PARMETIS_IMAGE),
                  "Forbidden: only a DGLJob has partitionMode DistParMETIS")));
    }
    MpiEraConversion.of(era).copy(spec, draft);
    fillDefaults(draft);
    return draft.build();
  }

  /**
   * mpi-operator's defaults, for whatever the conversion left unset. A string counts as unset when
   * empty, as upstream's {@code == ""} checks.
   *
   * <ul>
   *   <li>v2beta1 ({@code pkg/apis/kubeflow/v2beta1/default.go}): slotsPerWorker 1, cleanPodPolicy
   *       None, sshAuthMountPath /root/.ssh, OpenMPI; Launcher replicas 1 and restartPolicy
   *       OnFailure; Worker restartPolicy Never. launcherCreationPolicy AtStartup is the CRD's
   *       ({@code +kubebuilder:default} in {@code types.go}). Unlike upstream, a Worker without
   *       {@code replicas} keeps no count (upstream silently defaults it to 0 and then rejects 0),
   *       so the validator can say what is actually missing.
   *   <li>v1 (kubeflow/training-operator {@code pkg/apis/kubeflow.org/v1/mpi_defaults.go}): slots
   *       1, cleanPodPolicy None, Launcher replicas 1, restartPolicy Never for both replica types.
   *   <li>v1alpha2 ({@code pkg/apis/kubeflow/v1alpha2/default.go}): slots 1, backoffLimit 6,
   *       cleanPodPolicy None, Launcher OnFailure; Worker Always, as its StatefulSet requires.
   *   <li>v1alpha1: slots 1 without processing units, backoffLimit 6; the launcher Job OnFailure
   *       and the worker StatefulSet Always, as the controller wrote them.
   * </ul>
   *
   * The versions before v2beta1 have no ssh path, launcher creation policy or implementation field
   * (v1alpha2's {@code mpiDistribution} aside), so theirs are the defaults.
   */
  static void fillDefaults(MpiJobModel.Draft draft) {
    MpiEra era = draft.era();
    if (draft.slotsPerWorker() == null) {
      draft.slotsPerWorker(DEFAULT_SLOTS);
    }
    if (unset(draft.cleanPodPolicy())) {
      draft.cleanPodPolicy(DEFAULT_CLEAN_POD_POLICY);
    }
    if (unset(draft.sshAuthMountPath())) {
      draft.sshAuthMountPath(DEFAULT_SSH_AUTH_MOUNT_PATH);
    }
    if (unset(draft.launcherCreationPolicy())) {
      draft.launcherCreationPolicy(DEFAULT_LAUNCHER_CREATION_POLICY);
    }
    // null only: a written empty mpiDistribution (a pointer in v1alpha2) is for the validator.
    if (draft.implementation() == null) {
      draft.implementation(DEFAULT_IMPLEMENTATION);
    }
    boolean writesBackoffLimit = era == MpiEra.V1ALPHA2 || era == MpiEra.V1ALPHA1;
    if (writesBackoffLimit && draft.backoffLimit() == null) {
      draft.backoffLimit(DEFAULT_BACKOFF_LIMIT);
    }
    warnAboutWorkerRestart(draft);
    draft.replicaSpecs(
        replicaDefaults(
            draft.replicaSpecs(),
            era == MpiEra.V1 ? "Never" : "OnFailure",
            switch (era) {
              case V2BETA1, V1 -> "Never";
              case V1ALPHA2, V1ALPHA1 -> "Always";
            }));
  }

  /**
   * A Worker {@code restartPolicy} the user wrote that the worker StatefulSet cannot keep: its pods
   * always restart (a worker whose command ends is started again, and under GitOps nothing but a
   * change in Git stops it), where upstream's bare worker Pods ended for good. Only what the user
   * wrote is reported, not the defaults; a template-level {@code restartPolicy} is the validator's.
   */
  private static void warnAboutWorkerRestart(MpiJobModel.Draft draft) {
    Map<String, ReplicaSpec> specs = draft.replicaSpecs();
    ReplicaSpec worker = specs == null ? null : specs.get(MpiJob.WORKER);
    if (worker == null
        || draft.era() == MpiEra.V1ALPHA1
        || worker.restartPolicy() == null
        || !List.of("Never", "OnFailure", "ExitCode").contains(worker.restartPolicy())
        || draft.options().get(OptionTable.WORKERS) != WorkerKind.STATEFUL_SET
        || draft.options().get(OptionTable.TARGET) == Target.JOB_SET) {
      return;
    }
    draft.addFinding(
        Finding.warning(
            draft.paths().worker().child("restartPolicy"),
            Quoting.quote(worker.restartPolicy())
                + " is replaced by \"Always\": worker pods belong to a StatefulSet, which restarts"
                + " every pod that ends; use --workers pods to keep "
                + Quoting.quote(worker.restartPolicy())));
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
            spec = unset(spec.restartPolicy()) ? spec.withRestartPolicy(launcherRestart) : spec;
          } else if (MpiJob.WORKER.equals(type)) {
            spec = unset(spec.restartPolicy()) ? spec.withRestartPolicy(workerRestart) : spec;
          }
          out.put(type, spec);
        });
    return out;
  }

  private static boolean unset(String s) {
    return s == null || s.isEmpty();
  }
}
