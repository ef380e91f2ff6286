package dev.jobc.golden;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jobc.cli.JobcCommand;
import dev.jobc.load.Document;
import dev.jobc.load.YamlLimits;
import dev.jobc.load.YamlLoader;
import dev.jobc.model.Source;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import picocli.CommandLine;

/**
 * {@code jobc migrate} keeps what runs: every golden input of a kind Trainer v2.3.0 has a runtime
 * for (PyTorchJob, JAXJob, XGBoostJob, MPIJob {@code v2beta1}) that {@code jobc render} renders
 * with the default options is migrated, and the pods its v1 render runs are compared with the pods
 * of the migrated TrainJob's render: per role, the replica counts, and per container the image,
 * command, args, resources and environment. A case that cannot round-trip is listed in {@link
 * #NOT_ROUND_TRIPPED} with the reason; a listed case that round-trips, or an unlisted one that does
 * not, fails.
 *
 * <p>Options: the defaults, but a case's {@code namespace} (without one nothing renders), on all
 * three runs. An MPIJob is rendered with an SSH Secret on both sides ({@code --ssh-secret}): the
 * transport mpi-operator v2beta1 and Trainer's MPI policy both use (jobc's default kubexec
 * transport replaces the workers' sshd by {@code sleep}). A suspended job is compared as it runs
 * once resumed: the worker StatefulSet of a suspended MPIJob holds no replicas until then.
 *
 * <p>Environment: each variable of a v1 container has the same value in the TrainJob's, after the
 * renames docs/trainjob.md#migrate lists: replica host names {@code <job>-<type>-<i>} become the
 * JobSet's {@code <job>-node-0-<k>.<job>}, {@code PET_MASTER_PORT} is Trainer's 29500, and {@code
 * PET_NPROC_PER_NODE} {@code auto} is the CPUs per node on nodes without GPUs. A variable only the
 * TrainJob has is one the Trainer's plugins set ({@link #PLUGIN_ENV}). Ranks set from the
 * completion index are compared as that index.
 */
class MigrateRoundTripTest {

  /**
   * Why a case does not round-trip: {@code why}, and {@code evidence}, what the outcome of its
   * round trip says (the field migrate names, or the comparison's words).
   */
  record Listed(String evidence, String why) {}

  /** The golden cases that do not round-trip, and why. */
  static final Map<String, Listed> NOT_ROUND_TRIPPED = notRoundTripped();

  private static Map<String, Listed> notRoundTripped() {
    Map<String, Listed> m = new TreeMap<>();
    m.put(
        "mpijob-error-elastic-with-pods",
        new Listed(
            "jobc.dev/max-replicas",
            "elastic MPI (jobc.dev/max-replicas): a TrainJob's node count is fixed"));
    m.put(
        "mpijob-jobset-error-pod-name-too-long",
        new Listed(
            "pod names generated for this JobSet will exceed 63",
            "the TrainJob's JobSet would name pods longer than 63 characters"));
    m.put(
        "mpijob-jobset-v2beta1-elastic",
        new Listed(
            "jobc.dev/max-replicas",
            "elastic MPI (jobc.dev/max-replicas): a TrainJob's node count is fixed"));
    m.put(
        "mpijob-jobset-v2beta1-pi",
        new Listed(
            "spec.runPolicy.ttlSecondsAfterFinished",
            "ttlSecondsAfterFinished: a TrainJob has no TTL"));
    m.put(
        "mpijob-jobset-v2beta1-pi-intel",
        new Listed(
            "spec.mpiImplementation", "Intel MPI: Trainer v2.3.0's MPI policy runs OpenMPI only"));
    m.put(
        "mpijob-jobset-v2beta1-pi-mpich",
        new Listed(
            "spec.mpiImplementation", "MPICH: Trainer v2.3.0's MPI policy runs OpenMPI only"));
    m.put(
        "mpijob-jobset-v2beta1-run-policy",
        new Listed(
            "spec.runPolicy.cleanPodPolicy",
            "cleanPodPolicy All and ttlSecondsAfterFinished have no equivalent"));
    m.put(
        "mpijob-render-defaults-2026-11-25",
        new Listed(
            "spec.runPolicy.ttlSecondsAfterFinished",
            "ttlSecondsAfterFinished: a TrainJob has no TTL"));
    m.put(
        "mpijob-render-defaults-2026-11-27",
        new Listed(
            "spec.runPolicy.ttlSecondsAfterFinished",
            "ttlSecondsAfterFinished: a TrainJob has no TTL"));
    m.put(
        "mpijob-v2beta1-clean-pod-policy-all",
        new Listed(
            "spec.runPolicy.cleanPodPolicy",
            "cleanPodPolicy All: the JobSet controller keeps finished pods"));
    m.put(
        "mpijob-v2beta1-clean-pod-policy-none",
        new Listed(
            "spec.runPolicy.cleanPodPolicy",
            "cleanPodPolicy None: the JobSet controller deletes running pods"));
    m.put(
        "mpijob-v2beta1-elastic",
        new Listed(
            "jobc.dev/max-replicas",
            "elastic MPI (jobc.dev/max-replicas): a TrainJob's node count is fixed"));
    m.put(
        "mpijob-v2beta1-intel-cluster-domain",
        new Listed(
            "spec.mpiImplementation", "Intel MPI: Trainer v2.3.0's MPI policy runs OpenMPI only"));
    m.put(
        "mpijob-v2beta1-intel-with-slots",
        new Listed(
            "spec.mpiImplementation", "Intel MPI: Trainer v2.3.0's MPI policy runs OpenMPI only"));
    m.put(
        "mpijob-v2beta1-kubexec-launcher-memory-mpich",
        new Listed(
            "spec.mpiImplementation", "MPICH: Trainer v2.3.0's MPI policy runs OpenMPI only"));
    m.put(
        "mpijob-v2beta1-launcher-grace-period",
        new Listed(
            "spec.runPolicy.ttlSecondsAfterFinished",
            "ttlSecondsAfterFinished: a TrainJob has no TTL"));
    m.put(
        "mpijob-v2beta1-managed-by-multikueue",
        new Listed(
            "no pods on either side",
            "MultiKueue runs both the MPIJob and the TrainJob elsewhere: neither renders pods here"));
    m.put(
        "mpijob-v2beta1-mpich-cluster-domain",
        new Listed(
            "spec.mpiImplementation", "MPICH: Trainer v2.3.0's MPI policy runs OpenMPI only"));
    m.put(
        "mpijob-v2beta1-mpich-with-slots",
        new Listed(
            "spec.mpiImplementation", "MPICH: Trainer v2.3.0's MPI policy runs OpenMPI only"));
    m.put(
        "mpijob-v2beta1-pi",
        new Listed(
            "spec.runPolicy.ttlSecondsAfterFinished",
            "ttlSecondsAfterFinished: a TrainJob has no TTL"));
    m.put(
        "mpijob-v2beta1-pi-intel",
        new Listed(
            "spec.mpiImplementation", "Intel MPI: Trainer v2.3.0's MPI policy runs OpenMPI only"));
    m.put(
        "mpijob-v2beta1-pi-mpich",
        new Listed(
            "spec.mpiImplementation", "MPICH: Trainer v2.3.0's MPI policy runs OpenMPI only"));
    m.put(
        "mpijob-v2beta1-run-policy",
        new Listed(
            "spec.runPolicy.cleanPodPolicy",
            "cleanPodPolicy All and ttlSecondsAfterFinished have no equivalent"));
    m.put(
        "mpijob-v2beta1-sidecar-image",
        new Listed(
            "spec.mpiImplementation", "Intel MPI: Trainer v2.3.0's MPI policy runs OpenMPI only"));
    m.put(
        "mpijob-v2beta1-ssh-annotation",
        new Listed(
            "spec.mpiImplementation", "MPICH: Trainer v2.3.0's MPI policy runs OpenMPI only"));
    m.put(
        "mpijob-v2beta1-ssh-root-intel",
        new Listed(
            "spec.mpiImplementation", "Intel MPI: Trainer v2.3.0's MPI policy runs OpenMPI only"));
    m.put(
        "mpijob-v2beta1-valid-intel-with-worker",
        new Listed(
            "spec.mpiImplementation", "Intel MPI: Trainer v2.3.0's MPI policy runs OpenMPI only"));
    m.put(
        "pytorchjob-elastic-defaults",
        new Listed("spec.elasticPolicy", "elasticPolicy: a TrainJob runs a fixed number of nodes"));
    m.put(
        "pytorchjob-elastic-echo",
        new Listed("spec.elasticPolicy", "elasticPolicy: a TrainJob runs a fixed number of nodes"));
    m.put(
        "pytorchjob-elastic-imagenet",
        new Listed("spec.elasticPolicy", "elasticPolicy: a TrainJob runs a fixed number of nodes"));
    m.put(
        "pytorchjob-elastic-metrics-empty",
        new Listed("spec.elasticPolicy", "elasticPolicy: a TrainJob runs a fixed number of nodes"));
    m.put(
        "pytorchjob-error-jobset-limits",
        new Listed(
            "pod names generated for this JobSet will exceed 63",
            "the TrainJob's JobSet would name pods longer than 63 characters"));
    m.put(
        "pytorchjob-gang-pod-group-metadata",
        new Listed(
            "no runtime for a TFJob",
            "the input also holds a TFJob, which Trainer v2.3.0 has no runtime for"));
    m.put(
        "pytorchjob-gang-volcano",
        new Listed(
            "resources.limits",
            "the Worker template's resources differ from the Master's: one pod template runs every node"));
    m.put(
        "pytorchjob-jobset-elastic-echo",
        new Listed("spec.elasticPolicy", "elasticPolicy: a TrainJob runs a fixed number of nodes"));
    m.put(
        "pytorchjob-jobset-gang-volcano",
        new Listed(
            "resources.limits",
            "the Worker template's resources differ from the Master's: one pod template runs every node"));
    m.put(
        "pytorchjob-multikueue",
        new Listed(
            "no pods on either side",
            "MultiKueue runs both the PyTorchJob and the TrainJob elsewhere: neither renders pods here"));
    m.put(
        "pytorchjob-nproc-per-node-device",
        new Listed(
            "spec.nprocPerNode",
            "nprocPerNode xpu and npu: a TrainJob's numProcPerNode is a number"));
    m.put(
        "pytorchjob-render-defaults-2026-11-25",
        new Listed(
            "resources.limits",
            "the Worker template's resources differ from the Master's: one pod template runs every node"));
    m.put(
        "pytorchjob-render-defaults-2026-11-27",
        new Listed(
            "resources.limits",
            "the Worker template's resources differ from the Master's: one pod template runs every node"));
    m.put(
        "pytorchjob-run-policy",
        new Listed(
            "spec.runPolicy.cleanPodPolicy",
            "cleanPodPolicy All, ttlSecondsAfterFinished, restartPolicy Always and differing templates"));
    m.put(
        "pytorchjob-service-account",
        new Listed(
            "serviceAccountName",
            "the Worker's serviceAccountName differs from the Master's: one pod template runs every node"));
    m.put(
        "pytorchjob-unit-elastic",
        new Listed("spec.elasticPolicy", "elasticPolicy: a TrainJob runs a fixed number of nodes"));
    m.put(
        "pytorchjob-workers-only",
        new Listed(
            "spec.nprocPerNode", "nprocPerNode gpu: a TrainJob's numProcPerNode is a number"));
    m.put(
        "xgboostjob-example",
        new Listed(
            "restartPolicy",
            "the Worker restarts ExitCode, the Master Never, and their args differ: one pod template runs every node"));
    m.put(
        "xgboostjob-gang-scheduler-plugins",
        new Listed(
            "schedulerName",
            "the Worker's schedulerName differs from the Master's: one pod template runs every node"));
    m.put(
        "xgboostjob-iris-predict",
        new Listed(
            "restartPolicy",
            "the Worker restarts ExitCode, the Master Never: one Job's pods share a restart policy"));
    m.put(
        "xgboostjob-iris-predict-local",
        new Listed(
            "restartPolicy",
            "the Worker restarts ExitCode, the Master Never: one Job's pods share a restart policy"));
    m.put(
        "xgboostjob-iris-train",
        new Listed(
            "restartPolicy",
            "the Worker restarts ExitCode, the Master Never, and their args differ: one pod template runs every node"));
    m.put(
        "xgboostjob-iris-train-local",
        new Listed(
            "restartPolicy",
            "the Worker restarts ExitCode, the Master Never, and their args differ: one pod template runs every node"));
    m.put(
        "xgboostjob-jobset-example",
        new Listed(
            "restartPolicy",
            "the Worker restarts ExitCode, the Master Never, and their args differ: one pod template runs every node"));
    m.put(
        "xgboostjob-jobset-gang-scheduler-plugins",
        new Listed(
            "schedulerName",
            "the Worker's schedulerName differs from the Master's: one pod template runs every node"));
    m.put(
        "xgboostjob-lightgbm",
        new Listed(
            "restartPolicy",
            "the Worker restarts ExitCode, the Master Never: one Job's pods share a restart policy"));
    return m;
  }

  /** Variables of Trainer v2.3.0's plugins that no v1 operator set under that name. */
  private static final Pattern PLUGIN_ENV =
      Pattern.compile(
          "PET_(NNODES|NPROC_PER_NODE|NODE_RANK|MASTER_ADDR|MASTER_PORT)|JAX_NUM_PROCESSES"
              + "|JAX_PROCESS_ID|JAX_COORDINATOR_ADDRESS|DMLC_TRACKER_URI|DMLC_TRACKER_PORT"
              + "|DMLC_TASK_ID|DMLC_NUM_WORKER");

  /** Containers jobc or training-operator add to a v1 pod, which Trainer v2 does not. */
  private static final Set<String> ADDED_BY_V1 = Set.of("init-pytorch");

  private static final String SSH_SECRET = "migrate-ssh";

  private static final Set<String> KINDS = Set.of("PyTorchJob", "JAXJob", "XGBoostJob");

  private static final String COMPLETION_INDEX =
      "metadata.annotations['batch.kubernetes.io/job-completion-index']";

  @TestFactory
  Stream<DynamicTest> goldenInputsRoundTrip() {
    return inScope().stream().map(dir -> DynamicTest.dynamicTest(name(dir), () -> check(dir)));
  }

  /**
   * The inputs of golden/migrate-cases that migrate, with pods to compare, and render as v1 jobs
   * round-trip too, none listed: they are written for migrate.
   */
  @TestFactory
  Stream<DynamicTest> migrateCasesRoundTrip() {
    String dir = System.getProperty("golden.migrate.dir");
    assertThat(dir).as("golden.migrate.dir (set by golden/pom.xml)").isNotBlank();
    return GoldenCase.discover(Path.of(dir), false, GoldenCase.MIGRATE).stream()
        .filter(c -> c.expectation() == GoldenCase.Expectation.SUCCESS)
        .filter(c -> !GoldenCase.read(c.dir().resolve(GoldenCase.EXPECTED)).isEmpty())
        .filter(c -> !GoldenCase.read(c.dir().resolve(GoldenCase.EXPECTED)).contains("managedBy"))
        .filter(c -> run(c.dir(), null, List.of("render", GoldenCase.INPUT)).exit() == 0)
        .map(
            c -> DynamicTest.dynamicTest(c.name(), () -> assertThat(roundTrip(c.dir())).isEmpty()));
  }

  /** The list names cases in scope only, each with a reason. */
  @Test
  void theListNamesCasesInScope() {
    Set<String> inScope = new TreeSet<>();
    inScope().forEach(d -> inScope.add(name(d)));
    assertThat(inScope).as("golden inputs of the four kinds that render").hasSizeGreaterThan(100);
    assertThat(inScope).containsAll(NOT_ROUND_TRIPPED.keySet());
    NOT_ROUND_TRIPPED.values().forEach(l -> assertThat(l.why()).hasSizeGreaterThan(20));
  }

  private static void check(Path dir) {
    String outcome = roundTrip(dir);
    Listed listed = NOT_ROUND_TRIPPED.get(name(dir));
    if (listed == null) {
      assertThat(outcome).as(name(dir) + " round-trips").isEmpty();
    } else {
      assertThat(outcome)
          .as(
              name(dir)
                  + " is listed as not round-tripping ("
                  + listed.why()
                  + "): is it still so?")
          .contains(listed.evidence());
    }
  }

  /** Why {@code dir}'s input does not round-trip; empty when it does. */
  static String roundTrip(Path dir) {
    List<String> options = namespaceOption(dir);
    boolean mpi = GoldenCase.read(dir.resolve(GoldenCase.INPUT)).contains("kind: MPIJob");
    List<String> migrateArgs = new ArrayList<>(List.of("migrate", GoldenCase.INPUT));
    migrateArgs.addAll(options);
    Run migrated = run(dir, null, migrateArgs);
    if (migrated.exit() != 0) {
      return "migrate exited " + migrated.exit() + ":\n" + migrated.err() + migrated.crash();
    }
    List<String> extra = new ArrayList<>(options);
    if (mpi) {
      extra.addAll(List.of("--ssh-secret", SSH_SECRET));
    }
    List<String> v1Args = new ArrayList<>(List.of("render", GoldenCase.INPUT));
    v1Args.addAll(extra);
    Run v1 = run(dir, null, v1Args);
    List<String> v2Args = new ArrayList<>(List.of("render", "-"));
    v2Args.addAll(extra);
    Run v2 = run(dir, migrated.out(), v2Args);
    if (v1.exit() != 0 || v2.exit() != 0) {
      return "render exited "
          + v1.exit()
          + " (v1), "
          + v2.exit()
          + " (TrainJob):\n"
          + v1.err()
          + v2.err()
          + v1.crash()
          + v2.crash();
    }
    List<String> problems = new ArrayList<>();
    Map<String, Integer> workers = new TreeMap<>();
    for (JsonNode d : trees(GoldenCase.read(dir.resolve(GoldenCase.INPUT)))) {
      JsonNode worker = d.path("spec").path("mpiReplicaSpecs").path("Worker");
      if (d.path("spec").path("runPolicy").path("suspend").asBoolean(false)) {
        workers.put(d.path("metadata").path("name").asText(), worker.path("replicas").asInt(0));
      }
    }
    Map<String, Map<String, Pod>> before = v1Pods(trees(v1.out()), workers);
    Map<String, Map<String, Pod>> after = v2Pods(trees(v2.out()));
    if (before.isEmpty() && after.isEmpty()) {
      return "no pods on either side";
    }
    if (!before.keySet().equals(after.keySet())) {
      return "jobs " + before.keySet() + " (v1) vs " + after.keySet() + " (TrainJob)";
    }
    for (String job : before.keySet()) {
      Map<String, Pod> expected = mapped(job, before.get(job));
      Map<String, Pod> actual = after.get(job);
      if (!expected.keySet().equals(actual.keySet())) {
        problems.add(job + ": pods " + expected.keySet() + " (v1) vs " + actual.keySet());
        continue;
      }
      Map<String, String> hosts = hosts(job, before.get(job));
      for (String pod : expected.keySet()) {
        compare(job + " " + pod, expected.get(pod), actual.get(pod), hosts, problems);
      }
    }
    return String.join("\n", problems);
  }

  /** One pod that would run: its containers and init containers by name. */
  record Pod(
      String role, int index, Map<String, JsonNode> containers, Map<String, JsonNode> init) {}

  /**
   * The v1 pods by job, each keyed {@code <type>-<index>}: a Job or bare Pod per replica (the
   * family), the launcher Job and the worker StatefulSet's pods (MPIJob); jobc's own pods left out.
   */
  private static Map<String, Map<String, Pod>> v1Pods(
      List<JsonNode> objects, Map<String, Integer> suspendedWorkers) {
    Map<String, Map<String, Pod>> out = new TreeMap<>();
    for (JsonNode o : objects) {
      String kind = o.path("kind").asText();
      JsonNode template =
          switch (kind) {
            case "Pod" -> o;
            case "Job", "StatefulSet" -> o.path("spec").path("template");
            default -> null;
          };
      if (template == null) {
        continue;
      }
      JsonNode labels = template.path("metadata").path("labels");
      String job = labels.path("training.kubeflow.org/job-name").asText(null);
      String role =
          labels.has("training.kubeflow.org/replica-type")
              ? labels.path("training.kubeflow.org/replica-type").asText()
              : labels.path("training.kubeflow.org/job-role").asText(null);
      if (job == null || role == null) {
        continue; // jobc's own Jobs (the scaler), passed-through objects
      }
      int count = kind.equals("StatefulSet") ? o.path("spec").path("replicas").asInt(1) : 1;
      if (kind.equals("StatefulSet") && count == 0) {
        // A suspended MPIJob's workers, which its launcher's sidecar scales up on resumption.
        count = suspendedWorkers.getOrDefault(job, 0);
      }
      for (int i = 0; i < count; i++) {
        int index =
            kind.equals("StatefulSet")
                ? i
                : labels.path("training.kubeflow.org/replica-index").asInt(0);
        Pod pod = pod(role, index, template.path("spec"), null);
        out.computeIfAbsent(job, j -> new TreeMap<>()).put(role + "-" + index, pod);
      }
    }
    return out;
  }

  /** The TrainJobs' pods by JobSet, each keyed {@code <replicatedJob>-<index>}. */
  private static Map<String, Map<String, Pod>> v2Pods(List<JsonNode> objects) {
    Map<String, Map<String, Pod>> out = new TreeMap<>();
    for (JsonNode o : objects) {
      if (!o.path("kind").asText().equals("JobSet")) {
        continue;
      }
      String job = o.path("metadata").path("name").asText();
      Map<String, Pod> pods = out.computeIfAbsent(job, j -> new TreeMap<>());
      for (JsonNode rjob : o.path("spec").path("replicatedJobs")) {
        String role = rjob.path("name").asText();
        JsonNode spec = rjob.path("template").path("spec");
        int replicas = rjob.path("replicas").asInt(1);
        int count = spec.path("parallelism").asInt(1);
        for (int r = 0; r < replicas; r++) {
          for (int i = 0; i < count; i++) {
            int index = r * count + i;
            pods.put(role + "-" + index, pod(role, index, spec.path("template").path("spec"), i));
          }
        }
      }
    }
    return out;
  }

  /**
   * A pod of {@code spec}; {@code completionIndex} resolves the downward-API completion index, null
   * for a pod that has none.
   */
  private static Pod pod(String role, int index, JsonNode spec, Integer completionIndex) {
    Map<String, JsonNode> containers = new LinkedHashMap<>();
    Map<String, JsonNode> init = new LinkedHashMap<>();
    for (JsonNode c : spec.path("containers")) {
      containers.put(c.path("name").asText(), resolved(c, completionIndex));
    }
    for (JsonNode c : spec.path("initContainers")) {
      String name = c.path("name").asText();
      if (!RenderedPods.addedByJobc(c) && !ADDED_BY_V1.contains(name)) {
        init.put(name, resolved(c, completionIndex));
      }
    }
    for (Iterator<String> i = containers.keySet().iterator(); i.hasNext(); ) {
      if (RenderedPods.JOBC_CONTAINERS.contains(i.next())) {
        i.remove();
      }
    }
    return new Pod(role, index, containers, init);
  }

  /**
   * What is compared of a container: image, command, args, resources (quantities as text) and the
   * environment as the program sees it (by name, the last of a name winning, as kubelet does).
   */
  private static JsonNode resolved(JsonNode c, Integer completionIndex) {
    var out = com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode();
    for (String f : List.of("image", "command", "args")) {
      if (c.has(f)) {
        out.set(f, c.get(f));
      }
    }
    out.set("resources", texts(c.path("resources")));
    var env = out.putObject("env");
    for (JsonNode e : c.path("env")) {
      String value;
      JsonNode field = e.path("valueFrom").path("fieldRef").path("fieldPath");
      if (e.has("valueFrom")) {
        value =
            completionIndex != null && field.asText().equals(COMPLETION_INDEX)
                ? Integer.toString(completionIndex)
                : "valueFrom " + e.get("valueFrom");
      } else {
        value = e.path("value").asText("");
      }
      env.put(e.path("name").asText(), value);
    }
    return out;
  }

  private static JsonNode texts(JsonNode node) {
    var f = com.fasterxml.jackson.databind.node.JsonNodeFactory.instance;
    if (node.isObject()) {
      var out = f.objectNode();
      node.properties().forEach(e -> out.set(e.getKey(), texts(e.getValue())));
      return out;
    }
    return node.isMissingNode() ? f.objectNode() : f.textNode(node.asText());
  }

  /**
   * The v1 pods keyed as the TrainJob's: the family's replicas (Master first) are the {@code node}
   * Job's pods in order; an MPIJob's launcher is the {@code launcher}'s, its workers the {@code
   * node} Job's.
   */
  private static Map<String, Pod> mapped(String job, Map<String, Pod> v1) {
    Map<String, Pod> out = new TreeMap<>();
    int masters = (int) v1.values().stream().filter(p -> p.role().equals("master")).count();
    for (Pod p : v1.values()) {
      String key =
          switch (p.role()) {
            case "launcher" -> "launcher-0";
            case "master" -> "node-" + p.index();
            case "worker" -> "node-" + (masters + p.index());
            default -> p.role() + "-" + p.index();
          };
      out.put(key, p);
    }
    return out;
  }

  /** The family's replica host names and the TrainJob's pod of each. */
  private static Map<String, String> hosts(String job, Map<String, Pod> v1) {
    Map<String, String> out = new LinkedHashMap<>();
    int masters = (int) v1.values().stream().filter(p -> p.role().equals("master")).count();
    for (Pod p : v1.values()) {
      if (p.role().equals("master") || p.role().equals("worker")) {
        int k = p.role().equals("master") ? p.index() : masters + p.index();
        out.put(job + "-" + p.role() + "-" + p.index(), job + "-node-0-" + k + "." + job);
      }
    }
    return out;
  }

  private static void compare(
      String what, Pod v1, Pod v2, Map<String, String> hosts, List<String> problems) {
    Map<String, JsonNode> before = renamed(v1.containers());
    if (!before.keySet().equals(v2.containers().keySet())) {
      problems.add(what + ": containers " + before.keySet() + " vs " + v2.containers().keySet());
      return;
    }
    if (!v1.init().keySet().equals(v2.init().keySet())) {
      problems.add(what + ": init containers " + v1.init().keySet() + " vs " + v2.init().keySet());
      return;
    }
    Map<String, JsonNode> all1 = new LinkedHashMap<>(before);
    all1.putAll(v1.init());
    Map<String, JsonNode> all2 = new LinkedHashMap<>(v2.containers());
    all2.putAll(v2.init());
    for (String name : all1.keySet()) {
      JsonNode a = all1.get(name);
      JsonNode b = all2.get(name);
      for (String f : List.of("image", "command", "args", "resources")) {
        if (!a.path(f).equals(b.path(f))) {
          problems.add(what + " " + name + "." + f + ": " + a.path(f) + " vs " + b.path(f));
        }
      }
      JsonNode e1 = a.path("env");
      JsonNode e2 = b.path("env");
      for (var e : e1.properties()) {
        String expected = expectedValue(e.getKey(), rename(e.getValue().asText(), hosts), e2);
        if (!e2.has(e.getKey())) {
          problems.add(what + " " + name + ": " + e.getKey() + " missing");
        } else if (!e2.get(e.getKey()).asText().equals(expected)) {
          problems.add(
              what
                  + " "
                  + name
                  + ": "
                  + e.getKey()
                  + "="
                  + e2.get(e.getKey()).asText()
                  + ", expected "
                  + expected);
        }
      }
      for (var e : e2.properties()) {
        if (!e1.has(e.getKey()) && !PLUGIN_ENV.matcher(e.getKey()).matches()) {
          problems.add(what + " " + name + ": " + e.getKey() + " added");
        }
      }
    }
  }

  /** The documented value changes of Trainer's plugin variables. */
  private static String expectedValue(String name, String v1, JsonNode v2Env) {
    if (name.equals("PET_MASTER_PORT")) {
      return "29500"; // constants.ContainerTrainerPort
    }
    if (name.equals("PET_NPROC_PER_NODE") && v1.equals("auto")) {
      String now = v2Env.path(name).asText();
      // torch.go: auto on a node without GPUs is its CPU count.
      return now.matches("[1-9][0-9]*") ? now : v1;
    }
    return v1;
  }

  /** The v1 containers, the kind's main one (the family's by name, MPI's first) named node. */
  private static Map<String, JsonNode> renamed(Map<String, JsonNode> containers) {
    String main =
        containers.keySet().stream()
            .filter(KIND_CONTAINERS::contains)
            .findFirst()
            .orElse(containers.keySet().stream().findFirst().orElse(""));
    Map<String, JsonNode> out = new LinkedHashMap<>();
    containers.forEach((name, c) -> out.put(name.equals(main) ? "node" : name, c));
    return out;
  }

  /** The family's containers whose variables and port the operator owns. */
  private static final Set<String> KIND_CONTAINERS = Set.of("pytorch", "jax", "xgboost");

  private static final Pattern HOST = Pattern.compile("[a-z0-9.-]+");

  /** {@code value} with every replica host name of {@code hosts} replaced, whole names only. */
  private static String rename(String value, Map<String, String> hosts) {
    if (hosts.isEmpty()) {
      return value;
    }
    Matcher m = HOST.matcher(value);
    StringBuilder out = new StringBuilder();
    while (m.find()) {
      m.appendReplacement(out, Matcher.quoteReplacement(hosts.getOrDefault(m.group(), m.group())));
    }
    m.appendTail(out);
    return out.toString();
  }

  // --- scope and runs

  /**
   * The golden inputs of the four kinds that render with the default options (and the case's
   * namespace), by case directory.
   */
  static List<Path> inScope() {
    List<Path> out = new ArrayList<>();
    for (Path dir : allCases()) {
      String input = GoldenCase.read(dir.resolve(GoldenCase.INPUT));
      if (!ofTheKinds(input)) {
        continue;
      }
      List<String> args = new ArrayList<>(List.of("render", GoldenCase.INPUT));
      args.addAll(namespaceOption(dir));
      if (run(dir, null, args).exit() == 0) {
        out.add(dir);
      }
    }
    return out;
  }

  private static List<Path> scope;

  private static synchronized List<Path> allCases() {
    if (scope == null) {
      String dir = System.getProperty("golden.dir");
      assertThat(dir).as("golden.dir (set by golden/pom.xml)").isNotBlank();
      scope = GoldenCase.discover(Path.of(dir), false).stream().map(GoldenCase::dir).toList();
    }
    return scope;
  }

  /** Whether a document of {@code input} is one of the four kinds migrate reads. */
  private static boolean ofTheKinds(String input) {
    for (Document d : documents(input)) {
      JsonNode root = d.root();
      String kind = root.path("kind").asText();
      String version = root.path("apiVersion").asText();
      if (KINDS.contains(kind) && version.equals("kubeflow.org/v1")
          || kind.equals("MPIJob") && version.equals("kubeflow.org/v2beta1")) {
        return true;
      }
    }
    return false;
  }

  /** {@code --namespace NS} from the case's options.yaml, else nothing. */
  private static List<String> namespaceOption(Path dir) {
    Path options = dir.resolve(GoldenCase.OPTIONS);
    if (!Files.exists(options)) {
      return List.of();
    }
    List<String> all = GoldenCase.options(options.toString(), GoldenCase.read(options));
    int i = all.indexOf("--namespace");
    return i < 0 ? List.of() : List.of("--namespace", all.get(i + 1));
  }

  private static String name(Path dir) {
    return dir.getFileName().toString();
  }

  private static List<Document> documents(String yaml) {
    return new YamlLoader(YamlLimits.defaults()).load(new Source("text", yaml)).documents();
  }

  private static List<JsonNode> trees(String yaml) {
    return documents(yaml).stream().map(Document::root).toList();
  }

  record Run(int exit, String out, String err, String crash) {}

  /** Runs {@code jobc} in {@code dir} with {@code stdin} (or none), as bin/jobc would. */
  static Run run(Path dir, String stdin, List<String> args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    StringWriter crash = new StringWriter();
    String[] arguments = args.toArray(String[]::new);
    InputStream in =
        stdin == null
            ? InputStream.nullInputStream()
            : new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8));
    CommandLine cli = JobcCommand.commandLine(new JobcCommand(dir, in), arguments);
    cli.setOut(new PrintWriter(out, true));
    cli.setErr(new PrintWriter(err, true));
    cli.setExecutionExceptionHandler(
        (e, commandLine, parseResult) -> {
          e.printStackTrace(new PrintWriter(crash, true));
          return 3;
        });
    int exit = cli.execute(arguments);
    return new Run(exit, out.toString(), err.toString(), crash.toString());
  }
}
