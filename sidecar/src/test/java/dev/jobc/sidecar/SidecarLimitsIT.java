package dev.jobc.sidecar;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jobc.conventions.DglNaming;
import dev.jobc.conventions.Naming;
import dev.jobc.testkit.ImageTar;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.rbac.Role;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The image's sidecars run as kubelet runs their containers: inside a control group with the CPU
 * quota and memory limit jobc renders for them ({@link CgroupLimits}), so that a sidecar too slow
 * for its CPU limit or too big for its memory limit fails here as it would on a node: the grace
 * period runs out, or the JVM or the kernel's OOM killer ends it.
 */
class SidecarLimitsIT {
  static ImageTar image;

  @TempDir Path dir;
  ApiStandIn api;
  final List<Process> processes = new ArrayList<>();
  final List<CgroupLimits> groups = new ArrayList<>();
  final List<Path> logs = new ArrayList<>();

  @BeforeAll
  static void openImage() throws IOException {
    SidecarImageIT.openImage();
    image = SidecarImageIT.image;
  }

  @BeforeEach
  void startApi() {
    api = null;
  }

  @AfterEach
  void stop() throws Exception {
    for (Process p : processes) {
      p.destroyForcibly();
      p.waitFor();
    }
    for (CgroupLimits g : groups) {
      g.close();
    }
    if (api != null) {
      api.close();
    }
    for (Path log : logs) {
      System.out.println("---- " + log.getFileName() + "\n" + SidecarImageIT.read(log));
    }
  }

  private Process start(KubeletStandIn kubelet, String container) throws IOException {
    CgroupLimits limits = kubelet.limits(container);
    groups.add(limits);
    Path log = dir.resolve(container + ".log");
    logs.add(log);
    Process p = kubelet.start(container, log, limits);
    processes.add(p);
    System.out.printf(
        "%s under cgroup %s limits: cpu %dm, memory %d MiB%n",
        container,
        limits.version(),
        RenderedSidecar.milliCpu(kubelet.container(container)),
        RenderedSidecar.memoryBytes(kubelet.container(container)) >> 20);
    return p;
  }

  /** kubelet for {@code pod}, with the rendered ConfigMap and the stand-in API. */
  private KubeletStandIn kubelet(List<HasMetadata> objects, Pod pod) throws IOException {
    return new KubeletStandIn(
        image,
        dir.resolve(pod.getMetadata().getName()),
        pod,
        List.of(SidecarImageIT.find(objects, ConfigMap.class)),
        api.url());
  }

  private String log(String container) {
    return SidecarImageIT.read(dir.resolve(container + ".log"));
  }

  /** Kubernetes' default grace period: from SIGTERM to SIGKILL, for the whole pod. */
  static final double GRACE_SECONDS = 30;

  /**
   * A DGLJob launcher's {@code jobc-release-workers}, SIGTERMed once its launcher has ended, at its
   * rendered CPU limit: the release must be done within the pod's grace period. At 50m, building
   * the client after SIGTERM took the whole grace; the StatefulSet stayed at 2 and the process
   * exited 143.
   */
  @Test
  void dglReleaseLetsTheWorkersGoWithinTheGracePeriodAtItsCpuLimit() throws Exception {
    dglRelease(true);
  }

  /**
   * The same when the launcher ends as the release starts (a launcher that fails at once): SIGTERM
   * as soon as the JVM runs, before the warm-up, so all the start-up work falls in the grace
   * period.
   */
  @Test
  void dglReleaseStoppedAtItsStartStillLetsTheWorkersGo() throws Exception {
    dglRelease(false);
  }

  private void dglRelease(boolean warm) throws Exception {
    api = new ApiStandIn();
    List<HasMetadata> objects = RenderedSidecar.render(SidecarImageIT.DGL_JOB);
    Pod launcher = SidecarImageIT.named(objects, Pod.class, "graphsage-launcher");
    StatefulSet workerSet = SidecarImageIT.find(objects, StatefulSet.class);
    String set = workerSet.getMetadata().getName();
    api.role = RoleCheck.of(SidecarImageIT.named(objects, Role.class, "graphsage-launcher"));
    api.scales.put(set, 2);
    api.create(SidecarImageIT.succeeded(launcher));
    KubeletStandIn kubelet = kubelet(objects, launcher);
    Process release = start(kubelet, DglNaming.WORKER_RELEASE);
    if (warm) {
      SidecarImageIT.until(
          "waiting for the stop",
          () -> log(DglNaming.WORKER_RELEASE).contains("when this pod stops"),
          release);
      assertThat(api.scalePatches).as("nothing before the stop").isEmpty();
    } else {
      // Its first words: SIGTERM handled from here on, and nothing sent to the API yet.
      SidecarImageIT.until(
          "the release started",
          () -> log(DglNaming.WORKER_RELEASE).contains("warming up"),
          release);
    }
    CgroupLimits group = groups.get(0);
    long cpuBefore = group.cpuNanos();
    long stopping = System.nanoTime();
    release.destroy(); // SIGTERM, as kubelet stops a native sidecar once the main container ended
    // kubelet's SIGKILL comes after the pod's grace period (30 s by default).
    assertThat(release.waitFor(30, TimeUnit.SECONDS)).as("exited within the grace period").isTrue();
    System.out.printf(
        "%s (%s): exit %d, %d ms after SIGTERM%n",
        DglNaming.WORKER_RELEASE,
        warm ? "warmed up" : "stopped at its start",
        release.exitValue(),
        TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - stopping));
    assertThat(release.exitValue()).as("exit code after SIGTERM").isZero();
    // What the release costs after SIGTERM, in CPU time (which a busy machine does not stretch as
    // it stretches wall time): it must fit the grace period at the CPU limit, with room to spare
    // for a node busier than this one. Warmed up: a tenth of it (measured: about 0.05 CPU-s);
    // stopped before the warm-up, the client's whole start: half of it (about 0.8 CPU-s). At 50m
    // without the warm-up it took 0.75 CPU-s after SIGTERM, and exited 143 on a slower node.
    double cpuSeconds = (group.cpuNanos() - cpuBefore) / 1e9;
    double budget =
        (warm ? 0.1 : 0.5)
            * GRACE_SECONDS
            * RenderedSidecar.milliCpu(kubelet.container(DglNaming.WORKER_RELEASE))
            / 1000.0;
    System.out.printf("CPU after SIGTERM: %.3f s (budget %.3f s)%n", cpuSeconds, budget);
    assertThat(cpuSeconds).as("CPU-seconds after SIGTERM").isLessThan(budget);
    assertThat(api.scales).containsEntry(set, 0);
    assertThat(api.admin.v1().events().inNamespace("team").list().getItems())
        .extracting(Event::getReason)
        .containsExactly("WorkersScaledDown");
    assertThat(api.denied).as("requests the rendered Role does not grant").isEmpty();
    assertThat(groups.get(0).oomKills()).isZero();
  }

  /**
   * The launcher's {@code run} sidecar rendered for 600 workers, at its rendered CPU and memory
   * limits, while 600 workers of a realistic size (about 6 KB of JSON each, managed fields
   * included) are listed and then all turn Ready: the gate opens. With a heap of 32 MiB whatever
   * the job's size and every pod kept whole, the JVM ran out of memory on the first list.
   */
  @Test
  void mpiRunOpensTheGateFor600RealisticWorkersWithinItsLimits() throws Exception {
    int workers = 600;
    api = ApiStandIn.withPodTable();
    List<HasMetadata> objects = RenderedSidecar.render(RenderedSidecar.mpiJob(workers));
    Job launcherJob = SidecarImageIT.named(objects, Job.class, Naming.launcher("pi"));
    api.role = RoleCheck.of(SidecarImageIT.named(objects, Role.class, Naming.launcher("pi")));
    Pod launcher =
        SidecarImageIT.pod(
            launcherJob.getSpec().getTemplate(),
            "team",
            "pi-launcher-x7k2p",
            "10.0.9.9",
            "Pending",
            null);
    api.create(launcher);
    api.scales.put(Naming.workerSet("pi"), workers);
    for (int i = 0; i < workers; i++) {
      api.create(
          SidecarBench.realistic(
              ApiStandIn.worker("pi", i, false, "10.0." + i / 250 + "." + i % 250)));
    }
    KubeletStandIn kubelet = kubelet(objects, launcher);
    Process sidecar = start(kubelet, Naming.SIDECAR);
    Path script = kubelet.hostPath(Naming.SIDECAR, Naming.CONFIG_MOUNT + "/discover_hosts.sh");
    SidecarImageIT.until("the first list read", () -> Files.exists(script), sidecar);
    for (int i = 0; i < workers; i++) {
      api.setReady("pi-worker-" + i, true);
    }
    SidecarImageIT.until(
        "startup probe passes", () -> kubelet.startupProbePasses(Naming.SIDECAR), sidecar);
    SidecarImageIT.until(
        "every worker in discover_hosts.sh",
        () -> SidecarImageIT.read(script).lines().count() == workers + 1,
        sidecar);
    SidecarImageIT.printPeakRss("run, 600 workers", sidecar, kubelet, Naming.SIDECAR);
    sidecar.destroy();
    assertThat(sidecar.waitFor(30, TimeUnit.SECONDS)).as("exited").isTrue();
    assertThat(sidecar.exitValue()).as("exit code after SIGTERM").isZero();
    assertThat(groups.get(0).oomKills()).as("OOM kills").isZero();
    assertThat(api.denied).as("requests the rendered Role does not grant").isEmpty();
  }
}
