package dev.jobc.k8s;

import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirementsBuilder;
import io.fabric8.kubernetes.api.model.SecurityContextBuilder;
import java.util.List;
import java.util.Map;

/**
 * Containers running the {@code jobc-sidecar} image, for every kind: the image's entrypoint runs
 * the jar, so a container only carries the subcommand and its options in {@code args}. Every such
 * container gets the pod's name, namespace and IP from the downward API, the JVM options below,
 * small resources, a read-only root file system and a non-root user.
 */
public final class SidecarContainer {
  /**
   * JVM options for a small watcher: serial GC, C1 only, a 16 MiB heap that gives memory back after
   * a collection, bounded metaspace and code cache, no perf-data file (the root file system is
   * read-only). The resident size they give is measured in bench/README.md.
   */
  public static final String JAVA_TOOL_OPTIONS =
      "-XX:+UseSerialGC -XX:TieredStopAtLevel=1 -XX:CICompilerCount=1 -Xss256k -Xms4m -Xmx16m"
          + " -XX:MinHeapFreeRatio=10 -XX:MaxHeapFreeRatio=30 -XX:MaxMetaspaceSize=48m"
          + " -XX:ReservedCodeCacheSize=16m -XX:MaxDirectMemorySize=8m -XX:-UsePerfData"
          + " -XX:+ExitOnOutOfMemoryError";

  /** Non-root user of the image (distroless' {@code nonroot}). */
  public static final long USER = 65532L;

  private SidecarContainer() {}

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
}
