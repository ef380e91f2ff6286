package dev.jobc.sidecar;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A child control group with a CPU quota and a memory limit, as kubelet gives a container its
 * {@code limits.cpu} (CFS quota over a 100 ms period) and {@code limits.memory} (the OOM killer at
 * the limit). Processes run in it through {@link #wrap}. cgroup v2 ({@code cpu.max}, {@code
 * memory.max}) where {@code /sys/fs/cgroup} is the unified hierarchy with both controllers
 * available to this process' group; otherwise cgroup v1 ({@code cpu.cfs_quota_us}, {@code
 * memory.limit_in_bytes}, and {@code cpuacct} to account the CPU used) under this process' own
 * {@code cpu}, {@code memory} and {@code cpuacct} groups. Needs write access to those (root, as CI
 * runs): without it, creating one fails and says why; tests never skip for it.
 */
final class CgroupLimits implements AutoCloseable {
  static final Path ROOT = Path.of("/sys/fs/cgroup");
  private static final long PERIOD_MICROS = 100_000;
  private static final AtomicInteger COUNT = new AtomicInteger();

  private final List<Path> groups;
  private final boolean v2;

  private CgroupLimits(List<Path> groups, boolean v2) {
    this.groups = groups;
    this.v2 = v2;
  }

  /**
   * A new group allowing {@code milliCpu} thousandths of a CPU and {@code memoryBytes} of memory
   * (no swap).
   */
  static CgroupLimits create(long milliCpu, long memoryBytes) {
    String name = "jobc-test-" + ProcessHandle.current().pid() + "-" + COUNT.incrementAndGet();
    long quota = milliCpu * PERIOD_MICROS / 1000;
    try {
      if (Files.exists(ROOT.resolve("cgroup.controllers"))) {
        Path own = ROOT.resolve(ownGroup("").substring(1));
        String available = Files.readString(own.resolve("cgroup.controllers"));
        if (!available.contains("cpu") || !available.contains("memory")) {
          throw new IllegalStateException(
              "cgroup v2 at "
                  + own
                  + " offers no cpu and memory controllers ("
                  + available.strip()
                  + ")");
        }
        Path group = own.resolve(name);
        Files.createDirectory(group);
        CgroupLimits limits = new CgroupLimits(List.of(group), true);
        write(group.resolve("cpu.max"), quota + " " + PERIOD_MICROS);
        write(group.resolve("memory.max"), Long.toString(memoryBytes));
        write(group.resolve("memory.swap.max"), "0");
        return limits;
      }
      Path cpu = ROOT.resolve("cpu").resolve(ownGroup("cpu").substring(1)).resolve(name);
      Path memory = ROOT.resolve("memory").resolve(ownGroup("memory").substring(1)).resolve(name);
      Path cpuacct =
          ROOT.resolve("cpuacct").resolve(ownGroup("cpuacct").substring(1)).resolve(name);
      Files.createDirectory(cpu);
      Files.createDirectory(memory);
      Files.createDirectory(cpuacct);
      CgroupLimits limits = new CgroupLimits(List.of(cpu, memory, cpuacct), false);
      write(cpu.resolve("cpu.cfs_period_us"), Long.toString(PERIOD_MICROS));
      write(cpu.resolve("cpu.cfs_quota_us"), Long.toString(quota));
      write(memory.resolve("memory.limit_in_bytes"), Long.toString(memoryBytes));
      if (Files.exists(memory.resolve("memory.memsw.limit_in_bytes"))) {
        write(memory.resolve("memory.memsw.limit_in_bytes"), Long.toString(memoryBytes));
      }
      return limits;
    } catch (IOException e) {
      throw new IllegalStateException(
          "cannot create a control group with CPU and memory limits under "
              + ROOT
              + " (these tests run processes under a container's real limits and need write"
              + " access to the cgroup file system, as root has): "
              + e,
          e);
    }
  }

  /** This process' group in the hierarchy of {@code controller} ("" for cgroup v2). */
  private static String ownGroup(String controller) throws IOException {
    for (String line : Files.readAllLines(Path.of("/proc/self/cgroup"))) {
      String[] parts = line.split(":", 3);
      if (controller.isEmpty()
          ? parts[0].equals("0")
          : List.of(parts[1].split(",")).contains(controller)) {
        return parts[2];
      }
    }
    throw new IOException(
        "no " + (controller.isEmpty() ? "cgroup v2" : controller) + " group in /proc/self/cgroup");
  }

  private static void write(Path file, String value) throws IOException {
    Files.writeString(file, value);
  }

  /**
   * {@code command} started inside this group: a shell moves itself in, then {@code exec}s the
   * command, so the process and everything it starts are limited from their first instruction.
   */
  List<String> wrap(List<String> command) {
    StringBuilder moves = new StringBuilder();
    for (Path g : groups) {
      moves.append("echo $$ > '").append(g.resolve("cgroup.procs")).append("' && ");
    }
    List<String> out = new ArrayList<>(List.of("/bin/sh", "-c", moves + "exec \"$@\"", "sh"));
    out.addAll(command);
    return out;
  }

  /**
   * The highest memory use the group has seen, in bytes (page cache included, as kubelet counts).
   */
  long peakMemoryBytes() {
    return Long.parseLong(
        read(
            v2
                ? groups.get(0).resolve("memory.peak")
                : groups.get(1).resolve("memory.max_usage_in_bytes")));
  }

  /** How often the kernel's OOM killer ended a process of the group. */
  long oomKills() {
    Path events =
        v2 ? groups.get(0).resolve("memory.events") : groups.get(1).resolve("memory.oom_control");
    for (String line : read(events).split("\n")) {
      if (line.startsWith("oom_kill ")) {
        return Long.parseLong(line.substring("oom_kill ".length()).strip());
      }
    }
    return 0;
  }

  /** How often the CPU quota held the group back (CFS throttling periods). */
  long throttledPeriods() {
    for (String line : read(groups.get(0).resolve("cpu.stat")).split("\n")) {
      if (line.startsWith("nr_throttled ")) {
        return Long.parseLong(line.substring("nr_throttled ".length()).strip());
      }
    }
    return 0;
  }

  /** The CPU time the group's processes have used so far, in nanoseconds. */
  long cpuNanos() {
    if (v2) {
      for (String line : read(groups.get(0).resolve("cpu.stat")).split("\n")) {
        if (line.startsWith("usage_usec ")) {
          return Long.parseLong(line.substring("usage_usec ".length()).strip()) * 1000;
        }
      }
      throw new IllegalStateException("no usage_usec in cpu.stat");
    }
    // v1: the cpu controller's own cpu.stat has no usage; the cpuacct group has it.
    return Long.parseLong(read(groups.get(2).resolve("cpuacct.usage")));
  }

  /** Which cgroup version limits apply ("v1" or "v2"), for reports. */
  String version() {
    return v2 ? "v2" : "v1";
  }

  private static String read(Path file) {
    try {
      return Files.readString(file).strip();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Removes the groups; their processes must have ended. */
  @Override
  public void close() {
    for (Path g : groups) {
      try {
        Files.deleteIfExists(g);
      } catch (NoSuchFileException e) {
        // gone already
      } catch (IOException e) {
        throw new UncheckedIOException("cannot remove " + g + " (a process still in it?)", e);
      }
    }
  }
}
