package dev.jobc.sidecar;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.FieldsV1;
import io.fabric8.kubernetes.api.model.ManagedFieldsEntry;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Footprint benchmark (run by {@code bench/sidecar-bench.sh}, not a unit test): starts the shaded
 * jar's {@code run} as its own process with the JVM options the compiler renders for a job of this
 * many workers, inside a control group with the CPU and memory limits rendered for it (as kubelet
 * would run the container; {@link CgroupLimits}), against the stand-in API ({@link ApiStandIn}:
 * lists and HTTP watches as kube-apiserver serves them) on loopback. It turns every worker Ready
 * (the gate must open), flips workers Ready and not Ready, and reports the process' resident memory
 * (at the end and its peak), the group's peak memory and OOM kills, the delay from a pod turning
 * Ready to {@code discover_hosts.sh} changing, and the number of lists and watches. The workers are
 * of a realistic size (about 6 KB of JSON, managed fields included).
 *
 * <p>Arguments: {@code JAR workers flips [smoke] [no-limits] [tls]} and, optionally, JVM options
 * that replace the rendered ones; {@code tls} serves the API over HTTPS (as in a cluster), the
 * sidecar checking the server's certificate against a CA file. It exits non-zero when the sidecar
 * does not start, does not open the gate once every worker is Ready, does not follow a flip within
 * 10 s (these bounds only catch a sidecar that stopped following; the figures are printed, not
 * judged), is OOM-killed, or does not exit 0 on SIGTERM. With the system property {@code bench.nmt}
 * it also prints {@code jcmd VM.native_memory summary}, the heap's class histogram (the options
 * must then enable native memory tracking) and {@code smaps_rollup} before the stop.
 */
public final class SidecarBench {
  /**
   * How long the sidecar may take to start and to catch up (a throttled JVM, thousands of pods).
   */
  static final java.time.Duration WAIT = java.time.Duration.ofMinutes(10);

  private SidecarBench() {}

  public static void main(String[] args) throws Exception {
    Path jar = Path.of(args[0]);
    int workers = Integer.parseInt(args[1]);
    int flips = Integer.parseInt(args[2]);
    List<String> rest = List.of(args).subList(3, args.length);
    boolean smoke = rest.contains("smoke");
    boolean limited = !rest.contains("no-limits");
    boolean tls = rest.contains("tls");
    String override = rest.stream().filter(a -> a.startsWith("-X")).findFirst().orElse(null);
    Container rendered = RenderedSidecar.mpiRun(workers);
    String jvmOptions = override != null ? override : RenderedSidecar.javaToolOptions(rendered);
    long milliCpu = RenderedSidecar.milliCpu(rendered);
    long memory = RenderedSidecar.memoryBytes(rendered);
    System.out.printf(
        "workers %d; rendered limits: cpu %dm, memory %d MiB; JAVA_TOOL_OPTIONS: %s%s%n",
        workers,
        milliCpu,
        memory >> 20,
        jvmOptions,
        override != null ? " (given, not rendered)" : "");
    Path dir = Files.createTempDirectory("jobc-sidecar-bench");
    try (ApiStandIn api =
            ApiStandIn.withPodTable(tls)
                .withoutRole("a footprint benchmark: what run may do is tested elsewhere");
        CgroupLimits cgroup = limited ? CgroupLimits.create(milliCpu, memory) : null) {
      api.create(ApiStandIn.launcher("pi"));
      // Another job's worker, outside the sidecar's selector: flipped once before the timed
      // flips, so that the first of them does not include this process' own first PATCH.
      api.create(ApiStandIn.worker("other", 0, false, "10.1.0.1"));
      Pod sample = null;
      for (int i = 0; i < workers; i++) {
        Pod w = realistic(ApiStandIn.worker("pi", i, false, "10.0." + i / 250 + "." + i % 250));
        api.create(w);
        sample = w;
      }
      System.out.printf(
          "a worker pod as the API returns it: %d bytes of JSON%n",
          sample == null ? 0 : api.admin.getKubernetesSerialization().asJson(sample).length());
      List<String> command = new ArrayList<>();
      command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
      command.addAll(List.of("-jar", jar.toString()));
      command.addAll(rendered.getArgs());
      // The rendered paths, moved to this run's directory.
      for (String option : List.of("--config-dir", "--output-dir", "--ready-file")) {
        int at = command.indexOf(option);
        if (at >= 0) {
          command.remove(at + 1);
          command.remove(at);
        }
      }
      command.addAll(List.of("--output-dir", dir.toString()));
      command.addAll(List.of("--ready-file", dir.resolve("ready").toString()));
      command.addAll(List.of("--pod", "pi-launcher-abcde", "--namespace", ApiStandIn.NS));
      ProcessBuilder pb =
          new ProcessBuilder(cgroup == null ? command : cgroup.wrap(command)).inheritIO();
      Map<String, String> env = pb.environment();
      if (tls) {
        // As in a pod: HTTPS, the server's certificate checked against the CA file and the name
        // dialled (the stand-in.s certificate names localhost and 127.0.0.1).
        Path ca = dir.resolve("ca.crt");
        Files.writeString(ca, api.serverCertificate());
        env.put("KUBERNETES_MASTER", api.url().replace("127.0.0.1", "localhost"));
        env.put("KUBERNETES_CERTS_CA_FILE", ca.toString());
      } else {
        env.put("KUBERNETES_MASTER", api.url());
      }
      env.put("KUBERNETES_NAMESPACE", ApiStandIn.NS);
      env.put("POD_NAME", "pi-launcher-abcde");
      env.put("POD_NAMESPACE", ApiStandIn.NS);
      env.put("JAVA_TOOL_OPTIONS", jvmOptions);
      long launched = System.nanoTime();
      Process p = pb.start();
      p.onExit().thenRun(Eventually::changed); // a wait for the sidecar ends when it dies
      try {
        measure(api, p, cgroup, dir, launched, workers, flips, smoke);
      } finally {
        p.destroyForcibly(); // a no-op once it has exited; else the failure left it running
        p.waitFor();
      }
    }
    System.exit(0);
  }

  private static void measure(
      ApiStandIn api,
      Process p,
      CgroupLimits cgroup,
      Path dir,
      long launched,
      int workers,
      int flips,
      boolean smoke)
      throws Exception {
    Path script = dir.resolve("discover_hosts.sh");
    Path ready = dir.resolve("ready");
    Eventually.FileEvents fileEvents = Eventually.watching(dir);
    long allReady;
    long gateOpen;
    try {
      Eventually.until("first discover_hosts.sh", WAIT, () -> !alive(p) || Files.exists(script));
      if (!alive(p)) {
        throw new IllegalStateException("the sidecar exited with " + p.exitValue() + ooms(cgroup));
      }
      long firstScript = System.nanoTime() - launched;
      System.out.printf("start -> first discover_hosts.sh %d ms%n", firstScript / 1_000_000);
      // Every worker turns Ready, as a job's workers do once started: the gate opens at the last.
      long start = System.nanoTime();
      for (int i = 0; i < workers; i++) {
        api.setReady("pi-worker-" + i, true);
      }
      allReady = System.nanoTime() - start;
      Eventually.until(
          "the gate open with every worker Ready", WAIT, () -> !alive(p) || Files.exists(ready));
      if (!alive(p)) {
        throw new IllegalStateException(
            "the sidecar exited with " + p.exitValue() + " before the gate opened" + ooms(cgroup));
      }
      gateOpen = System.nanoTime() - start;
      Eventually.until(
          "discover_hosts.sh lists every worker", () -> !alive(p) || lines(script) == workers + 1);
    } finally {
      fileEvents.close();
    }
    System.out.printf(
        "%d workers turned Ready in %d ms (the bench's PATCHes); gate open %d ms after the first%n",
        workers, allReady / 1_000_000, gateOpen / 1_000_000);
    api.setReady("other-worker-0", true);

    long[] delays = new long[flips];
    for (int n = 0; n < flips; n++) {
      int worker = n % workers;
      // Every worker is Ready now: the first round takes them out, the next puts them back.
      boolean toReady = (n / workers) % 2 == 1;
      String before = Files.readString(script);
      long start = System.nanoTime();
      api.setReady("pi-worker-" + worker, toReady);
      while (Files.readString(script).equals(before)) {
        Thread.onSpinWait();
        if (System.nanoTime() - start > TimeUnit.SECONDS.toNanos(10) || !alive(p)) {
          throw new IllegalStateException(
              "flip " + n + ": no change within 10 s" + (alive(p) ? "" : ", the sidecar exited"));
        }
      }
      delays[n] = System.nanoTime() - start;
    }
    if (System.getProperty("bench.nmt") != null) {
      String jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd").toString();
      new ProcessBuilder(jcmd, Long.toString(p.pid()), "VM.native_memory", "summary")
          .inheritIO()
          .start()
          .waitFor();
      new ProcessBuilder(jcmd, Long.toString(p.pid()), "GC.class_histogram")
          .inheritIO()
          .start()
          .waitFor();
      System.out.println(
          Files.readString(Path.of("/proc", Long.toString(p.pid()), "smaps_rollup")));
      System.out.println("threads: " + kib(p.pid(), "Threads"));
    }
    long rss = kib(p.pid(), "VmRSS");
    long hwm = kib(p.pid(), "VmHWM");
    long stop = System.nanoTime();
    p.destroy(); // SIGTERM
    boolean exited = p.waitFor(30, TimeUnit.SECONDS);
    long stopMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - stop);
    System.out.printf("workers %d, flips %d%n", workers, flips);
    System.out.printf(
        "RSS at the end %d KiB (%.1f MiB), peak (VmHWM) %d KiB (%.1f MiB)%n",
        rss, rss / 1024.0, hwm, hwm / 1024.0);
    if (cgroup != null) {
      System.out.printf(
          "cgroup %s: peak memory %.1f MiB (page cache included), OOM kills %d, CPU-throttled"
              + " periods %d%n",
          cgroup.version(),
          cgroup.peakMemoryBytes() / 1048576.0,
          cgroup.oomKills(),
          cgroup.throttledPeriods());
    } else {
      System.out.println("no-limits: no control group, limits not enforced");
    }
    if (flips > 0) {
      long[] sorted = delays.clone();
      Arrays.sort(sorted);
      System.out.printf(
          "Ready -> discover_hosts.sh: first %.1f ms, median %.1f ms, p90 %.1f ms, max %.1f ms%n",
          delays[0] / 1e6,
          sorted[flips / 2] / 1e6,
          sorted[(int) (flips * 0.9)] / 1e6,
          sorted[flips - 1] / 1e6);
    }
    System.out.printf(
        "lists: %d, watches: %d; SIGTERM -> exit %s in %d ms%n",
        api.lists.get(),
        api.watchRequests.get(),
        exited ? Integer.toString(p.exitValue()) : "(still running)",
        stopMillis);
    if (!exited || p.exitValue() != 0) {
      throw new IllegalStateException("the sidecar did not exit 0 on SIGTERM" + ooms(cgroup));
    }
    if (cgroup != null && cgroup.oomKills() > 0) {
      throw new IllegalStateException("the OOM killer ended a process of the sidecar's group");
    }
  }

  private static boolean alive(Process p) {
    return p.isAlive();
  }

  private static String ooms(CgroupLimits cgroup) {
    return cgroup == null ? "" : " (OOM kills in its group: " + cgroup.oomKills() + ")";
  }

  private static long lines(Path file) {
    try {
      return Files.readString(file).lines().count();
    } catch (java.io.IOException e) {
      return -1;
    }
  }

  /**
   * A worker pod as the API server returns it for a rendered MPIJob, about 6 KB of JSON: one
   * container with its command, environment, mounts and resources, volumes, the default tolerations
   * the admission plugins add, the pod's conditions and that container's status (the Ready
   * condition stays first, {@link ApiStandIn#setReady} flips it), and the managed fields of the
   * StatefulSet controller and the kubelet.
   */
  public static Pod realistic(Pod worker) {
    Pod pod = withSpecAndStatus(worker);
    pod.getMetadata()
        .setManagedFields(
            List.of(
                managed("kube-controller-manager", "Update", null, fieldsOf(pod.getSpec(), 0)),
                managed("kubelet", "Update", "status", fieldsOf(pod.getStatus(), 0))));
    return pod;
  }

  private static ManagedFieldsEntry managed(
      String manager, String operation, String subresource, Map<String, Object> fields) {
    ManagedFieldsEntry e = new ManagedFieldsEntry();
    e.setApiVersion("v1");
    e.setFieldsType("FieldsV1");
    FieldsV1 f = new FieldsV1();
    f.setAdditionalProperty("f:" + (subresource == null ? "spec" : subresource), fields);
    e.setFieldsV1(f);
    e.setManager(manager);
    e.setOperation(operation);
    e.setSubresource(subresource);
    e.setTime("2026-11-23T10:00:05Z");
    return e;
  }

  private static final com.fasterxml.jackson.databind.ObjectMapper TREES =
      new com.fasterxml.jackson.databind.ObjectMapper();

  /** The managed-fields form of an object: {@code f:<name>} per field set, {@code {}} per leaf. */
  private static Map<String, Object> fieldsOf(Object value, int depth) {
    return fields(TREES.convertValue(value, Object.class));
  }

  private static Map<String, Object> fields(Object tree) {
    Map<String, Object> out = new java.util.TreeMap<>();
    if (tree instanceof Map<?, ?> m) {
      m.forEach((k, v) -> out.put("f:" + k, fields(v)));
    } else if (tree instanceof List<?> list) {
      int i = 0;
      for (Object item : list) {
        String key =
            item instanceof Map<?, ?> im && im.get("name") != null
                ? "k:{\"name\":\"" + im.get("name") + "\"}"
                : "i:" + i;
        out.put(key, fields(item));
        i++;
      }
    }
    return out;
  }

  private static Pod withSpecAndStatus(Pod worker) {
    String name = worker.getMetadata().getName();
    List<EnvVar> env = new ArrayList<>();
    for (int i = 0; i < 12; i++) {
      env.add(new EnvVar("OMPI_MCA_VAR_" + i, "value-" + i, null));
    }
    return new PodBuilder(worker)
        .editMetadata()
        .addToAnnotations("kubectl.kubernetes.io/default-container", "worker")
        .addToLabels("apps.kubernetes.io/pod-index", name.substring(name.lastIndexOf('-') + 1))
        .addToLabels("statefulset.kubernetes.io/pod-name", name)
        .addNewOwnerReference()
        .withApiVersion("apps/v1")
        .withKind("StatefulSet")
        .withName("pi-worker")
        .withUid("8b1c6d2e-3f4a-4b5c-9d6e-7f8091a2b3c4")
        .withController(true)
        .endOwnerReference()
        .endMetadata()
        .withNewSpec()
        .withHostname(name)
        .withSubdomain("pi-worker")
        .withServiceAccountName("default")
        .withNodeName("node-" + Math.floorMod(name.hashCode(), 16))
        .withRestartPolicy("Always")
        .addToContainers(
            new ContainerBuilder()
                .withName("worker")
                .withImage("mpioperator/mpi-pi:openmpi")
                .withCommand("/usr/sbin/sshd", "-De", "-f", "/home/mpiuser/.sshd_config")
                .withEnv(env)
                .addNewVolumeMount()
                .withName("ssh-auth")
                .withMountPath("/mnt/ssh")
                .withReadOnly(true)
                .endVolumeMount()
                .addNewVolumeMount()
                .withName("kube-api-access")
                .withMountPath("/var/run/secrets/kubernetes.io/serviceaccount")
                .withReadOnly(true)
                .endVolumeMount()
                .withNewResources()
                .withLimits(Map.of("cpu", new Quantity("1"), "memory", new Quantity("1Gi")))
                .withRequests(Map.of("cpu", new Quantity("1"), "memory", new Quantity("1Gi")))
                .endResources()
                .build())
        .addNewToleration()
        .withKey("node.kubernetes.io/not-ready")
        .withOperator("Exists")
        .withEffect("NoExecute")
        .withTolerationSeconds(300L)
        .endToleration()
        .addNewToleration()
        .withKey("node.kubernetes.io/unreachable")
        .withOperator("Exists")
        .withEffect("NoExecute")
        .withTolerationSeconds(300L)
        .endToleration()
        .withDnsPolicy("ClusterFirst")
        .withEnableServiceLinks(true)
        .withPreemptionPolicy("PreemptLowerPriority")
        .withPriority(0)
        .withSchedulerName("default-scheduler")
        .withTerminationGracePeriodSeconds(30L)
        .addNewVolume()
        .withName("mpi-job-config")
        .withNewConfigMap()
        .withName("pi-config")
        .addNewItem()
        .withKey("kubexec.sh")
        .withPath("kubexec.sh")
        .withMode(0555)
        .endItem()
        .endConfigMap()
        .endVolume()
        .addNewVolume()
        .withName("scratch")
        .withNewEmptyDir()
        .withMedium("Memory")
        .withSizeLimit(new Quantity("1Gi"))
        .endEmptyDir()
        .endVolume()
        .addNewVolume()
        .withName("ssh-auth")
        .withNewSecret()
        .withSecretName("pi-ssh")
        .withDefaultMode(0600)
        .endSecret()
        .endVolume()
        .endSpec()
        .editStatus()
        .withHostIP("192.168.1." + Math.floorMod(name.hashCode(), 16))
        .withQosClass("Guaranteed")
        .addNewCondition()
        .withType("PodReadyToStartContainers")
        .withStatus("True")
        .withLastTransitionTime("2026-11-23T10:00:03Z")
        .endCondition()
        .addNewCondition()
        .withType("Initialized")
        .withStatus("True")
        .withLastTransitionTime("2026-11-23T10:00:01Z")
        .endCondition()
        .addNewCondition()
        .withType("ContainersReady")
        .withStatus("True")
        .withLastTransitionTime("2026-11-23T10:00:06Z")
        .endCondition()
        .addNewCondition()
        .withType("PodScheduled")
        .withStatus("True")
        .withLastTransitionTime("2026-11-23T10:00:00Z")
        .endCondition()
        .addToPodIPs(new io.fabric8.kubernetes.api.model.PodIP(worker.getStatus().getPodIP()))
        .addToHostIPs(
            new io.fabric8.kubernetes.api.model.HostIP(
                "192.168.1." + Math.floorMod(name.hashCode(), 16)))
        .withStartTime("2026-11-23T10:00:00Z")
        .addToContainerStatuses(
            new ContainerStatusBuilder()
                .withName("worker")
                .withImage("docker.io/mpioperator/mpi-pi:openmpi")
                .withImageID("docker.io/mpioperator/mpi-pi@sha256:" + "0123456789abcdef".repeat(4))
                .withContainerID("containerd://" + "fedcba9876543210".repeat(4))
                .withReady(true)
                .withStarted(true)
                .withRestartCount(0)
                .withNewState()
                .withNewRunning("2026-11-23T10:00:05Z")
                .endState()
                .build())
        .endStatus()
        .build();
  }

  private static long kib(long pid, String field) throws java.io.IOException {
    for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
      if (line.startsWith(field + ":")) {
        return Long.parseLong(line.replaceAll("\\D+", ""));
      }
    }
    return -1;
  }
}
