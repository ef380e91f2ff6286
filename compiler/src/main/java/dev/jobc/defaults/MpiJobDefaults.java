package dev.jobc.defaults;

import dev.jobc.api.MpiEra;
import dev.jobc.api.MpiJob;
import dev.jobc.api.MpiJobModel;
import dev.jobc.api.MpiJobSpec;
import dev.jobc.api.ReplicaSpec;
import dev.jobc.api.RunPolicy;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Applies mpi-operator's defaults and produces the one model every version is planned from.
 *
 * <p>v2beta1 matches {@code pkg/apis/kubeflow/v2beta1/default.go}: slotsPerWorker 1, cleanPodPolicy
 * None, sshAuthMountPath /root/.ssh, OpenMPI, AtStartup; Launcher replicas 1 and restartPolicy
 * OnFailure; Worker restartPolicy Never. Unlike upstream, a Worker without {@code replicas} is left
 * without a count (upstream silently defaults it to 0 and then rejects 0), so the validator can say
 * what is actually missing. v1 matches {@code pkg/apis/kubeflow/v1}: slots 1, cleanPodPolicy None,
 * restartPolicy Never for both replica types.
 */
public final class MpiJobDefaults {
  public static final int DEFAULT_SLOTS = 1;
  public static final String DEFAULT_CLEAN_POD_POLICY = "None";
  public static final String DEFAULT_SSH_AUTH_MOUNT_PATH = "/root/.ssh";
  public static final String DEFAULT_IMPLEMENTATION = "OpenMPI";
  public static final String DEFAULT_LAUNCHER_CREATION_POLICY = "AtStartup";

  private MpiJobDefaults() {}

  public static MpiJobModel apply(MpiJob job, MpiEra era, String namespaceOption) {
    MpiJobSpec spec = job.spec() != null ? job.spec() : emptySpec();
    ObjectMeta meta = job.metadata() != null ? job.metadata() : new ObjectMeta();
    String namespace = meta.getNamespace();
    if (namespace == null || namespace.isEmpty()) {
      namespace = namespaceOption;
    }
    RunPolicy run = spec.runPolicy() != null ? spec.runPolicy() : RunPolicy.empty();
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
              null);
      case V1 ->
          new MpiJobModel(
              era,
              meta,
              namespace,
              orDefault(spec.slotsPerWorker(), DEFAULT_SLOTS),
              false,
              // v1 has both spec.cleanPodPolicy and runPolicy.cleanPodPolicy; the controller reads
              // the former, so it wins.
              orDefault(
                  spec.cleanPodPolicy(), orDefault(run.cleanPodPolicy(), DEFAULT_CLEAN_POD_POLICY)),
              run.ttlSecondsAfterFinished(),
              run.activeDeadlineSeconds(),
              run.backoffLimit(),
              Boolean.TRUE.equals(run.suspend()),
              null,
              run.schedulingPolicy(),
              replicaDefaults(spec.mpiReplicaSpecs(), "Never", "Never"),
              null,
              null,
              DEFAULT_IMPLEMENTATION,
              spec.mainContainer());
    };
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
