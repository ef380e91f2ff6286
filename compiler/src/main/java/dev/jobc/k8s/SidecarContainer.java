package dev.jobc.k8s;

import dev.jobc.conventions.Naming;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.fabric8.kubernetes.api.model.VolumeMount;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Containers running the {@code jobc-sidecar} image, for every kind: the image's entrypoint runs
 * the jar, so a container only carries the subcommand and its options in {@code args}. Every such
 * container gets the pod's name, namespace and IP from the downward API, the JVM options below,
 * small resources (requests equal to limits) and the Pod Security Standards' restricted settings
 * ({@link RestrictedSecurityContext}).
 */
public final class SidecarContainer {
  /**
   * JVM options for a small watcher: serial GC, C1 only (the interpreter alone saves about 9 MiB
   * but takes over a second for the first change), a heap of at most 32 MiB (16 MiB ran out on JDK
   * 25) with a 2 MiB young generation (a default one of a third of the heap keeps about 5 MiB more
   * resident between collections) that gives memory back after a collection, bounded metaspace and
   * code cache, no perf-data file (the root file system is read-only). The resident size they give
   * is measured in bench/README.md.
   */
  public static final String JAVA_TOOL_OPTIONS =
      "-XX:+UseSerialGC -XX:TieredStopAtLevel=1 -XX:CICompilerCount=1 -Xss256k -Xms4m -Xmx32m"
          + " -Xmn2m -XX:MinHeapFreeRatio=10 -XX:MaxHeapFreeRatio=30 -XX:MaxMetaspaceSize=48m"
          + " -XX:ReservedCodeCacheSize=16m -XX:MaxDirectMemorySize=8m -XX:-UsePerfData"
          + " -XX:+ExitOnOutOfMemoryError";

  /** Non-root user of the image. */
  public static final long USER = RestrictedSecurityContext.USER;

  /**
   * Requests equal to limits, so that a launcher whose own containers are Guaranteed stays
   * Guaranteed (Kubernetes' QoS class counts init and sidecar containers too). 128 MiB holds the
   * measured resident size (about 91 MiB watching 100 workers, bench/README.md). 250m CPU leaves
   * the JVM's start a quarter core.
   */
  static final Map<String, Quantity> RESOURCES =
      Map.of("cpu", new Quantity("250m"), "memory", new Quantity("128Mi"));

  /** Lifetime of the sidecar's projected token: the kubelet's own for automounted tokens. */
  static final long TOKEN_SECONDS = 3607L;

  private SidecarContainer() {}

  /** What one sidecar container requests (and is limited to), by resource name. */
  public static Map<String, Quantity> requests() {
    return RESOURCES;
  }

  /**
   * A new sidecar container with the shared settings; callers set probes, mounts, restart policy.
   */
  public static Container base(String image, String name, List<String> args) {
    Container c = new Container();
    c.setName(name);
    c.setImage(image);
    c.setImagePullPolicy("IfNotPresent");
    c.setArgs(new ArrayList<>(args));
    c.setEnv(
        new ArrayList<>(
            List.of(
                PodTemplates.fieldEnv("POD_NAME", "metadata.name"),
                PodTemplates.fieldEnv("POD_NAMESPACE", "metadata.namespace"),
                PodTemplates.fieldEnv("POD_IP", "status.podIP"),
                new EnvVar("JAVA_TOOL_OPTIONS", JAVA_TOOL_OPTIONS, null))));
    ResourceRequirements resources = new ResourceRequirements();
    resources.setRequests(new LinkedHashMap<>(RESOURCES));
    resources.setLimits(new LinkedHashMap<>(RESOURCES));
    c.setResources(resources);
    c.setSecurityContext(RestrictedSecurityContext.of(true));
    return c;
  }

  /**
   * The sidecar's own API credentials, for a pod whose other containers get none ({@code
   * automountServiceAccountToken: false}): what the kubelet would have mounted, in the sidecar
   * alone. A bound token of the pod's ServiceAccount (the kubelet refreshes it; the client re-reads
   * it), the cluster's CA from {@code kube-root-ca.crt}, the namespace.
   */
  public static Volume tokenVolume() {
    return new VolumeBuilder()
        .withName(Naming.SIDECAR_TOKEN_VOLUME)
        .withNewProjected()
        .withDefaultMode(PodTemplates.MODE_READ_ONLY)
        .addNewSource()
        .withNewServiceAccountToken()
        .withPath("token")
        .withExpirationSeconds(TOKEN_SECONDS)
        .endServiceAccountToken()
        .endSource()
        .addNewSource()
        .withNewConfigMap()
        .withName("kube-root-ca.crt")
        .addNewItem()
        .withKey("ca.crt")
        .withPath("ca.crt")
        .endItem()
        .endConfigMap()
        .endSource()
        .addNewSource()
        .withNewDownwardAPI()
        .addNewItem()
        .withPath("namespace")
        .withNewFieldRef()
        .withApiVersion("v1")
        .withFieldPath("metadata.namespace")
        .endFieldRef()
        .endItem()
        .endDownwardAPI()
        .endSource()
        .endProjected()
        .build();
  }

  /** Where {@link #tokenVolume} is mounted: where Kubernetes clients look for a token. */
  public static VolumeMount tokenMount() {
    VolumeMount mount =
        PodTemplates.mount(Naming.SIDECAR_TOKEN_VOLUME, Naming.SERVICE_ACCOUNT_MOUNT);
    mount.setReadOnly(true);
    return mount;
  }
}
