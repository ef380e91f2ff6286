package dev.jobc.golden;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jobc.conventions.JobSetNames;
import dev.jobc.load.Document;
import dev.jobc.load.YamlLimits;
import dev.jobc.load.YamlLoader;
import dev.jobc.model.Source;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Every golden input that renders in the plain target, rendered again with {@code --target jobset}:
 * it renders there too, or fails with located errors only; every JobSet it renders is valid against
 * kubernetes-sigs/jobset v0.12.0's CRD (strict on unknown fields); nothing beside the JobSet
 * carries a replica; each replica's containers have the plain target's environment; and a Kueue
 * queue name is on the JobSet alone, so Kueue admits the job as one Workload.
 */
class JobSetTargetTest {
  private static final CrdSchema CRD =
      CrdSchema.load("/dev/jobc/golden/jobset/jobset.x-k8s.io_jobsets.yaml", "v1alpha2");

  /** {@code file:line:col: error: path: message}: a located error with its reason. */
  private static final Pattern LOCATED =
      Pattern.compile("input\\.yaml:[0-9]+:[0-9]+: (error|warning): [^ ]+: .{20,}");

  /**
   * Every {@code apiVersion kind} the compiler accepts, from its own list, so a new kind is checked
   * here too.
   */
  private static final Set<String> JOB_KINDS =
      new dev.jobc.ManifestCompiler()
          .acceptedKinds().stream().collect(java.util.stream.Collectors.toUnmodifiableSet());

  private static final String KUEUE = "kueue.x-k8s.io/";
  private static final String QUEUE_NAME = KUEUE + "queue-name";
  private static final String MANAGED_BY = "app.kubernetes.io/managed-by";

  /** Both renders of one case. */
  private record Renders(GoldenCasesTest.Run plain, GoldenCasesTest.Run jobSet) {
    /** What jobc rendered, without the documents it passed through as written. */
    List<JsonNode> plainObjects() {
      return objects(plain.out()).stream().filter(JobSetTargetTest::rendered).toList();
    }

    List<JsonNode> jobSetObjects() {
      return objects(jobSet.out()).stream().filter(JobSetTargetTest::rendered).toList();
    }
  }

  private static final Map<Path, Renders> RENDERS = new ConcurrentHashMap<>();

  private static Renders renders(Path dir) {
    return RENDERS.computeIfAbsent(
        dir,
        d -> {
          List<String> args = new GoldenCase(d, GoldenCase.Expectation.SUCCESS, false).arguments();
          // The case's own options but its target: each target in turn.
          List<String> others = new ArrayList<>();
          for (int i = 0; i < args.size(); i++) {
            if (args.get(i).equals("--target")) {
              i++;
            } else {
              others.add(args.get(i));
            }
          }
          List<String> plain = new ArrayList<>(others);
          plain.addAll(List.of("--target", "plain"));
          List<String> jobSet = new ArrayList<>(others);
          jobSet.addAll(List.of("--target", "jobset"));
          return new Renders(GoldenCasesTest.run(d, plain), GoldenCasesTest.run(d, jobSet));
        });
  }

  private static Stream<DynamicTest> each(String what, java.util.function.Consumer<Path> check) {
    return RenderedPods.renderingCases().stream()
        .map(d -> DynamicTest.dynamicTest(d.getFileName() + ": " + what, () -> check.accept(d)));
  }

  @TestFactory
  Stream<DynamicTest> everyPlainRenderRendersAsAJobSetOrFailsWithLocatedErrors() {
    return each(
        "renders, or located errors",
        d -> {
          Renders r = renders(d);
          assertThat(r.jobSet().crash()).isEmpty();
          if (r.plain().exit() != 0) {
            // A case of the JobSet target alone (a queue name, say): checked below.
            assertThat(r.jobSet().exit()).as(r.jobSet().err()).isZero();
            return;
          }
          assertThat(r.jobSet().exit()).as(r.jobSet().err()).isIn(0, 1);
          if (r.jobSet().exit() == 1) {
            assertThat(r.jobSet().out()).isEmpty();
            List<String> lines = r.jobSet().err().lines().toList();
            assertThat(lines).isNotEmpty().allMatch(l -> LOCATED.matcher(l).matches());
            assertThat(lines).anyMatch(l -> l.contains(": error: "));
            // The plain render of the same input succeeded: each error says why the target is
            // the cause.
            assertThat(lines)
                .filteredOn(l -> l.contains(": error: "))
                .allMatch(l -> l.contains("jobset") || l.contains("JobSet"));
          }
        });
  }

  @TestFactory
  Stream<DynamicTest> everyJobSetIsValidAgainstTheCrd() {
    return each(
        "JobSet valid against the v0.12.0 CRD",
        d -> {
          for (JsonNode o : renders(d).jobSetObjects()) {
            if (o.path("kind").asText().equals(JobSetNames.KIND)) {
              assertThat(o.path("apiVersion").asText()).isEqualTo(JobSetNames.API_VERSION);
              assertThat(CRD.validate(o)).as(name(o)).isEmpty();
            }
          }
        });
  }

  @TestFactory
  Stream<DynamicTest> oneJobSetPerJobAndNoReplicaBesideIt() {
    return each(
        "one JobSet, no Job, StatefulSet or Pod",
        d -> {
          Renders r = renders(d);
          if (r.jobSet().exit() != 0) {
            return;
          }
          List<JsonNode> objects = r.jobSetObjects();
          assertThat(objects).noneMatch(o -> Set.of("Job", "StatefulSet", "Pod").contains(kind(o)));
          long jobs = jobDocuments(d);
          assertThat(objects.stream().filter(o -> kind(o).equals(JobSetNames.KIND)).count())
              .isEqualTo(jobs);
        });
  }

  @TestFactory
  Stream<DynamicTest> everyReplicaHasThePlainTargetsEnvironment() {
    return each(
        "each container's env at run time equals the plain target's",
        d -> {
          Renders r = renders(d);
          if (r.jobSet().exit() != 0 || r.plain().exit() != 0) {
            return;
          }
          if (r.plainObjects().stream().anyMatch(o -> kind(o).equals(JobSetNames.KIND))) {
            // A kind that is a JobSet in every target (a TrainJob): the target changes nothing.
            assertThat(r.jobSet().out()).isEqualTo(r.plain().out());
            return;
          }
          Map<String, PodShape> plain = plainPods(r.plainObjects());
          Map<String, PodShape> jobSet = jobSetPods(r.jobSetObjects());
          assertThat(jobSet.keySet()).isEqualTo(plain.keySet());
          jobSet.forEach(
              (replica, pod) -> {
                PodShape before = plain.get(replica);
                for (String list : List.of("containers", "initContainers")) {
                  Map<String, JsonNode> ours = byName(pod.spec().path(list));
                  Map<String, JsonNode> theirs = byName(before.spec().path(list));
                  if (list.equals("containers")) {
                    assertThat(ours.keySet()).as(replica).isEqualTo(theirs.keySet());
                  }
                  ours.forEach(
                      (container, c) -> {
                        if (theirs.containsKey(container)) {
                          // An MPIJob's pods run in Indexed Jobs (JobSet host names need
                          // them), so the Job controller adds JOB_COMPLETION_INDEX: the one
                          // difference docs/jobset.md states; any other fails here.
                          boolean completionIndex =
                              before.indexed() || (before.mpi() && pod.indexed());
                          assertThat(RunTimeEnv.of(c.path("env"), pod.indexed()))
                              .as(replica + " " + list + " " + container)
                              .isEqualTo(
                                  RunTimeEnv.of(
                                      theirs.get(container).path("env"), completionIndex));
                        }
                      });
                }
              });
        });
  }

  /**
   * A replica's pod spec, and whether an Indexed Job creates it: the Job controller then adds
   * {@code JOB_COMPLETION_INDEX} to each container's environment.
   */
  private record PodShape(JsonNode spec, boolean indexed, boolean mpi) {}

  @TestFactory
  Stream<DynamicTest> aQueueNameIsOnTheJobSetAlone() {
    return each(
        "Kueue labels on the JobSet alone",
        d -> {
          Renders r = renders(d);
          if (r.jobSet().exit() != 0) {
            return;
          }
          for (JsonNode o : r.jobSetObjects()) {
            boolean jobSet = kind(o).equals(JobSetNames.KIND);
            o.path("metadata")
                .path("labels")
                .fieldNames()
                .forEachRemaining(
                    k -> assertThat(!k.startsWith(KUEUE) || jobSet).as(name(o) + " " + k).isTrue());
            for (JsonNode rjob : o.path("spec").path("replicatedJobs")) {
              JsonNode template = rjob.path("template");
              for (JsonNode labels :
                  List.of(
                      template.path("metadata").path("labels"),
                      template.path("spec").path("template").path("metadata").path("labels"))) {
                labels
                    .fieldNames()
                    .forEachRemaining(k -> assertThat(k).as(name(o)).doesNotStartWith(KUEUE));
              }
            }
          }
        });
  }

  /** Golden cases with a queue name cover every kind that renders in the JobSet target. */
  @Test
  void queueNamesAreRenderedAsOneWorkloadForEveryKind() {
    Set<String> kinds = new java.util.TreeSet<>();
    for (Path d : RenderedPods.renderingCases()) {
      Renders r = renders(d);
      for (JsonNode o : r.jobSetObjects()) {
        if (kind(o).equals(JobSetNames.KIND) && o.path("metadata").path("labels").has(QUEUE_NAME)) {
          kinds.add(d.getFileName().toString().split("-")[0]);
        }
      }
    }
    assertThat(kinds).contains("mpijob", "tfjob", "pytorchjob");
  }

  // --- helpers

  /**
   * The replica's pod spec in the plain render, by namespace, job and replica name (the JobSet's
   * replicated Job).
   */
  private static Map<String, PodShape> plainPods(List<JsonNode> objects) {
    Map<String, PodShape> out = new LinkedHashMap<>();
    for (JsonNode o : objects) {
      String kind = kind(o);
      JsonNode spec =
          switch (kind) {
            case "Pod" -> o.path("spec");
            case "Job", "StatefulSet" -> o.path("spec").path("template").path("spec");
            default -> null;
          };
      if (spec == null) {
        continue;
      }
      String job = jobName(o);
      String replica = name(o).substring(job.length() + 1);
      // The MPIJob's scaler Job is jobc's stand-in for the operator, not a replica: in the JobSet
      // target the JobSet controller does its work.
      if (kind.equals("Job") && name(o).equals(dev.jobc.conventions.Naming.scaler(job))) {
        continue;
      }
      // Bare MPI worker Pods <job>-worker-<i> share one template: the JobSet's worker Job. A
      // training-operator kind's replica is a pod and a replicated Job of its own.
      if (kind.equals("Pod") && replica.matches("worker-[0-9]+") && !isTrainingOperator(o)) {
        replica = "worker";
      }
      boolean indexed =
          kind.equals("Job") && o.path("spec").path("completionMode").asText().equals("Indexed");
      // Keyed by namespace and job too: an input may hold several jobs with the same replicas.
      out.putIfAbsent(
          namespace(o) + "/" + job + "/" + replica,
          new PodShape(spec, indexed, !isTrainingOperator(o)));
    }
    return out;
  }

  /** The pod spec of each replicated Job, by namespace, JobSet (the job's name) and name. */
  private static Map<String, PodShape> jobSetPods(List<JsonNode> objects) {
    Map<String, PodShape> out = new LinkedHashMap<>();
    for (JsonNode o : objects) {
      if (kind(o).equals(JobSetNames.KIND)) {
        for (JsonNode rjob : o.path("spec").path("replicatedJobs")) {
          JsonNode job = rjob.path("template").path("spec");
          // The JobSet webhook defaults an unset completionMode to Indexed.
          String mode = job.path("completionMode").asText("Indexed");
          out.put(
              namespace(o) + "/" + name(o) + "/" + rjob.path("name").asText(),
              new PodShape(job.path("template").path("spec"), mode.equals("Indexed"), false));
        }
      }
    }
    return out;
  }

  /** The job an object of a plain render belongs to: its {@code app} label, or TF's job label. */
  private static String jobName(JsonNode o) {
    JsonNode labels = o.path("metadata").path("labels");
    if (labels.has("app")) {
      return labels.get("app").asText();
    }
    JsonNode podLabels =
        o.path("spec").path("template").path("metadata").path("labels").isMissingNode()
            ? labels
            : o.path("spec").path("template").path("metadata").path("labels");
    for (String key :
        List.of(
            "training.kubeflow.org/job-name",
            "jobc.dev/job-name",
            "mpi-job-name",
            "mpi_job_name")) {
      if (labels.has(key)) {
        return labels.get(key).asText();
      }
      if (podLabels.has(key)) {
        return podLabels.get(key).asText();
      }
    }
    throw new AssertionError("no job name on " + name(o));
  }

  private static boolean isTrainingOperator(JsonNode o) {
    // mpi-operator v2beta1 sets the label too, to "mpi-operator".
    String operator =
        o.path("metadata").path("labels").path("training.kubeflow.org/operator-name").asText();
    return !operator.isEmpty() && !operator.equals("mpi-operator");
  }

  private static Map<String, JsonNode> byName(JsonNode containers) {
    Map<String, JsonNode> out = new LinkedHashMap<>();
    for (JsonNode c : containers) {
      out.put(c.path("name").asText(), c);
    }
    return out;
  }

  /** The job documents of a case's input that are rendered (not left to MultiKueue). */
  private static long jobDocuments(Path dir) {
    String text = GoldenCase.read(dir.resolve(GoldenCase.INPUT));
    return new YamlLoader(YamlLimits.defaults())
        .load(new Source("input.yaml", text)).documents().stream()
            .map(Document::root)
            .filter(r -> JOB_KINDS.contains(r.path("apiVersion").asText() + " " + kind(r)))
            .filter(
                r ->
                    !"kueue.x-k8s.io/multikueue"
                        .equals(r.path("spec").path("runPolicy").path("managedBy").asText()))
            // A TrainJob says it in spec.managedBy (kubeflow/trainer v2.3.0 trainjob_types.go).
            .filter(
                r -> !"kueue.x-k8s.io/multikueue".equals(r.path("spec").path("managedBy").asText()))
            .count();
  }

  private static List<JsonNode> objects(String yaml) {
    return new YamlLoader(YamlLimits.defaults())
        .load(new Source("stdout", yaml)).documents().stream().map(Document::root).toList();
  }

  private static boolean rendered(JsonNode o) {
    return "jobc".equals(o.path("metadata").path("labels").path(MANAGED_BY).asText());
  }

  private static String namespace(JsonNode o) {
    return o.path("metadata").path("namespace").asText();
  }

  private static String kind(JsonNode o) {
    return o.path("kind").asText();
  }

  private static String name(JsonNode o) {
    return o.path("metadata").path("name").asText();
  }
}
