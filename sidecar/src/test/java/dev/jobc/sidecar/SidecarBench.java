package dev.jobc.sidecar;

import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.EnvVar;
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
 * jar's {@code run} as its own process with the JVM options the compiler renders, against the mock
 * API on loopback, flips workers Ready and not Ready, and reports the process' resident memory (at
 * the end and its peak), the delay from a pod turning Ready to {@code discover_hosts.sh} changing,
 * and the number of lists and watches the sidecar made. The workers carry a spec and container
 * statuses of a realistic size, so that the sidecar's heap holds what it would in a cluster.
 *
 * <p>Arguments: {@code JAR JAVA_TOOL_OPTIONS workers flips [smoke]}. In smoke mode it exits
 * non-zero when the sidecar does not start, does not follow a flip within 10 s or does not exit 0
 * on SIGTERM; it never judges the figures. With the system property {@code bench.nmt} it also
 * prints {@code jcmd VM.native_memory summary}, the heap's class histogram (the options must then
 * enable native memory tracking) and {@code smaps_rollup} before the stop.
 */
public final class SidecarBench {
  private SidecarBench() {}

  public static void main(String[] args) throws Exception {
    Path jar = Path.of(args[0]);
    String jvmOptions = args[1];
    int workers = Integer.parseInt(args[2]);
    int flips = Integer.parseInt(args[3]);
    boolean smoke = args.length > 4 && args[4].equals("smoke");
    Path dir = Files.createTempDirectory("jobc-sidecar-bench");
    try (ApiStandIn api =
        new ApiStandIn()
            .withoutRole("a footprint benchmark: what run may do is tested elsewhere")) {
      api.create(ApiStandIn.launcher("pi"));
      // Another job's worker, outside the sidecar's selector: flipped once before the timed
      // flips, so that the first of them does not include this process' own first PATCH.
      api.create(ApiStandIn.worker("other", 0, false, "10.1.0.1"));
      for (int i = 0; i < workers; i++) {
        api.create(realistic(ApiStandIn.worker("pi", i, false, "10.0." + i / 250 + "." + i % 250)));
      }
      List<String> command = new ArrayList<>();
      command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
      command.addAll(List.of("-jar", jar.toString(), "run", "--job", "pi", "--slots", "1"));
      command.addAll(List.of("--ready-workers", "1", "--worker-set", "pi-worker"));
      command.addAll(List.of("--clean-pod-policy", "Running", "--launcher-container", "l"));
      command.addAll(List.of("--output-dir", dir.toString()));
      command.addAll(List.of("--ready-file", dir.resolve("ready").toString()));
      ProcessBuilder pb = new ProcessBuilder(command).inheritIO();
      Map<String, String> env = pb.environment();
      env.put("KUBERNETES_MASTER", api.url());
      env.put("KUBERNETES_NAMESPACE", ApiStandIn.NS);
      env.put("POD_NAME", "pi-launcher-abcde");
      env.put("POD_NAMESPACE", ApiStandIn.NS);
      env.put("JAVA_TOOL_OPTIONS", jvmOptions);
      env.put("KUBERNETES_AUTH_TRYKUBECONFIG", "false");
      env.put("KUBERNETES_AUTH_TRYSERVICEACCOUNT", "false");
      long launched = System.nanoTime();
      Process p = pb.start();
      try {
        measure(api, p, dir, launched, workers, flips, smoke);
      } finally {
        p.destroyForcibly(); // a no-op once it has exited; else the failure left it running
      }
    }
    System.exit(0);
  }

  private static void measure(
      ApiStandIn api, Process p, Path dir, long launched, int workers, int flips, boolean smoke)
      throws Exception {
    Path script = dir.resolve("discover_hosts.sh");
    Eventually.FileEvents fileEvents = Eventually.watching(dir);
    try {
      Eventually.until("first discover_hosts.sh", () -> Files.exists(script));
    } finally {
      fileEvents.close();
    }
    long firstScript = System.nanoTime() - launched;
    api.setReady("other-worker-0", true);

    long[] delays = new long[flips];
    for (int n = 0; n < flips; n++) {
      int worker = n % workers;
      boolean ready = (n / workers) % 2 == 0;
      String before = Files.readString(script);
      long start = System.nanoTime();
      api.setReady("pi-worker-" + worker, ready);
      while (Files.readString(script).equals(before)) {
        Thread.onSpinWait();
        if (System.nanoTime() - start > TimeUnit.SECONDS.toNanos(10)) {
          throw new IllegalStateException("flip " + n + ": no change within 10 s");
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
    boolean exited = p.waitFor(20, TimeUnit.SECONDS);
    long stopMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - stop);
    long first = delays[0];
    long[] sorted = delays.clone();
    Arrays.sort(sorted);
    System.out.printf("workers %d, flips %d%n", workers, flips);
    System.out.printf(
        "RSS at the end %d KiB (%.1f MiB), peak (VmHWM) %d KiB (%.1f MiB)%n",
        rss, rss / 1024.0, hwm, hwm / 1024.0);
    System.out.printf(
        "start -> first discover_hosts.sh %d ms; Ready -> discover_hosts.sh: first %.1f ms,"
            + " median %.1f ms, p90 %.1f ms, max %.1f ms%n",
        TimeUnit.NANOSECONDS.toMillis(firstScript),
        first / 1e6,
        sorted[flips / 2] / 1e6,
        sorted[(int) (flips * 0.9)] / 1e6,
        sorted[flips - 1] / 1e6);
    System.out.printf(
        "lists: %d, watches: %d; SIGTERM -> exit %s in %d ms%n",
        api.lists.get(),
        api.watchRequests.get(),
        exited ? Integer.toString(p.exitValue()) : "(still running)",
        stopMillis);
    if (smoke && (!exited || p.exitValue() != 0)) {
      throw new IllegalStateException("smoke: the sidecar did not exit 0 on SIGTERM");
    }
  }

  /**
   * A worker pod as the API server returns it for a rendered MPIJob: one container with its
   * command, environment, mounts and resources, and that container's status (the Ready condition
   * stays first, {@link ApiStandIn#setReady} flips it).
   */
  private static Pod realistic(Pod worker) {
    String name = worker.getMetadata().getName();
    List<EnvVar> env = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
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
