package dev.jobc.sidecar;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jobc.ManifestCompiler;
import dev.jobc.model.CompileResult;
import dev.jobc.model.OutputObject;
import dev.jobc.model.Source;
import dev.jobc.options.CompileOptions;
import dev.jobc.options.OptionTable;
import dev.jobc.options.Target;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Git's changes reach the cluster under the GitOps tools, by their rules ({@link GitOpsStandIn},
 * with the Argo CD recipe read from docs/gitops.md), for every kind and both targets: a job is
 * applied, the sidecar does what it does at run time to one of the objects it may change, and then
 * Git suspends the job, resumes it and gives it a new {@code activeDeadlineSeconds}. After each
 * sync every field Git sets has Git's value in the cluster, except the fields the sidecar wrote
 * (the run time wins there, and keeps its values) and, under Flux, the objects marked {@code ssa:
 * IfNotPresent}, which Flux leaves as they are. A new deadline cannot reach an existing JobSet,
 * whose replicated Jobs are immutable: the tools report the refusal and change nothing.
 */
class GitOpsScenarioTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** Runs at run time: the field managers whose writes the tools must not undo. */
  private static final Set<String> RUN_TIME = Set.of(GitOpsRules.MANAGER, KueueStandIn.MANAGER);

  enum Tool {
    FLUX,
    ARGO_RESPECTING,
    ARGO_NOT_RESPECTING
  }

  private static final String RUN_POLICY =
      "  runPolicy: {suspend: SUSPEND, activeDeadlineSeconds: DEADLINE}\n";

  private static String replicas(String key, String container, String... types) {
    StringBuilder out = new StringBuilder("  " + key + ":\n");
    for (String type : types) {
      out.append("    ")
          .append(type)
          .append(":\n      replicas: ")
          .append(type.equals("Worker") ? 2 : 1)
          .append("\n      template:\n        spec:\n          containers:\n")
          .append("          - {name: ")
          .append(container)
          .append(", image: example.com/train:1}\n");
    }
    return out.toString();
  }

  private static final Map<String, String> JOBS =
      Map.of(
          "MPIJob",
          "apiVersion: kubeflow.org/v2beta1\nkind: MPIJob\nmetadata: {name: job, namespace: team}\n"
              + "spec:\n"
              + RUN_POLICY
              + "  mpiReplicaSpecs:\n    Launcher:\n      replicas: 1\n      template:\n"
              + "        spec:\n          containers:\n"
              + "          - {name: launcher, image: example.com/mpi:1, command: [mpirun, -n, '2',"
              + " /pi]}\n"
              + "    Worker:\n      replicas: 2\n      template:\n        spec:\n"
              + "          containers: [{name: worker, image: example.com/mpi:1}]\n",
          "TFJob",
          head("TFJob") + replicas("tfReplicaSpecs", "tensorflow", "Chief", "PS", "Worker"),
          "PyTorchJob",
          head("PyTorchJob") + replicas("pytorchReplicaSpecs", "pytorch", "Master", "Worker"),
          "XGBoostJob",
          head("XGBoostJob") + replicas("xgbReplicaSpecs", "xgboost", "Master", "Worker"),
          "JAXJob",
          head("JAXJob") + replicas("jaxReplicaSpecs", "jax", "Worker"),
          "PaddleJob",
          head("PaddleJob") + replicas("paddleReplicaSpecs", "paddle", "Worker"));

  private static String head(String kind) {
    return "apiVersion: kubeflow.org/v1\nkind: "
        + kind
        + "\nmetadata: {name: job, namespace: team}\nspec:\n"
        + RUN_POLICY;
  }

  static Stream<Arguments> scenarios() {
    List<Arguments> out = new ArrayList<>();
    for (String kind : JOBS.keySet().stream().sorted().toList()) {
      for (Target target : Target.values()) {
        for (Tool tool : Tool.values()) {
          out.add(Arguments.of(kind, target, tool));
        }
      }
    }
    return out.stream();
  }

  @ParameterizedTest(name = "{0} {1} {2}")
  @MethodSource("scenarios")
  void gitsSuspensionResumptionAndDeadlineReachTheClusterAndTheRunTimesChangesStay(
      String kind, Target target, Tool tool) {
    LiveObjects cluster = new LiveObjects();
    GitOpsStandIn gitops = new GitOpsStandIn(cluster);
    CompileOptions options = CompileOptions.defaults().with(OptionTable.TARGET, target);
    String job = JOBS.get(kind);

    sync(gitops, tool, render(job, false, 3600, options));
    runTimeWrites(cluster);

    List<JsonNode> suspended = render(job, true, 3600, options);
    assertThat(suspendsSomething(suspended)).as("the render suspends something").isTrue();
    step(cluster, gitops, tool, suspended, false);
    step(cluster, gitops, tool, render(job, false, 3600, options), false);
    step(cluster, gitops, tool, render(job, false, 7200, options), target == Target.JOB_SET);
  }

  /**
   * Kueue owns {@code suspend} of a queued job: its webhook suspends the JobSet (or gates the Pods)
   * at creation, admission resumes it and merges the flavor's node selector, and neither Flux's
   * re-applies nor Argo CD's self-heals undo that, so Kueue never has to start a job again.
   */
  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("queued")
  void kueueAndGitDoNotFightOverSuspend(String goldenCase, Tool tool) throws Exception {
    java.nio.file.Path dir = GitOpsRules.root().resolve("golden/cases").resolve(goldenCase);
    CompileOptions options = CompileOptions.defaults();
    java.nio.file.Path optionsFile = dir.resolve("options.yaml");
    if (java.nio.file.Files.exists(optionsFile)) {
      for (String line : java.nio.file.Files.readAllLines(optionsFile)) {
        String[] kv = line.split(":\\s*", 2);
        options = with(options, kv[0].trim(), kv[1].trim());
      }
    }
    List<JsonNode> git = render(java.nio.file.Files.readString(dir.resolve("input.yaml")), options);
    LiveObjects cluster = new LiveObjects();
    KueueStandIn kueue = new KueueStandIn(cluster);
    GitOpsStandIn gitops = new GitOpsStandIn(cluster);
    sync(gitops, tool, git);
    kueue.admitAll(Map.of("cloud.google.com/gke-accelerator", "a100"));
    Map<String, ObjectNode> admitted = cluster.all();
    for (int round = 0; round < 3; round++) {
      sync(gitops, tool, git);
      kueue.reconcile();
    }
    assertThat(gitops.errors).isEmpty();
    assertThat(kueue.restarts).as("admitted jobs Kueue had to start again").isZero();
    assertThat(cluster.all()).as("nothing undone").isEqualTo(admitted);
    long queued =
        admitted.values().stream()
            .filter(KueueStandIn::queued)
            .peek(
                o -> {
                  assertThat(o.at("/spec/suspend").asBoolean(false)).isFalse();
                  assertThat(o.toString()).contains("a100");
                })
            .count();
    assertThat(queued).as("queued objects").isPositive();
  }

  static Stream<Arguments> queued() {
    List<Arguments> out = new ArrayList<>();
    for (String c :
        List.of(
            "mpijob-jobset-kueue",
            "tfjob-jobset-kueue",
            "pytorchjob-jobset-kueue",
            "pytorchjob-pods-kueue",
            "tfjob-pods-kueue")) {
      for (Tool tool : List.of(Tool.FLUX, Tool.ARGO_RESPECTING)) {
        out.add(Arguments.of(c, tool));
      }
    }
    return out.stream();
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static CompileOptions with(CompileOptions options, String name, String value) {
    dev.jobc.options.Option option = OptionTable.byName(name);
    return options.with(option, option.parse(value));
  }

  /** One Git change and one sync, then the rule of the class on every field Git sets. */
  private static void step(
      LiveObjects cluster,
      GitOpsStandIn gitops,
      Tool tool,
      List<JsonNode> git,
      boolean refusedForJobSets) {
    Map<String, ObjectNode> before = cluster.all();
    gitops.errors.clear();
    sync(gitops, tool, git);
    if (refusedForJobSets) {
      assertThat(gitops.errors)
          .as("the JobSet webhook refuses a change of spec.replicatedJobs")
          .isNotEmpty()
          .allSatisfy(e -> assertThat(e).contains("JobSet").contains("replicatedJobs"));
      assertThat(cluster.all()).as("nothing applied").isEqualTo(before);
      return;
    }
    assertThat(gitops.errors).isEmpty();
    for (JsonNode o : git) {
      ObjectNode live = cluster.get(o);
      ObjectNode was = before.get(LiveObjects.key(o));
      Map<String, Set<String>> owners = cluster.managedFields(o);
      boolean fluxLeavesIt =
          tool == Tool.FLUX
              && "IfNotPresent"
                  .equals(
                      o.path("metadata").path("annotations").path(GitOpsRules.FLUX_SSA).asText());
      for (String leaf : LiveObjects.leaves(o)) {
        String what = LiveObjects.key(o) + " " + leaf;
        boolean runTimes =
            owners.entrySet().stream()
                .anyMatch(
                    e ->
                        RUN_TIME.contains(e.getKey())
                            && e.getValue().stream().anyMatch(f -> LiveObjects.covers(f, leaf)));
        if (fluxLeavesIt || (runTimes && tool != Tool.ARGO_NOT_RESPECTING)) {
          assertThat(live.at(leaf)).as(what + " stays as it was").isEqualTo(was.at(leaf));
        } else if (!runTimes) {
          assertThat(live.at(leaf)).as(what + " is Git's").isEqualTo(o.at(leaf));
        }
      }
    }
  }

  private static void sync(GitOpsStandIn gitops, Tool tool, List<JsonNode> git) {
    GitOpsRules.Recipe documented = GitOpsRules.recipe(GitOpsRules.snippet(GitOpsRules.root()));
    switch (tool) {
      case FLUX -> gitops.flux(git);
      case ARGO_RESPECTING -> gitops.argoSync(git, documented);
      case ARGO_NOT_RESPECTING ->
          gitops.argoSync(git, new GitOpsRules.Recipe(documented.entries(), false));
    }
  }

  /**
   * What the sidecar writes at run time (the patches {@link SidecarApiCalls} reads from its code),
   * to the first object of each kind that carries Flux's {@code ssa: IfNotPresent}, the mark of
   * what it may change: a StatefulSet scaled to 0 through its {@code scale} subresource, a Job
   * suspended as an ended replica, a bare Pod ended by a lowered deadline.
   */
  private static void runTimeWrites(LiveObjects cluster) {
    Set<String> done = new java.util.TreeSet<>();
    for (ObjectNode o : cluster.all().values()) {
      String kind = o.path("kind").asText();
      boolean mine =
          "IfNotPresent"
              .equals(o.path("metadata").path("annotations").path(GitOpsRules.FLUX_SSA).asText());
      if (!mine || !done.add(kind)) {
        continue;
      }
      ObjectNode patch = JSON.createObjectNode();
      switch (kind) {
        case "StatefulSet" -> LiveObjects.set(patch, "/spec/replicas", JSON.valueToTree(0));
        case "Job" -> {
          LiveObjects.set(patch, "/spec/suspend", JSON.valueToTree(true));
          LiveObjects.set(
              patch, "/metadata/annotations/jobc.dev~1stopped-by", JSON.valueToTree("job-chief-0"));
        }
        case "Pod" -> {
          LiveObjects.set(patch, "/spec/activeDeadlineSeconds", JSON.valueToTree(1));
          LiveObjects.set(
              patch, "/metadata/annotations/jobc.dev~1stopped-by", JSON.valueToTree("job-chief-0"));
        }
        default -> {
          continue;
        }
      }
      cluster.patch(o, patch, GitOpsRules.MANAGER);
    }
  }

  private static boolean suspendsSomething(List<JsonNode> objects) {
    return objects.stream().anyMatch(o -> o.at("/spec/suspend").asBoolean(false));
  }

  /** The objects jobc renders for {@code job} with the given run policy, as JSON. */
  static List<JsonNode> render(String job, boolean suspend, int deadline, CompileOptions options) {
    return render(
        job.replace("SUSPEND", Boolean.toString(suspend))
            .replace("DEADLINE", Integer.toString(deadline)),
        options);
  }

  static List<JsonNode> render(String yaml, CompileOptions options) {
    CompileResult result =
        new ManifestCompiler().compile(List.of(new Source("job.yaml", yaml)), options);
    assertThat(result.diagnostics().stream().filter(d -> d.toString().contains("error")))
        .as("the job renders")
        .isEmpty();
    List<JsonNode> out = new ArrayList<>();
    for (OutputObject o : result.objects()) {
      out.add(JSON.valueToTree(RenderedJob.YAML.unmarshal(o.yaml(), Map.class)));
    }
    return out;
  }
}
