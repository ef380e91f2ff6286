package dev.jobc.sidecar.mpi;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jobc.conventions.JobSetNames;
import dev.jobc.options.CompileOptions;
import dev.jobc.options.OptionTable;
import dev.jobc.options.Target;
import dev.jobc.sidecar.ApiStandIn;
import dev.jobc.sidecar.Eventually;
import dev.jobc.sidecar.OwnThread;
import dev.jobc.sidecar.RenderedSidecar;
import dev.jobc.sidecar.base.Termination;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.rbac.Role;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The {@code hosts} sidecar of an elastic MPIJob in the JobSet target, started with the arguments
 * the compiler renders for it, under the Role it renders, against the stand-in API holding the pods
 * the JobSet and Job controllers would create (names with a random suffix, the JobSet's labels, the
 * completion index).
 */
class JobSetHostsSidecarTest {
  static final String JOB = "elastic";
  static final String LAUNCHER_POD = "elastic-launcher-0-0-x7k2p";

  @TempDir Path dir;
  ApiStandIn api;
  Termination termination;
  CompletableFuture<Integer> running;
  Eventually.FileEvents fileEvents; // wakes Eventually at each write of the sidecar's files

  @BeforeEach
  void start() throws IOException {
    api = new ApiStandIn();
    termination = new Termination();
    Files.createDirectories(dir.resolve("config"));
    Files.createDirectories(dir.resolve("out"));
    Files.writeString(dir.resolve("config/hostfile"), "static hostfile\n");
    Files.writeString(dir.resolve("config/kubexec.sh"), "#!/bin/sh\n");
    fileEvents = Eventually.watching(dir, dir.resolve("out"));
  }

  @AfterEach
  void stop() throws Exception {
    termination.requestStop();
    Integer code = running == null ? null : running.get(20, TimeUnit.SECONDS);
    fileEvents.close();
    api.close();
    assertThat(api.denied).as("requests the rendered Role does not grant").isEmpty();
    if (running != null) {
      assertThat(code).as("exit code at SIGTERM").isZero();
    }
  }

  /**
   * Renders {@code input} in the JobSet target and starts the launcher's sidecar as its container's
   * arguments say (its directories moved into the test's), under the rendered Role.
   */
  private void runRendered(String input) {
    List<HasMetadata> objects =
        RenderedSidecar.render(
            input, CompileOptions.defaults().with(OptionTable.TARGET, Target.JOB_SET));
    api.under(RenderedSidecar.named(objects, Role.class, "elastic-launcher"));
    Container sidecar =
        launcherSidecar(RenderedSidecar.named(objects, GenericKubernetesResource.class, JOB));
    List<String> args = new ArrayList<>(sidecar.getArgs());
    assertThat(args.get(0)).isEqualTo(dev.jobc.mpi.SidecarContainers.HOSTS);
    Map<String, Path> moved =
        Map.of(
            "--config-dir", dir.resolve("config"),
            "--output-dir", dir.resolve("out"),
            "--ready-file", dir.resolve("ready"));
    for (int i = 1; i < args.size() - 1; i++) {
      Path to = moved.get(args.get(i));
      if (to != null) {
        args.set(i + 1, to.toString());
      }
    }
    assertThat(args)
        .as("every directory of the rendered command moved")
        .containsAll(moved.values().stream().map(Path::toString).toList());
    HostsCommand command =
        new HostsCommand(
            termination,
            () -> api.sidecarClient("hosts"),
            Map.of("POD_NAMESPACE", ApiStandIn.NS, "POD_NAME", LAUNCHER_POD));
    String[] argv = args.subList(1, args.size()).toArray(String[]::new);
    running = OwnThread.supply(() -> new CommandLine(command).execute(argv));
  }

  /** The launcher replicated Job's {@code jobc-sidecar} init container. */
  private static Container launcherSidecar(GenericKubernetesResource jobSet) {
    return RenderedSidecar.replicatedJobTemplate(jobSet, "launcher")
        .getSpec()
        .getInitContainers()
        .stream()
        .filter(c -> c.getName().equals("jobc-sidecar"))
        .findFirst()
        .orElseThrow();
  }

  /** A pod as the JobSet's child Job {@code <jobSet>-<replicatedJob>-0} creates it. */
  private static Pod pod(
      String jobSet, String replicatedJob, String index, String suffix, boolean ready) {
    return new PodBuilder()
        .withNewMetadata()
        .withName(jobSet + "-" + replicatedJob + "-0-" + index + "-" + suffix)
        .withNamespace(ApiStandIn.NS)
        .withLabels(
            Map.of(
                JobSetNames.JOBSET_NAME, jobSet,
                JobSetNames.REPLICATED_JOB_NAME, replicatedJob,
                JobSetNames.JOB_INDEX, "0",
                JobSetNames.COMPLETION_INDEX, index))
        .endMetadata()
        .withNewStatus()
        .withPhase("Running")
        .addNewCondition()
        .withType("Ready")
        .withStatus(ready ? "True" : "False")
        .endCondition()
        .endStatus()
        .build();
  }

  private String discoverHosts() {
    try {
      return Files.readString(dir.resolve("out/discover_hosts.sh"));
    } catch (IOException e) {
      return "(" + e.getClass().getSimpleName() + ")";
    }
  }

  /** The v2beta1 script for workers {@code indexes}: the JobSet's host names under the job. */
  private static String fqdnScript(int... indexes) {
    return "#!/bin/sh\n"
        + IntStream.of(indexes)
            .mapToObj(i -> "echo elastic-worker-0-" + i + ".elastic.team.svc\n")
            .collect(Collectors.joining());
  }

  @Test
  void followsTheReadyWorkersOfItsJobSetByCompletionIndexUpToMaxReplicas() throws Exception {
    api.create(pod(JOB, "worker", "0", "a1b2c", true));
    api.create(pod(JOB, "worker", "1", "d3e4f", true));
    // Not workers of this job: its launcher, another JobSet's worker.
    api.create(pod(JOB, "launcher", "0", "x7k2p", true));
    api.create(pod("other", "worker", "2", "g5h6i", true));
    runRendered(RenderedSidecar.elasticMpiJob("v2beta1", 1, 4));

    Eventually.equals("the initial workers", fqdnScript(0, 1), this::discoverHosts);
    Eventually.until("gate open", () -> Files.exists(dir.resolve("ready")));
    assertThat(Files.readString(dir.resolve("out/hostfile"))).isEqualTo("static hostfile\n");
    assertThat(Files.isExecutable(dir.resolve("out/kubexec.sh"))).isTrue();
    assertThat(Files.isExecutable(dir.resolve("out/discover_hosts.sh"))).isTrue();

    // Scaled up (parallelism and completions 5): index 2 and 3 join, 4 is past max-replicas.
    api.create(pod(JOB, "worker", "4", "j7k8l", true));
    api.create(pod(JOB, "worker", "3", "m9n0o", true));
    api.create(pod(JOB, "worker", "2", "p1q2r", false));
    Eventually.equals("3 joined, 4 left out", fqdnScript(0, 1, 3), this::discoverHosts);
    api.setReady("elastic-worker-0-2-p1q2r", true);
    Eventually.equals("2 Ready", fqdnScript(0, 1, 2, 3), this::discoverHosts);
    api.setReady("elastic-worker-0-1-d3e4f", false);
    Eventually.equals("1 no longer Ready", fqdnScript(0, 2, 3), this::discoverHosts);
    api.delete("elastic-worker-0-3-m9n0o");
    Eventually.equals("3 deleted (scaled down)", fqdnScript(0, 2), this::discoverHosts);
  }

  @Test
  void aReplacedWorkerIsListedOnceAndV1NamesHostsWithSlots() throws Exception {
    api.create(pod(JOB, "worker", "0", "a1b2c", true));
    // Worker 1's first pod failed; the Job controller has created its replacement.
    api.create(pod(JOB, "worker", "1", "d3e4f", false));
    api.create(pod(JOB, "worker", "1", "s3t4u", true));
    runRendered(RenderedSidecar.elasticMpiJob("v1", 2, 3));

    Eventually.equals(
        "v1 form, worker 1 once",
        "#!/bin/sh\necho elastic-worker-0-0:2\necho elastic-worker-0-1:2\n",
        this::discoverHosts);
    api.create(pod(JOB, "worker", "3", "v5w6x", true));
    api.create(pod(JOB, "worker", "2", "y7z8a", true));
    Eventually.equals(
        "2 joined, 3 past max-replicas",
        "#!/bin/sh\necho elastic-worker-0-0:2\necho elastic-worker-0-1:2\necho elastic-worker-0-2:2\n",
        this::discoverHosts);
  }

  @Test
  void aPodWhoseIndexLabelIsNotAnIndexIsLeftOut() {
    api.create(pod(JOB, "worker", "0", "a1b2c", true));
    api.create(pod(JOB, "worker", "1", "d3e4f", true));
    api.create(pod(JOB, "worker", "-1", "b2c3d", true));
    api.create(pod(JOB, "worker", "x", "e4f5g", true));
    api.create(pod(JOB, "worker", "99999999999", "h6i7j", true));
    runRendered(RenderedSidecar.elasticMpiJob("v2beta1", 1, 4));
    Eventually.equals("workers 0 and 1 only", fqdnScript(0, 1), this::discoverHosts);
    assertThat(JobSetHostsSidecar.completionIndex(pod(JOB, "worker", "007", "k", true)))
        .isEqualTo(7);
  }
}
