package dev.jobc.k8s;

import dev.jobc.conventions.Naming;
import dev.jobc.options.CompileOptions;
import dev.jobc.options.OptionTable;
import dev.jobc.options.RenderDefaults;
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
 * resources sized from the number of pods it watches (requests equal to limits) and the Pod
 * Security Standards' restricted settings ({@link RestrictedSecurityContext}).
 */
public final class SidecarContainer {
  /**
   * The least heap of any sidecar in this release's defaults ({@link RenderDefaults#CURRENT}; a job
   * pinned to earlier ones takes theirs): its own classes' state and a list page of realistic pods,
   * with room for garbage (about 2 MiB live at 100 workers, bench/README.md "Sidecar footprint").
   */
  public static final int MIN_HEAP_MIB = RenderDefaults.CURRENT.minHeapMiB();

  /**
   * What a sidecar's heap holds whatever it watches: the JVM's own, the API connection and a list
   * page being read, with room for garbage.
   */
  public static final int FIXED_HEAP_MIB = RenderDefaults.CURRENT.fixedHeapMiB();

  /**
   * Pods watched per MiB of heap: each costs about 3.3 KiB live (its reduced copy in the watch's
   * store, its key, its share of discover_hosts.sh; 18 to 19 MiB live at 5,000 workers,
   * bench/README.md "Sidecar footprint"), and 8 KiB of heap leaves as much again for garbage
   * between collections.
   */
  public static final int PODS_PER_HEAP_MIB = RenderDefaults.PODS_PER_HEAP_MIB;

  /**
   * What the JVM needs besides the heap (metaspace, code, threads, TLS, the collector's own):
   * resident size less committed heap, 40 to 61 MiB measured at 100 and 5,000 workers over HTTPS on
   * JDK 17 and Temurin 25, the JVM's own file pages included, with room to spare.
   */
  public static final int NON_HEAP_MIB = RenderDefaults.CURRENT.nonHeapMiB();

  /**
   * The heap of a sidecar that watches up to {@code pods} pods: the defaults' fixed heap plus 1 MiB
   * per {@link #PODS_PER_HEAP_MIB} pods (rounded up), and at least their least heap: with this
   * release's, 16 MiB up to 1,024 pods, 48 MiB at 5,000.
   */
  public static int heapMiB(RenderDefaults defaults, int pods) {
    int heap =
        defaults.fixedHeapMiB() + (Math.max(0, pods) + PODS_PER_HEAP_MIB - 1) / PODS_PER_HEAP_MIB;
    return Math.max(defaults.minHeapMiB(), heap);
  }

  /**
   * The memory limit (and request) of a sidecar that watches up to {@code pods} pods: its heap
   * ({@link #heapMiB}) plus the defaults' non-heap size: with this release's, 80 MiB up to 1,024
   * pods, 112 MiB at 5,000.
   */
  public static int memoryMiB(RenderDefaults defaults, int pods) {
    return heapMiB(defaults, pods) + defaults.nonHeapMiB();
  }

  /**
   * JVM options for a small watcher of up to {@code pods} pods: serial GC, C1 only (the interpreter
   * alone saves about 9 MiB but takes over a second for the first change) and only for methods run
   * 50 times as often as C1's default thresholds ask (over HTTPS the JDK's HTTP and TLS classes are
   * otherwise compiled at start: about 5 MiB of code, compiler arenas and metadata more), a heap of
   * {@link #heapMiB} with a 2 MiB young generation (a default one of a third of the heap keeps
   * about 5 MiB more resident between collections) that gives memory back after a collection,
   * bounded metaspace and code cache, no perf-data file (the root file system is read-only), and an
   * exit on the first OutOfMemoryError (kubelet restarts the container; a JVM that goes on after
   * one may have lost a thread). The resident size they give is measured in bench/README.md.
   */
  public static String javaToolOptions(RenderDefaults defaults, int pods) {
    return "-XX:+UseSerialGC -XX:TieredStopAtLevel=1 -XX:CICompilerCount=1"
        + (defaults.lateCompilation() ? " -XX:CompileThresholdScaling=50" : "")
        + " -Xss256k -Xms4m -Xmx"
        + heapMiB(defaults, pods)
        + "m -Xmn2m -XX:MinHeapFreeRatio=10 -XX:MaxHeapFreeRatio=30 -XX:MaxMetaspaceSize=48m"
        + " -XX:ReservedCodeCacheSize=16m -XX:MaxDirectMemorySize=8m -XX:-UsePerfData"
        + " -XX:+ExitOnOutOfMemoryError";
  }

  /** Non-root user of the image. */
  public static final long USER = RestrictedSecurityContext.USER;

  /**
   * 250m CPU leaves the JVM's start a quarter core. Requests equal limits, so that a launcher whose
   * own containers are Guaranteed stays Guaranteed (Kubernetes' QoS class counts init and sidecar
   * containers too).
   */
  static final String CPU = "250m";

  /** Lifetime of the sidecar's projected token: the kubelet's own for automounted tokens. */
  static final long TOKEN_SECONDS = 3607L;

  private SidecarContainer() {}

  /**
   * What one sidecar container sized for a few pods ({@link #base(CompileOptions, String, List)})
   * requests, and is limited to, by resource name.
   */
  public static Map<String, Quantity> requests(RenderDefaults defaults) {
    return resources(defaults, CPU, 0).getRequests();
  }

  /**
   * Requests equal to limits: {@code cpu}, and the memory of a sidecar watching up to {@code pods}
   * pods ({@link #memoryMiB}).
   */
  public static ResourceRequirements resources(RenderDefaults defaults, String cpu, int pods) {
    Map<String, Quantity> amounts = new LinkedHashMap<>();
    amounts.put("cpu", new Quantity(cpu));
    amounts.put("memory", new Quantity(memoryMiB(defaults, pods) + "Mi"));
    ResourceRequirements resources = new ResourceRequirements();
    resources.setRequests(new LinkedHashMap<>(amounts));
    resources.setLimits(amounts);
    return resources;
  }

  /** As {@link #base(CompileOptions, String, List, int)} for a sidecar that watches a few pods. */
  public static Container base(CompileOptions options, String name, List<String> args) {
    return base(options, name, args, 0);
  }

  /**
   * A new sidecar container with the shared settings, its image ({@link
   * RenderDefaults#sidecarImage(CompileOptions)}) and size to watch up to {@code pods} pods from
   * the job's options and render defaults; callers set probes, mounts, restart policy.
   */
  public static Container base(CompileOptions options, String name, List<String> args, int pods) {
    RenderDefaults defaults = options.get(OptionTable.RENDER_DEFAULTS);
    Container c = new Container();
    c.setName(name);
    c.setImage(RenderDefaults.sidecarImage(options));
    c.setImagePullPolicy("IfNotPresent");
    c.setArgs(new ArrayList<>(args));
    c.setEnv(
        new ArrayList<>(
            List.of(
                PodTemplates.fieldEnv("POD_NAME", "metadata.name"),
                PodTemplates.fieldEnv("POD_NAMESPACE", "metadata.namespace"),
                PodTemplates.fieldEnv("POD_IP", "status.podIP"),
                new EnvVar("JAVA_TOOL_OPTIONS", javaToolOptions(defaults, pods), null))));
    c.setResources(resources(defaults, CPU, pods));
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
