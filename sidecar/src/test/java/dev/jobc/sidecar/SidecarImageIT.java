package dev.jobc.sidecar;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jobc.conventions.DglNaming;
import dev.jobc.conventions.JobSetNames;
import dev.jobc.conventions.Naming;
import dev.jobc.options.CompileOptions;
import dev.jobc.options.OptionTable;
import dev.jobc.options.Target;
import dev.jobc.testkit.ImageTar;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerStateBuilder;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.SecurityContext;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.client.dsl.NonDeletingOperation;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The {@code jobc-sidecar} image run as rendered pods run it: the image the build just made (Jib's
 * tar, on {@code scratch}; pom.xml), its entrypoint as its own process with exactly the arguments,
 * environment and JVM options ({@code JAVA_TOOL_OPTIONS}) jobc renders for a job (see {@link
 * KubeletStandIn}), against fabric8's mock API ({@link ApiStandIn}). Before jobc-conventions, the
 * shaded jar's class-by-class include list left out {@code MpiLabels$Style}, and {@code run} died
 * at start with {@code NoClassDefFoundError}.
 */
class SidecarImageIT {
  static final Path REPOSITORY = Path.of(System.getProperty("jobc.root", ".."));
  static final String VERSION = System.getProperty("jobc.version");

  /**
   * The sidecar's own version, its image's second tag: what rendered pods pull by default, stable
   * across jobc releases that leave the sidecar alone (a launcher Job's pod template is immutable).
   */
  static final String SIDECAR_VERSION = System.getProperty("jobc.sidecar.version");

  static final String CLASS_PATH_FILE = "/app/jib-classpath-file";

  /** The libraries of the compiler, or picocli's own jar: neither belongs in the sidecar. */
  static final List<String> COMPILER_LIBRARIES =
      List.of(
          "freemarker/",
          "com/networknt/",
          "com/ethlo/",
          "META-INF/maven/dev.jobc/jobc-compiler/",
          "META-INF/maven/dev.jobc/jobc-schemas/",
          "META-INF/maven/dev.jobc/jobc-templates/",
          "META-INF/maven/info.picocli/");

  static ImageTar image;

  /** Generous: the first start loads the JVM and fabric8 on a loaded 2-core machine. */
  static final Duration DEADLINE = Duration.ofMinutes(2);

  static final KubernetesSerialization YAML = new KubernetesSerialization();

  /** The script the launcher reads, which the sidecar keeps live. */
  static final String DISCOVER_HOSTS = "discover_hosts.sh";

  /** A DGLJob in dgl-operator's GraphSAGE example's shape (DGL-API partitioning). */
  static final String DGL_JOB =
      """
            apiVersion: qihoo.net/v1alpha1
            kind: DGLJob
            metadata: {name: graphsage, namespace: team}
            spec:
              partitionMode: DGL-API
              dglReplicaSpecs:
                Launcher:
                  replicas: 1
                  template:
                    spec:
                      containers:
                      - name: graphsage
                        image: dgloperator/examples:graphsage-dist
                        command: [dglrun]
                        args: [--graph-name, graphsage, --num-partitions, "2"]
                Worker:
                  replicas: 2
                  template:
                    spec:
                      containers:
                      - {name: graphsage, image: dgloperator/examples:graphsage-dist}
            """;

  @TempDir Path dir;
  ApiStandIn api;
  final List<Process> processes = new ArrayList<>();
  final List<Path> logs = new ArrayList<>();

  @BeforeAll
  static void openImage() throws IOException {
    String tar = System.getProperty("jobc.image.tar");
    assertThat(tar).as("system property jobc.image.tar (run through Maven)").isNotNull();
    image = ImageTar.open(Path.of(tar), Files.createTempDirectory("jobc-sidecar-image-"));
  }

  @BeforeEach
  void startApi() {
    api = new ApiStandIn();
  }

  @AfterEach
  void stop() throws IOException {
    for (Process p : processes) {
      p.destroyForcibly();
    }
    api.close();
    for (Path log : logs) {
      System.out.println("---- " + log.getFileName() + "\n" + Files.readString(log));
    }
  }

  /**
   * {@code run} beside an MPIJob's launcher: discover_hosts.sh follows the Ready workers, the
   * startup probe passes once the initial workers are Ready, the clean-up follows the launcher's
   * end, and SIGTERM ends the process with exit code 0.
   */
  @ParameterizedTest
  @CsvSource({
    "examples/pi.yaml, WorkersScaledDown",
    "examples/tensorflow-benchmarks-v1.yaml, WorkersKept"
  })
  void runFollowsReadyWorkersAndStopsOnSigterm(String example, String cleanUpReason)
      throws Exception {
    List<HasMetadata> objects = render(Files.readString(REPOSITORY.resolve(example)));
    Job launcherJob = launcherJob(objects);
    StatefulSet workerSet = find(objects, StatefulSet.class);
    ConfigMap config = find(objects, ConfigMap.class);
    String ns = launcherJob.getMetadata().getNamespace();
    int workers = workerSet.getSpec().getReplicas();
    assertThat(workers).as("the example's workers").isGreaterThanOrEqualTo(2);

    // RBAC as the API server applies it: only what the rendered Role grants.
    api.role = RoleCheck.of(named(objects, Role.class, launcherJob.getMetadata().getName()));
    api.scales.put(workerSet.getMetadata().getName(), workerSet.getSpec().getReplicas());
    String jobUid = createJob(launcherJob, false);

    // The Job controller's pod, and the StatefulSet's (not Ready yet).
    String launcherName = launcherJob.getMetadata().getName() + "-x7k2p";
    Pod launcher =
        pod(launcherJob.getSpec().getTemplate(), ns, launcherName, "10.0.9.9", "Pending", null);
    launcher
        .getMetadata()
        .getOwnerReferences()
        .add(
            new OwnerReferenceBuilder()
                .withApiVersion("batch/v1")
                .withKind("Job")
                .withName(launcherJob.getMetadata().getName())
                .withUid(jobUid)
                .withController(true)
                .build());
    create(launcher);
    List<String> workerPods = new ArrayList<>();
    for (int i = 0; i < workers; i++) {
      String name = workerSet.getMetadata().getName() + "-" + i;
      workerPods.add(name);
      create(pod(workerSet.getSpec().getTemplate(), ns, name, "10.0.1." + i, "Running", false));
    }

    KubeletStandIn kubelet =
        new KubeletStandIn(image, dir.resolve("launcher"), launcher, List.of(config), api.url());
    String launcherContainer = launcher.getSpec().getContainers().get(0).getName();
    Map<String, String> launcherEnv = kubelet.environment(kubelet.container(launcherContainer));
    // What the launcher's container reads, through its own mounts.
    Path script = kubelet.hostPath(launcherContainer, Naming.CONFIG_MOUNT + "/" + DISCOVER_HOSTS);
    Path hostfile =
        kubelet.hostPath(launcherContainer, launcherEnv.get("OMPI_MCA_orte_default_hostfile"));
    Path kubexec = kubelet.hostPath(launcherContainer, launcherEnv.get("OMPI_MCA_plm_rsh_agent"));

    Process sidecar = start(kubelet, Naming.SIDECAR, Naming.SIDECAR);
    String[] staticScript = config.getData().get("discover_hosts.sh").split("\n");
    assertThat(staticScript).as("shebang and one line per worker").hasSize(1 + workers);

    until("no worker Ready yet", () -> script(staticScript).equals(read(script)), sidecar);
    assertThat(read(hostfile)).isEqualTo(config.getData().get("hostfile"));
    assertThat(read(kubexec)).isEqualTo(config.getData().get("kubexec.sh"));
    assertThat(Files.isExecutable(kubexec)).isTrue();

    api.setReady(ns, workerPods.get(1), true);
    until("worker 1 Ready", () -> script(staticScript, 1).equals(read(script)), sidecar);
    assertThat(kubelet.startupProbePasses(Naming.SIDECAR)).as("gate closed at 1 worker").isFalse();
    for (int i = 0; i < workers; i++) {
      api.setReady(ns, workerPods.get(i), true);
    }
    int[] all = IntStream.range(0, workers).toArray();
    until("every worker Ready", () -> script(staticScript, all).equals(read(script)), sidecar);
    assertThat(read(script)).isEqualTo(config.getData().get("discover_hosts.sh"));
    until("startup probe passes", () -> kubelet.startupProbePasses(Naming.SIDECAR), sidecar);
    assertThat(kubelet.hostPath(Naming.SIDECAR, Naming.SIDECAR_READY_FILE)).isRegularFile();
    assertThat(hosts(script)).isEqualTo(hosts(staticScript, all));

    api.setReady(ns, workerPods.get(0), false);
    int[] butFirst = IntStream.range(1, workers).toArray();
    until(
        "worker 0 no longer Ready",
        () -> script(staticScript, butFirst).equals(read(script)),
        sidecar);
    assertThat(hosts(script)).isEqualTo(hosts(staticScript, butFirst));
    assertThat(kubelet.startupProbePasses(Naming.SIDECAR)).as("the gate stays open").isTrue();

    printPeakRss("run, " + example, sidecar, kubelet, Naming.SIDECAR);

    // The launcher's main container ends; kubelet then stops the native sidecar with SIGTERM.
    launcherEnded(ns, launcherName, launcherContainer);
    long stopping = System.nanoTime();
    sidecar.destroy();
    assertThat(sidecar.waitFor(DEADLINE.toSeconds(), TimeUnit.SECONDS)).as("exited").isTrue();
    System.out.printf(
        "jobc-sidecar run (%s): exit %d, %d ms after SIGTERM%n",
        example, sidecar.exitValue(), TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - stopping));
    assertThat(sidecar.exitValue()).as("exit code after SIGTERM").isZero();

    List<Event> events = api.admin.v1().events().inNamespace(ns).list().getItems();
    assertThat(events)
        .extracting(Event::getReason)
        .containsExactlyInAnyOrder("WorkersReady", cleanUpReason);
    assertThat(api.denied).as("requests the rendered Role does not grant").isEmpty();
    assertThat(events)
        .allSatisfy(e -> assertThat(e.getInvolvedObject().getUid()).isEqualTo(jobUid));
    List<String> scaled = api.scalePatches.stream().map(r -> r.getPath()).toList();
    if (cleanUpReason.equals("WorkersScaledDown")) {
      assertThat(scaled)
          .singleElement()
          .asString()
          .startsWith(
              "/apis/apps/v1/namespaces/"
                  + ns
                  + "/statefulsets/"
                  + workerSet.getMetadata().getName()
                  + "/scale?");
    } else {
      assertThat(scaled).isEmpty();
    }
  }

  /**
   * {@code hosts} beside an elastic MPIJob's launcher in the JobSet target, from the JobSet jobc
   * renders: discover_hosts.sh lists the Ready worker pods of the worker Job by completion index,
   * follows a scale-up to {@code jobc.dev/max-replicas} and no further, and SIGTERM ends the
   * process with exit code 0, nothing else requested.
   */
  @Test
  void hostsFollowsAJobSetsReadyWorkersAndStopsOnSigterm() throws Exception {
    List<HasMetadata> objects =
        RenderedSidecar.render(
            RenderedSidecar.elasticMpiJob("v2beta1", 1, 3),
            CompileOptions.defaults().with(OptionTable.TARGET, Target.JOB_SET));
    GenericKubernetesResource jobSet = find(objects, GenericKubernetesResource.class);
    ConfigMap config = find(objects, ConfigMap.class);
    String ns = jobSet.getMetadata().getNamespace();
    api.role = RoleCheck.of(named(objects, Role.class, "elastic-launcher"));

    // The pods the JobSet's child Jobs create: random suffixes, the JobSet's and Job's labels.
    Pod launcher =
        jobSetPod(jobSet, "launcher", 0, "x7k2p", pod -> pod.getStatus().setPhase("Pending"));
    create(launcher);
    for (int i = 0; i < 2; i++) {
      create(jobSetPod(jobSet, "worker", i, "w" + i + "abc", pod -> {}));
    }
    KubeletStandIn kubelet =
        new KubeletStandIn(image, dir.resolve("launcher"), launcher, List.of(config), api.url());
    String main = launcher.getSpec().getContainers().get(0).getName();
    Path script = kubelet.hostPath(main, Naming.CONFIG_MOUNT + "/" + DISCOVER_HOSTS);
    Path hostfile = kubelet.hostPath(main, Naming.CONFIG_MOUNT + "/hostfile");
    Process sidecar = start(kubelet, Naming.SIDECAR, "hosts");

    until(
        "the initial workers",
        () -> config.getData().get("discover_hosts.sh").equals(read(script)),
        sidecar);
    assertThat(read(hostfile)).isEqualTo(config.getData().get("hostfile"));
    until("startup probe passes", () -> kubelet.startupProbePasses(Naming.SIDECAR), sidecar);

    // Scaled to 4 (the worker Job's parallelism and completions): worker 3 is past max-replicas.
    create(jobSetPod(jobSet, "worker", 3, "w3abc", pod -> {}));
    create(jobSetPod(jobSet, "worker", 2, "w2abc", pod -> {}));
    String three =
        "#!/bin/sh\n"
            + "echo elastic-worker-0-0.elastic.team.svc\n"
            + "echo elastic-worker-0-1.elastic.team.svc\n"
            + "echo elastic-worker-0-2.elastic.team.svc\n";
    until("worker 2 joined, 3 left out", () -> three.equals(read(script)), sidecar);
    printPeakRss("hosts", sidecar, kubelet, Naming.SIDECAR);

    sidecar.destroy();
    assertThat(sidecar.waitFor(DEADLINE.toSeconds(), TimeUnit.SECONDS)).as("exited").isTrue();
    assertThat(sidecar.exitValue()).as("exit code after SIGTERM").isZero();
    assertThat(api.denied).as("requests the rendered Role does not grant").isEmpty();
  }

  /**
   * Pod {@code index} of the JobSet's replicated Job {@code replicatedJob} (its one child Job), as
   * the Job controller creates it from the rendered template, Running and Ready unless {@code
   * change} says otherwise.
   */
  private static Pod jobSetPod(
      GenericKubernetesResource jobSet,
      String replicatedJob,
      int index,
      String suffix,
      java.util.function.Consumer<Pod> change) {
    PodTemplateSpec template = RenderedSidecar.replicatedJobTemplate(jobSet, replicatedJob);
    String job = JobSetNames.job(jobSet.getMetadata().getName(), replicatedJob, 0);
    Pod pod =
        pod(
            template,
            jobSet.getMetadata().getNamespace(),
            job + "-" + index + "-" + suffix,
            "10.0.2." + index,
            "Running",
            true);
    pod.getMetadata().getLabels().put(JobSetNames.JOBSET_NAME, jobSet.getMetadata().getName());
    pod.getMetadata().getLabels().put(JobSetNames.REPLICATED_JOB_NAME, replicatedJob);
    pod.getMetadata().getLabels().put(JobSetNames.JOB_INDEX, "0");
    pod.getMetadata().getLabels().put(JobSetNames.COMPLETION_INDEX, Integer.toString(index));
    pod.getSpec().setHostname(job + "-" + index);
    change.accept(pod);
    return pod;
  }

  /**
   * A DGLJob's {@code wait} init containers, each run when kubelet would run it: the partitioner's
   * {@code jobc-wait-launcher} until the launcher's {@code watcher-loop-partitioner} runs (the
   * container the partitions are copied into), that one until the partitioner has succeeded, when
   * it scales the worker StatefulSet up from 0, and {@code watcher-loop-worker} until every worker
   * runs (no readiness asked for), writing dgl-operator's IP-based files where dglrun reads them.
   */
  @Test
  void dglWaitsStartTheWorkersAfterPartitioningAndWriteTheIpFiles() throws Exception {
    String job = "graphsage";
    List<HasMetadata> objects = render(DGL_JOB);
    Pod launcher = named(objects, Pod.class, Naming.launcher(job));
    Pod partitioner = named(objects, Pod.class, DglNaming.partitioner(job));
    api.role = RoleCheck.of(named(objects, Role.class, Naming.launcher(job)));
    StatefulSet workerSet = find(objects, StatefulSet.class);
    assertThat(workerSet.getSpec().getReplicas()).as("no worker before partitioning").isZero();
    ConfigMap config = find(objects, ConfigMap.class);
    String ns = launcher.getMetadata().getNamespace();
    Map<String, String> ips = new TreeMap<>();
    ips.put(launcher.getMetadata().getName(), "10.0.9.9");
    ips.put(partitioner.getMetadata().getName(), "10.0.2.1");
    launcher =
        new PodBuilder(launcher)
            .withNewStatus()
            .withPhase("Pending")
            .withPodIP(ips.get(launcher.getMetadata().getName()))
            .endStatus()
            .build();
    partitioner =
        new PodBuilder(partitioner)
            .withNewStatus()
            .withPhase("Pending")
            .withPodIP(ips.get(partitioner.getMetadata().getName()))
            .endStatus()
            .build();
    create(launcher);
    create(partitioner);
    KubeletStandIn launcherKubelet =
        new KubeletStandIn(image, dir.resolve("launcher"), launcher, List.of(config), api.url());
    KubeletStandIn partitionerKubelet =
        new KubeletStandIn(
            image, dir.resolve("partitioner"), partitioner, List.of(config), api.url());
    List<String> sidecars = sidecarInits(launcher);
    assertThat(sidecars)
        .containsExactly(
            DglNaming.WORKER_RELEASE, DglNaming.PARTITIONER_WATCHER, DglNaming.WORKER_WATCHER);
    assertThat(sidecarInits(partitioner)).containsExactly(DglNaming.LAUNCHER_WAIT);
    // The release runs beside the pod (see dglReleaseScalesTheWorkersToZeroWhenTheLauncherStops);
    // kubelet runs the waits one after the other.
    List<String> waits = sidecars.subList(1, 3);

    // The partitioner does not start partitioning before the receiving container runs.
    Process launcherWait = start(partitionerKubelet, DglNaming.LAUNCHER_WAIT, "launcher-wait");
    until(
        "waiting for the launcher",
        () -> log("launcher-wait").contains("waiting up to"),
        launcherWait);
    Process partitionerWait = start(launcherKubelet, waits.get(0), waits.get(0));
    until(
        "waiting for the partitioner",
        () -> log(waits.get(0)).contains("waiting up to"),
        partitionerWait);
    assertThat(launcherWait.isAlive()).as("watcher-loop-partitioner not reported yet").isTrue();
    api.admin
        .pods()
        .inNamespace(ns)
        .withName(launcher.getMetadata().getName())
        .edit(
            p ->
                new PodBuilder(p)
                    .editStatus()
                    .withInitContainerStatuses(
                        containerStatus(DglNaming.KUBECTL_DOWNLOAD, false),
                        containerStatus(DglNaming.PARTITIONER_WATCHER, true))
                    .endStatus()
                    .build());
    assertThat(launcherWait.waitFor(DEADLINE.toSeconds(), TimeUnit.SECONDS)).isTrue();
    assertThat(launcherWait.exitValue()).as("the receiver runs").isZero();

    // Partitioning; no worker is started until it has succeeded.
    api.setPhase(ns, partitioner.getMetadata().getName(), "Running");
    printPeakRss(waits.get(0), partitionerWait, launcherKubelet, waits.get(0));
    assertThat(partitionerWait.isAlive()).isTrue();
    assertThat(api.scalePatches).as("no workers while partitioning").isEmpty();
    api.setPhase(ns, partitioner.getMetadata().getName(), "Succeeded");
    assertThat(partitionerWait.waitFor(DEADLINE.toSeconds(), TimeUnit.SECONDS)).isTrue();
    assertThat(partitionerWait.exitValue()).as("partitioner succeeded").isZero();
    assertThat(api.scalePatches).hasSize(1);
    assertThat(api.scalePatches.get(0).getPath())
        .startsWith(
            "/apis/apps/v1/namespaces/team/statefulsets/"
                + workerSet.getMetadata().getName()
                + "/scale?");
    String body = api.scaleBodies.get(0);
    assertThat(body).endsWith("\"spec\":{\"replicas\":2}}");

    // As the StatefulSet controller: the scaled-up pods, running but never Ready.
    List<String> workerPods = new ArrayList<>();
    for (int i = 0; i < 2; i++) {
      String name = workerSet.getMetadata().getName() + "-" + i;
      workerPods.add(name);
      ips.put(name, "10.0.1." + i);
      create(pod(workerSet.getSpec().getTemplate(), ns, name, ips.get(name), "Pending", false));
    }
    Process workerWait = start(launcherKubelet, waits.get(1), waits.get(1));
    until("waiting for the workers", () -> log(waits.get(1)).contains("waiting up to"), workerWait);
    startContainers(ns, workerPods.get(0));
    printPeakRss(waits.get(1), workerWait, launcherKubelet, waits.get(1));
    assertThat(workerWait.isAlive()).as("still waiting for the other workers").isTrue();
    for (String w : workerPods) {
      startContainers(ns, w);
    }
    assertThat(workerWait.waitFor(DEADLINE.toSeconds(), TimeUnit.SECONDS)).isTrue();
    assertThat(workerWait.exitValue()).as("workers running, none Ready").isZero();

    // What dglrun in the launcher's main container reads: the ConfigMap's lines with each DNS
    // name replaced by the address of the pod the line names.
    String main = launcher.getSpec().getContainers().get(0).getName();
    Path hostfile =
        launcherKubelet.hostPath(
            main,
            launcherKubelet
                .environment(launcherKubelet.container(main))
                .get("DGL_OPERATOR_HOSTFILE_PATH"));
    for (String file : List.of(DglNaming.HOSTFILE, DglNaming.PARTFILE, DglNaming.LEADFILE)) {
      assertThat(read(hostfile.resolveSibling(file)))
          .as(file)
          .isEqualTo(withAddresses(config.getData().get(file), ips));
    }
    assertThat(api.denied).as("requests the rendered Role does not grant").isEmpty();
  }

  /**
   * A suspended MPIJob (Kueue's way in): no worker until the Job is resumed; the resumed Job's
   * launcher pod scales the workers up; suspended again, its SIGTERM scales them back to 0 though
   * cleanPodPolicy is None. Only what the rendered Role grants is used.
   */
  @Test
  void aSuspendedJobStartsItsWorkersOnlyOnceResumedAndStopsThemWhenSuspendedAgain()
      throws Exception {
    List<HasMetadata> objects =
        render(
            """
            apiVersion: kubeflow.org/v2beta1
            kind: MPIJob
            metadata:
              name: queued
              namespace: team
            spec:
              slotsPerWorker: 1
              runPolicy: {suspend: true, cleanPodPolicy: None}
              mpiReplicaSpecs:
                Launcher:
                  replicas: 1
                  template:
                    spec:
                      containers:
                      - {name: launcher, image: mpioperator/mpi-pi:openmpi, command: [mpirun, /home/mpiuser/pi]}
                Worker:
                  replicas: 2
                  template:
                    spec:
                      containers:
                      - {name: worker, image: mpioperator/mpi-pi:openmpi}
            """);
    Job launcherJob = launcherJob(objects);
    StatefulSet workerSet = find(objects, StatefulSet.class);
    ConfigMap config = find(objects, ConfigMap.class);
    String ns = launcherJob.getMetadata().getNamespace();
    String set = workerSet.getMetadata().getName();
    assertThat(launcherJob.getSpec().getSuspend()).isTrue();
    assertThat(workerSet.getSpec().getReplicas()).as("no worker while suspended").isZero();
    api.role = RoleCheck.of(named(objects, Role.class, launcherJob.getMetadata().getName()));
    api.scales.put(set, workerSet.getSpec().getReplicas());

    // Kueue admits the workload: the Job is resumed and its controller creates the launcher pod.
    createJob(launcherJob, false);
    String launcherName = launcherJob.getMetadata().getName() + "-q8z4m";
    Pod launcher =
        pod(launcherJob.getSpec().getTemplate(), ns, launcherName, "10.0.9.9", "Pending", null);
    create(launcher);
    KubeletStandIn kubelet =
        new KubeletStandIn(image, dir.resolve("launcher"), launcher, List.of(config), api.url());
    Process sidecar = start(kubelet, Naming.SIDECAR, Naming.SIDECAR);
    until("workers scaled up", () -> Integer.valueOf(2).equals(api.scales.get(set)), sidecar);
    for (int i = 0; i < 2; i++) {
      create(
          pod(
              workerSet.getSpec().getTemplate(),
              ns,
              set + "-" + i,
              "10.0.1." + i,
              "Running",
              true));
    }
    until("startup probe passes", () -> kubelet.startupProbePasses(Naming.SIDECAR), sidecar);

    // Kueue preempts it: spec.suspend goes true and the Job controller deletes the pod (SIGTERM).
    createJob(launcherJob, true);
    sidecar.destroy();
    assertThat(sidecar.waitFor(DEADLINE.toSeconds(), TimeUnit.SECONDS)).as("exited").isTrue();
    assertThat(sidecar.exitValue()).isZero();
    assertThat(api.scales).containsEntry(set, 0);
    assertThat(api.admin.v1().events().inNamespace(ns).list().getItems())
        .extracting(Event::getReason)
        .containsExactlyInAnyOrder("WorkersResumed", "WorkersReady", "WorkersScaledDown");
    assertThat(api.denied).as("requests the rendered Role does not grant").isEmpty();
  }

  /**
   * A DGLJob launcher's {@code jobc-release-workers} native sidecar: nothing while the launcher
   * runs; when the pod stops, the worker StatefulSet is scaled to 0 (cleanPodPolicy Running, the
   * CRD's default), with only what the rendered Role grants.
   */
  @Test
  void dglReleaseScalesTheWorkersToZeroWhenTheLauncherStops() throws Exception {
    List<HasMetadata> objects = render(DGL_JOB);
    Pod launcher =
        objects.stream()
            .filter(Pod.class::isInstance)
            .map(Pod.class::cast)
            .filter(p -> p.getMetadata().getName().endsWith("-launcher"))
            .findFirst()
            .orElseThrow();
    StatefulSet workerSet = find(objects, StatefulSet.class);
    ConfigMap config = find(objects, ConfigMap.class);
    String ns = launcher.getMetadata().getNamespace();
    String set = workerSet.getMetadata().getName();
    api.role = RoleCheck.of(named(objects, Role.class, launcher.getMetadata().getName()));
    api.scales.put(set, workerSet.getSpec().getReplicas());
    create(succeeded(launcher));
    KubeletStandIn kubelet =
        new KubeletStandIn(image, dir.resolve("launcher"), launcher, List.of(config), api.url());
    Process release = start(kubelet, DglNaming.WORKER_RELEASE, DglNaming.WORKER_RELEASE);
    until(
        "waiting for the stop",
        () -> log(DglNaming.WORKER_RELEASE).contains("when this pod stops"),
        release);
    assertThat(api.scalePatches).as("nothing while the launcher runs").isEmpty();
    printPeakRss(DglNaming.WORKER_RELEASE, release, kubelet, DglNaming.WORKER_RELEASE);
    release.destroy();
    assertThat(release.waitFor(DEADLINE.toSeconds(), TimeUnit.SECONDS)).as("exited").isTrue();
    assertThat(release.exitValue()).isZero();
    assertThat(api.scales).containsEntry(set, 0);
    assertThat(api.admin.v1().events().inNamespace(ns).list().getItems())
        .extracting(Event::getMessage)
        .containsExactly(
            "launcher succeeded; cleanPodPolicy Running: StatefulSet " + set + " scaled to 0");
    assertThat(api.denied).as("requests the rendered Role does not grant").isEmpty();
  }

  /**
   * A TFJob rendered by jobc, its chief's sidecar run as kubelet would, under the Role jobc
   * rendered: the chief's tensorflow container exits 0, so the job has succeeded
   * (training-operator's {@code UpdateJobStatus}); the sidecar records that, stops the
   * still-running parameter server by suspending its Job (nothing rendered is deleted), keeps the
   * finished worker's, and exits 0 on SIGTERM.
   */
  @Test
  void tfjobChiefSucceedsAndTheParameterServerIsStopped() throws Exception {
    String ns = "team";
    List<HasMetadata> objects =
        render(
            """
            apiVersion: kubeflow.org/v1
            kind: TFJob
            metadata:
              name: mnist
              namespace: team
            spec:
              tfReplicaSpecs:
                Chief:
                  template:
                    spec:
                      containers:
                      - name: tensorflow
                        image: example.com/tf:2.15
                PS:
                  template:
                    spec:
                      containers:
                      - name: tensorflow
                        image: example.com/tf:2.15
                Worker:
                  template:
                    spec:
                      containers:
                      - name: tensorflow
                        image: example.com/tf:2.15
            """);
    api.under(named(objects, Role.class, "mnist-sidecar")).rendered(objects);
    Map<String, Pod> pods = new TreeMap<>();
    for (HasMetadata o : objects) {
      if (o instanceof Job replica) {
        // The replica's Job exists, and the pod its controller made from the template; the
        // worker has finished, and its Job says so.
        String uid = createJob(replica, false);
        String name = replica.getMetadata().getName();
        boolean done = name.endsWith("-worker-0");
        if (done) {
          api.admin
              .batch()
              .v1()
              .jobs()
              .inNamespace(ns)
              .withName(name)
              .edit(
                  j ->
                      new io.fabric8.kubernetes.api.model.batch.v1.JobBuilder(j)
                          .withNewStatus()
                          .addNewCondition()
                          .withType("Complete")
                          .withStatus("True")
                          .endCondition()
                          .endStatus()
                          .build());
        }
        Pod pod =
            pod(
                replica.getSpec().getTemplate(),
                ns,
                name + "-q8x4z",
                "10.0.3.1",
                done ? "Succeeded" : "Running",
                null);
        pod.getMetadata()
            .getOwnerReferences()
            .add(
                new OwnerReferenceBuilder()
                    .withApiVersion("batch/v1")
                    .withKind("Job")
                    .withName(name)
                    .withUid(uid)
                    .withController(true)
                    .build());
        create(pod);
        pods.put(name, pod);
      }
    }
    assertThat(pods).containsOnlyKeys("mnist-chief-0", "mnist-ps-0", "mnist-worker-0");
    Pod chief = pods.get("mnist-chief-0");
    KubeletStandIn kubelet =
        new KubeletStandIn(image, dir.resolve("chief"), chief, List.of(), api.url());
    Process sidecar = start(kubelet, Naming.SIDECAR, "tfjob");
    until("the sidecar watches its pods and Jobs", () -> api.openWatches() == 2, sidecar);

    api.launcherEnded(ns, chief.getMetadata().getName(), "tensorflow", 0);
    until(
        "the parameter server's Job suspended",
        () ->
            Boolean.TRUE.equals(
                api.admin
                    .batch()
                    .v1()
                    .jobs()
                    .inNamespace(ns)
                    .withName("mnist-ps-0")
                    .get()
                    .getSpec()
                    .getSuspend()),
        sidecar);
    until(
        "both Events recorded",
        () -> api.admin.v1().events().inNamespace(ns).list().getItems().size() == 2,
        sidecar);
    printPeakRss("tfjob", sidecar, kubelet, Naming.SIDECAR);
    sidecar.destroy();
    assertThat(sidecar.waitFor(DEADLINE.toSeconds(), TimeUnit.SECONDS)).as("exited").isTrue();
    assertThat(sidecar.exitValue()).as("exit code after SIGTERM").isZero();

    assertThat(
            api.admin.batch().v1().jobs().inNamespace(ns).list().getItems().stream()
                .map(j -> j.getMetadata().getName())
                .sorted()
                .toList())
        .as("nothing deleted")
        .containsExactly("mnist-chief-0", "mnist-ps-0", "mnist-worker-0");
    List<Event> events = api.admin.v1().events().inNamespace(ns).list().getItems();
    assertThat(events)
        .extracting(Event::getReason, Event::getMessage)
        .containsExactlyInAnyOrder(
            org.assertj.core.groups.Tuple.tuple(
                "TFJobSucceeded", "TFJob team/mnist successfully completed."),
            org.assertj.core.groups.Tuple.tuple(
                "ReplicasStopped", "cleanPodPolicy None: suspended mnist-ps-0"));
    String chiefJob =
        api.admin
            .batch()
            .v1()
            .jobs()
            .inNamespace(ns)
            .withName("mnist-chief-0")
            .get()
            .getMetadata()
            .getUid();
    assertThat(events)
        .allSatisfy(e -> assertThat(e.getInvolvedObject().getUid()).isEqualTo(chiefJob));
  }

  private static List<String> sidecarInits(Pod pod) {
    return pod.getSpec().getInitContainers().stream()
        .filter(c -> c.getImage().equals(OptionTable.SIDECAR_IMAGE.defaultValue()))
        .map(c -> c.getName())
        .toList();
  }

  private static ContainerStatus containerStatus(String name, boolean running) {
    ContainerStateBuilder state = new ContainerStateBuilder();
    if (running) {
      state.withNewRunning().endRunning();
    } else {
      state.withNewTerminated().withExitCode(0).endTerminated();
    }
    return new ContainerStatusBuilder()
        .withName(name)
        .withRestartCount(0)
        .withReady(false)
        .withState(state.build())
        .build();
  }

  /** {@code pod} as the API holds it once its first container has exited 0. */
  static Pod succeeded(Pod pod) {
    return new PodBuilder(pod)
        .withNewStatus()
        .withPhase("Succeeded")
        .addNewContainerStatus()
        .withName(pod.getSpec().getContainers().get(0).getName())
        .withNewState()
        .withNewTerminated()
        .withExitCode(0)
        .endTerminated()
        .endState()
        .endContainerStatus()
        .endStatus()
        .build();
  }

  /** As kubelet reports a pod whose init containers are done and whose containers started. */
  private void startContainers(String ns, String pod) {
    api.admin
        .pods()
        .inNamespace(ns)
        .withName(pod)
        .edit(
            p -> {
              List<ContainerStatus> statuses = new ArrayList<>();
              for (var c : p.getSpec().getContainers()) {
                statuses.add(containerStatus(c.getName(), true));
              }
              return new PodBuilder(p)
                  .editStatus()
                  .withPhase("Running")
                  .withContainerStatuses(statuses)
                  .endStatus()
                  .build();
            });
  }

  /**
   * The image as the rendered containers expect it: their user, their writable {@code /tmp}, an
   * entrypoint that takes the subcommand from {@code args} and JVM options from {@code
   * JAVA_TOOL_OPTIONS} alone, and the name and tag that {@code --sidecar-image} defaults to.
   */
  @Test
  void theImageIsTheOneRenderedPodsPull() throws Exception {
    List<HasMetadata> objects = render(Files.readString(REPOSITORY.resolve("examples/pi.yaml")));
    PodTemplateSpec launcher = launcherJob(objects).getSpec().getTemplate();
    Container sidecar =
        launcher.getSpec().getInitContainers().stream()
            .filter(c -> c.getName().equals(Naming.SIDECAR))
            .findFirst()
            .orElseThrow();
    // The default image is the sidecar's own version; the build tags it with that and the
    // project version.
    assertThat(sidecar.getImage())
        .isEqualTo(OptionTable.SIDECAR_IMAGE.defaultValue())
        .isEqualTo("ghcr.io/jobc-dev/jobc-sidecar:" + SIDECAR_VERSION);
    assertThat(image.repoTags())
        .containsExactlyInAnyOrder(
            "ghcr.io/jobc-dev/jobc-sidecar:" + VERSION,
            "ghcr.io/jobc-dev/jobc-sidecar:" + SIDECAR_VERSION);
    SecurityContext security = sidecar.getSecurityContext();
    assertThat(image.user())
        .isEqualTo(security.getRunAsUser() + ":" + security.getRunAsGroup())
        .doesNotStartWith("0");
    assertThat(sidecar.getCommand()).as("the image's entrypoint runs").isEmpty();
    assertThat(image.entrypoint())
        .containsExactly("java", "-cp", "@" + CLASS_PATH_FILE, "dev.jobc.sidecar.Main");
    assertThat(image.cmd()).isEmpty();
    // The only writable place of the read-only root: the rendered emptyDir at /tmp.
    assertThat(security.getReadOnlyRootFilesystem()).isTrue();
    assertThat(sidecar.getVolumeMounts())
        .anySatisfy(m -> assertThat(m.getMountPath()).isEqualTo(image.workingDir()));
    assertThat(image.workingDir()).isEqualTo("/tmp");
    assertThat(image.env()).containsEntry("HOME", "/tmp");
    assertThat(image.classPath(CLASS_PATH_FILE))
        .contains("/app/classes", "/app/resources")
        .allSatisfy(e -> assertThat(image.modes()).containsKey(e));

    // The entrypoint followed by args, as kubelet runs a container that has no command.
    List<String> command = new ArrayList<>(image.hostCommand(image.entrypoint(), dir.resolve("i")));
    command.add("--version");
    Path log = dir.resolve("version.log");
    Process version =
        new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    version.getOutputStream().close();
    assertThat(version.waitFor(DEADLINE.toSeconds(), TimeUnit.SECONDS)).isTrue();
    assertThat(version.exitValue()).isZero();
    assertThat(Files.readString(log)).isEqualTo("jobc-sidecar " + VERSION + "\n");
  }

  /** The image's class path, and the shaded jar (the benchmark's), hold nothing of the compiler. */
  @Test
  void noCompilerClassOrLibrary() throws IOException {
    List<String> inImage = image.classPathEntries(CLASS_PATH_FILE);
    List<String> inJar;
    try (ZipFile jar =
        new ZipFile(REPOSITORY.resolve("sidecar/target/jobc-sidecar.jar").toFile())) {
      inJar = jar.stream().map(ZipEntry::getName).toList();
    }
    for (List<String> names : List.of(inImage, inJar)) {
      // Only the jobc classes, so that a failure lists a few dozen entries, not the whole jar.
      assertThat(names.stream().filter(n -> n.startsWith("dev/jobc/") && n.endsWith(".class")))
          .as("jobc classes")
          .contains("dev/jobc/sidecar/Main.class", "dev/jobc/conventions/MpiLabels$Style.class")
          .allMatch(
              n -> n.startsWith("dev/jobc/sidecar/") || n.startsWith("dev/jobc/conventions/"));
      assertThat(names.stream().filter(n -> COMPILER_LIBRARIES.stream().anyMatch(n::startsWith)))
          .as("the compiler's libraries, or picocli's own jar")
          .isEmpty();
    }
  }

  // Rendering.

  private static List<HasMetadata> render(String input) {
    return RenderedSidecar.render(input);
  }

  static <T extends HasMetadata> T named(List<HasMetadata> objects, Class<T> type, String name) {
    return RenderedSidecar.named(objects, type, name);
  }

  /** {@code <host> <port> <pod>[ slots=<n>]} lines with each host replaced by the pod's address. */
  private static String withAddresses(String lines, Map<String, String> ips) {
    StringBuilder out = new StringBuilder();
    for (String line : lines.split("\n")) {
      String[] fields = line.split(" ");
      fields[0] = ips.get(fields[2]);
      out.append(String.join(" ", fields)).append('\n');
    }
    return out.toString();
  }

  /** The MPIJob's launcher Job (beside it, the scaler's Job). */
  static Job launcherJob(List<HasMetadata> objects) {
    List<Job> launchers =
        objects.stream()
            .filter(Job.class::isInstance)
            .map(Job.class::cast)
            .filter(j -> j.getMetadata().getName().endsWith(Naming.LAUNCHER_SUFFIX))
            .toList();
    assertThat(launchers).as("launcher Jobs").hasSize(1);
    return launchers.get(0);
  }

  static <T extends HasMetadata> T find(List<HasMetadata> objects, Class<T> type) {
    List<T> found = objects.stream().filter(type::isInstance).map(type::cast).toList();
    assertThat(found).as(type.getSimpleName()).hasSize(1);
    return found.get(0);
  }

  /** A pod made from {@code template}, as a controller and the scheduler would leave it. */
  static Pod pod(
      PodTemplateSpec template, String ns, String name, String ip, String phase, Boolean ready) {
    PodBuilder b =
        new PodBuilder()
            .withMetadata(
                new ObjectMetaBuilder(template.getMetadata())
                    .withName(name)
                    .withNamespace(ns)
                    .withOwnerReferences(new ArrayList<>())
                    .build())
            .withSpec(template.getSpec())
            .withNewStatus()
            .withPhase(phase)
            .withPodIP(ip)
            .endStatus();
    if (ready != null) {
      b.editStatus()
          .addNewCondition()
          .withType("Ready")
          .withStatus(ready ? "True" : "False")
          .endCondition()
          .endStatus();
    }
    return b.build();
  }

  // The stand-in API.

  /**
   * The launcher Job as the API server holds it once applied (resumed unless {@code suspend});
   * returns the UID the server gave it.
   */
  private String createJob(Job rendered, boolean suspend) {
    Job job = new io.fabric8.kubernetes.api.model.batch.v1.JobBuilder(rendered).build();
    job.getSpec().setSuspend(suspend);
    return api.admin
        .batch()
        .v1()
        .jobs()
        .inNamespace(job.getMetadata().getNamespace())
        .resource(job)
        .createOr(NonDeletingOperation::update)
        .getMetadata()
        .getUid();
  }

  private void create(Pod pod) {
    // As ApiStandIn.create: a retried create that did succeed must not fail the test.
    api.admin
        .pods()
        .inNamespace(pod.getMetadata().getNamespace())
        .resource(pod)
        .createOr(NonDeletingOperation::update);
  }

  private void launcherEnded(String ns, String name, String container) {
    // As the kubelet reports it: the container terminates, then the pod's phase follows.
    api.launcherEnded(ns, name, container, 0);
    api.setPhase(ns, name, "Succeeded");
  }

  // The process.

  private Process start(KubeletStandIn kubelet, String container, String what) throws IOException {
    Path log = log(dir, what);
    logs.add(log);
    Process p = kubelet.start(container, log);
    processes.add(p);
    return p;
  }

  private static Path log(Path dir, String what) {
    return dir.resolve(what + ".log");
  }

  private String log(String what) {
    return read(log(dir, what));
  }

  /** Prints (does not assert) the process' peak resident set so far. */
  static void printPeakRss(String what, Process p, KubeletStandIn kubelet, String container)
      throws IOException {
    long kib = peakRssKib(p);
    System.out.printf(
        "jobc-sidecar %s: peak RSS (VmHWM) %d KiB = %.1f MiB on Java %s, JAVA_TOOL_OPTIONS=%s%n",
        what,
        kib,
        kib / 1024.0,
        Runtime.version(),
        kubelet
            .environment(kubelet.container(container))
            .getOrDefault("JAVA_TOOL_OPTIONS", "(none)"));
  }

  /** Waits for {@code condition}; fails at once if the process has ended meanwhile. */
  static void until(String what, Check condition, Process process) throws Exception {
    long end = System.nanoTime() + DEADLINE.toNanos();
    while (!condition.holds()) {
      if (!process.isAlive()) {
        throw new AssertionError(what + ": the sidecar exited with " + process.exitValue());
      }
      if (System.nanoTime() > end) {
        throw new AssertionError("not within " + DEADLINE + ": " + what);
      }
      // Returns at once when the process ends, which the loop then reports.
      process.waitFor(10, TimeUnit.MILLISECONDS);
    }
  }

  @FunctionalInterface
  interface Check {
    boolean holds() throws Exception;
  }

  /** The kernel's high-water mark of the process' resident set. */
  static long peakRssKib(Process p) throws IOException {
    for (String line : Files.readAllLines(Path.of("/proc", Long.toString(p.pid()), "status"))) {
      if (line.startsWith("VmHWM:")) {
        return Long.parseLong(line.replaceAll("\\D+", ""));
      }
    }
    throw new IllegalStateException("no VmHWM for " + p.pid());
  }

  // discover_hosts.sh.

  /** The rendered static script cut down to the shebang and the lines of {@code workers}. */
  private static String script(String[] staticScript, int... workers) {
    StringBuilder out = new StringBuilder(staticScript[0]).append('\n');
    for (int i : workers) {
      out.append(staticScript[1 + i]).append('\n');
    }
    return out.toString();
  }

  /** What the static script would print for {@code workers}. */
  private static List<String> hosts(String[] staticScript, int... workers) {
    return Arrays.stream(workers)
        .mapToObj(i -> staticScript[1 + i].substring("echo ".length()))
        .toList();
  }

  /** Runs {@code script} as Horovod does (an executable printing one host per line). */
  private static List<String> hosts(Path script) throws IOException, InterruptedException {
    Process p = new ProcessBuilder(script.toString()).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes());
    assertThat(p.waitFor()).as(script + " exit code; output: " + out).isZero();
    return out.lines().toList();
  }

  static String read(Path file) {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      return "(" + e.getClass().getSimpleName() + ")";
    }
  }
}
