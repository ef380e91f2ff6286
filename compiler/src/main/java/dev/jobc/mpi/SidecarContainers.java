package dev.jobc.mpi;

import dev.jobc.conventions.Naming;
import dev.jobc.k8s.PodTemplates;
import dev.jobc.k8s.SidecarJvm;
import dev.jobc.options.OptionTable;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirementsBuilder;
import io.fabric8.kubernetes.api.model.SecurityContextBuilder;
import io.fabric8.kubernetes.api.model.VolumeMountBuilder;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Containers running the {@code jobc-sidecar} image: the image's entrypoint runs the jar, so a
 * container only carries the subcommand and its options in {@code args}. Every such container gets
 * the pod's name, namespace and IP from the downward API, the JVM options below, small resources, a
 * read-only root file system and a non-root user.
 */
public final class SidecarContainers {
  /** The launcher pod's main container waits for the sidecar's startup probe (workers Ready). */
  public static final String RUN = "run";

  public static final String WAIT = "wait";

  /** JVM options for a small watcher (see {@link SidecarJvm}). */
  public static final String JAVA_TOOL_OPTIONS = SidecarJvm.JAVA_TOOL_OPTIONS;

  /** Non-root user of the image (distroless' {@code nonroot}). */
  public static final long USER = 65532L;

  /** How often and how long the startup probe checks the ready marker: 2 s, up to one hour. */
  static final int PROBE_PERIOD_SECONDS = 2;

  static final int PROBE_FAILURES = 1800;

  private SidecarContainers() {}

  /**
   * The {@code run} sidecar beside an MPIJob launcher (an init container with {@code restartPolicy:
   * Always}): keeps {@code /etc/mpi/discover_hosts.sh} live, opens the launcher's gate once the
   * initial workers are Ready, applies {@code cleanPodPolicy} when the launcher's main container
   * has ended.
   */
  public static Container mpiRun(MpiJobPlan plan, String launcherContainer) {
    List<String> args = new ArrayList<>();
    args.add(RUN);
    add(args, "--job", plan.name());
    add(args, "--era", plan.era().apiVersion().substring(plan.era().apiVersion().indexOf('/') + 1));
    add(args, "--mpi-implementation", plan.implementation().specName());
    add(args, "--slots", Integer.toString(plan.slots()));
    if (plan.options().get(OptionTable.CLUSTER_DOMAIN) != null) {
      add(args, "--cluster-domain", plan.options().get(OptionTable.CLUSTER_DOMAIN));
    }
    if (plan.launcherHost() != null) {
      add(args, "--launcher-host", plan.launcherHost());
    }
    add(args, "--ready-workers", Integer.toString(plan.workers()));
    if (plan.workers() > 0 && !plan.podWorkers()) {
      add(args, "--worker-set", Naming.workerSet(plan.name()));
      // Scaled up to this when the launcher starts and finds the workers at 0 (rendered at 0 while
      // the job is suspended, or released by a suspension or an earlier end).
      add(args, "--worker-replicas", Integer.toString(plan.workers()));
    }
    add(args, "--clean-pod-policy", cleanPodPolicy(plan));
    add(args, "--launcher-container", launcherContainer);
    add(args, "--config-dir", Naming.SIDECAR_CONFIG_MOUNT);
    add(args, "--output-dir", Naming.CONFIG_MOUNT);
    add(args, "--ready-file", Naming.SIDECAR_READY_FILE);
    return base(plan.options().get(OptionTable.SIDECAR_IMAGE), Naming.SIDECAR, args)
        .withRestartPolicy("Always")
        .withNewStartupProbe()
        .withNewExec()
        .withCommand("test", "-e", Naming.SIDECAR_READY_FILE)
        .endExec()
        .withPeriodSeconds(PROBE_PERIOD_SECONDS)
        .withFailureThreshold(PROBE_FAILURES)
        .endStartupProbe()
        .withVolumeMounts(
            new VolumeMountBuilder()
                .withName(Naming.CONFIG_VOLUME)
                .withMountPath(Naming.SIDECAR_CONFIG_MOUNT)
                .withReadOnly(true)
                .build(),
            new VolumeMountBuilder()
                .withName(Naming.RUNTIME_VOLUME)
                .withMountPath(Naming.CONFIG_MOUNT)
                .build(),
            new VolumeMountBuilder()
                .withName(Naming.SIDECAR_TMP_VOLUME)
                .withMountPath(Naming.SIDECAR_TMP_MOUNT)
                .build())
        .build();
  }

  /**
   * The worker clean-up policy the sidecar applies. With workers in a StatefulSet (restart policy
   * Always) no worker pod ever ends by itself, so {@code Running} and {@code All} both scale it to
   * 0, as mpi-operator v0.2's StatefulSet workers did; bare worker pods are deleted by name.
   */
  static String cleanPodPolicy(MpiJobPlan plan) {
    String policy = plan.job().cleanPodPolicy();
    return plan.workers() == 0 || policy == null ? "None" : policy;
  }

  /** A sidecar container with the shared settings; callers add probes, mounts, restart policy. */
  public static ContainerBuilder base(String image, String name, List<String> args) {
    return new ContainerBuilder()
        .withName(name)
        .withImage(image)
        .withImagePullPolicy("IfNotPresent")
        .withArgs(args)
        .withEnv(
            PodTemplates.fieldEnv("POD_NAME", "metadata.name"),
            PodTemplates.fieldEnv("POD_NAMESPACE", "metadata.namespace"),
            PodTemplates.fieldEnv("POD_IP", "status.podIP"),
            new EnvVar("JAVA_TOOL_OPTIONS", JAVA_TOOL_OPTIONS, null))
        .withResources(
            new ResourceRequirementsBuilder()
                .withRequests(Map.of("cpu", new Quantity("10m"), "memory", new Quantity("64Mi")))
                .withLimits(Map.of("cpu", new Quantity("500m"), "memory", new Quantity("128Mi")))
                .build())
        .withSecurityContext(
            new SecurityContextBuilder()
                .withRunAsNonRoot(true)
                .withRunAsUser(USER)
                .withRunAsGroup(USER)
                .withReadOnlyRootFilesystem(true)
                .withAllowPrivilegeEscalation(false)
                .withNewCapabilities()
                .withDrop("ALL")
                .endCapabilities()
                .withNewSeccompProfile()
                .withType("RuntimeDefault")
                .endSeccompProfile()
                .build());
  }

  private static void add(List<String> args, String option, String value) {
    args.add(option);
    args.add(value);
  }
}
