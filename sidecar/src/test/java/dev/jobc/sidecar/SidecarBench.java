package dev.jobc.sidecar;

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
 * API on loopback, flips workers Ready and not Ready, and reports the process' resident memory, the
 * delay from a pod turning Ready to {@code discover_hosts.sh} changing, and the number of lists the
 * sidecar made.
 *
 * <p>Arguments: {@code JAR JAVA_TOOL_OPTIONS [flips]}.
 */
public final class SidecarBench {
  private SidecarBench() {}

  public static void main(String[] args) throws Exception {
    Path jar = Path.of(args[0]);
    String jvmOptions = args[1];
    int flips = args.length > 2 ? Integer.parseInt(args[2]) : 40;
    int workers = 8;
    Path dir = Files.createTempDirectory("jobc-sidecar-bench");
    try (ApiStandIn api = new ApiStandIn()) {
      api.create(ApiStandIn.launcher("pi"));
      for (int i = 0; i < workers; i++) {
        api.create(ApiStandIn.worker("pi", i, false, "10.0.0." + i));
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
      Process p = pb.start();
      Path script = dir.resolve("discover_hosts.sh");
      Eventually.until("first discover_hosts.sh", () -> Files.exists(script));

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
            throw new IllegalStateException("no change within 10 s");
          }
        }
        delays[n] = System.nanoTime() - start;
      }
      long rss = kib(p.pid(), "VmRSS");
      long hwm = kib(p.pid(), "VmHWM");
      long stop = System.nanoTime();
      p.destroy(); // SIGTERM
      boolean exited = p.waitFor(20, TimeUnit.SECONDS);
      long stopMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - stop);
      Arrays.sort(delays);
      System.out.printf(
          "RSS %d KiB (%.1f MiB), peak %d KiB (%.1f MiB)%n", rss, rss / 1024.0, hwm, hwm / 1024.0);
      System.out.printf(
          "Ready -> discover_hosts.sh: %d changes, median %.1f ms, p90 %.1f ms, max %.1f ms%n",
          flips,
          delays[flips / 2] / 1e6,
          delays[(int) (flips * 0.9)] / 1e6,
          delays[flips - 1] / 1e6);
      System.out.printf(
          "lists: %d, watches: %d; SIGTERM -> exit %s in %d ms%n",
          api.lists.get(),
          api.watchRequests.get(),
          exited ? Integer.toString(p.exitValue()) : "(still running)",
          stopMillis);
    }
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
