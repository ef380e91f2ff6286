package dev.jobc.golden;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Every object jobc renders that a sidecar changes at run time carries Flux's {@code
 * kustomize.toolkit.fluxcd.io/ssa: IfNotPresent}, so that Flux creates it when missing and leaves
 * the run time's change alone (fluxcd/kustomize-controller {@code docs/spec/v1/kustomizations.md},
 * "Controlling the apply behavior of resources"); Argo CD's recipe ignores what field manager
 * {@code jobc-sidecar} owns (docs/gitops.md). The objects are read from the arguments jobc renders
 * for each sidecar, on a fresh render of every golden case:
 *
 * <ul>
 *   <li>{@code --worker-set NAME} ({@code run}, {@code scale-workers}, {@code release}) and {@code
 *       wait --then-scale NAME=N}: the StatefulSet, scaled through its {@code scale} subresource;
 *   <li>{@code --selector} of {@code scale-workers} and {@code release}, and the workers {@code
 *       <job>-worker-<i>} of a {@code run} without a worker set: the bare worker Pods, ended by a
 *       lowered {@code activeDeadlineSeconds};
 *   <li>{@code wait --then-ungate POD...}: the Pods whose scheduling gate it removes;
 *   <li>{@code tfjob} and {@code replicas}: every replica Job or bare Pod of {@code --job}, which
 *       the outcome suspends, fails or ends.
 * </ul>
 */
class RunTimeWritesTest {
  private static final String FLUX_SSA = "kustomize.toolkit.fluxcd.io/ssa";
  private static final String JOB_NAME = "training.kubeflow.org/job-name";
  private static final String REPLICA_TYPE = "training.kubeflow.org/replica-type";

  @Test
  void everyObjectASidecarChangesIsLeftToItByFlux() {
    Map<String, Integer> checked = new TreeMap<>();
    List<String> unmarked = new ArrayList<>();
    for (Path dir : RenderedPods.renderingCases()) {
      List<JsonNode> objects = RenderedPods.documents(dir);
      for (JsonNode container : sidecars(objects)) {
        List<String> args = new ArrayList<>();
        container.path("args").forEach(a -> args.add(a.asText()));
        String command = args.isEmpty() ? "" : args.get(0);
        for (JsonNode target : targets(command, args, objects)) {
          String what =
              dir.getFileName()
                  + ": "
                  + target.path("kind").asText()
                  + " "
                  + target.path("metadata").path("name").asText()
                  + " (changed by "
                  + command
                  + ")";
          checked.merge(command, 1, Integer::sum);
          if (!"IfNotPresent"
              .equals(target.path("metadata").path("annotations").path(FLUX_SSA).asText())) {
            unmarked.add(what);
          }
        }
      }
    }
    assertThat(unmarked).as("changed at run time without ssa: IfNotPresent").isEmpty();
    // Every command that changes objects was met, with the objects it changes.
    assertThat(checked.keySet())
        .containsExactlyInAnyOrder("release", "replicas", "run", "scale-workers", "tfjob", "wait");
  }

  private static List<JsonNode> sidecars(List<JsonNode> objects) {
    List<JsonNode> out = new ArrayList<>();
    for (JsonNode o : objects) {
      JsonNode spec =
          switch (o.path("kind").asText()) {
            case "Pod" -> o.path("spec");
            case "Job", "StatefulSet" -> o.path("spec").path("template").path("spec");
            default -> null;
          };
      if (spec == null) {
        continue;
      }
      for (String list : List.of("initContainers", "containers")) {
        for (JsonNode c : spec.path(list)) {
          if (c.path("image").asText().contains("jobc-sidecar")) {
            out.add(c);
          }
        }
      }
    }
    return out;
  }

  /** The rendered objects that {@code command} with {@code args} changes (see the class). */
  private static List<JsonNode> targets(String command, List<String> args, List<JsonNode> objects) {
    List<JsonNode> out = new ArrayList<>();
    switch (command) {
      case "run", "scale-workers", "release" -> {
        String set = value(args, "--worker-set");
        String selector = value(args, "--selector");
        if (set != null) {
          out.add(one(objects, "StatefulSet", set));
        } else if (selector != null) {
          out.addAll(selected(objects, selector));
        } else if (command.equals("run")) {
          String workers = value(args, "--job") + "-worker-";
          objects.stream()
              .filter(o -> o.path("kind").asText().equals("Pod"))
              .filter(o -> o.path("metadata").path("name").asText().startsWith(workers))
              .forEach(out::add);
        }
      }
      case "wait" -> {
        String scale = value(args, "--then-scale");
        if (scale != null) {
          out.add(one(objects, "StatefulSet", scale.substring(0, scale.indexOf('='))));
        }
        for (String pod : values(args, "--then-ungate")) {
          out.add(one(objects, "Pod", pod));
        }
      }
      case "tfjob", "replicas" -> {
        String job = value(args, "--job");
        objects.stream()
            .filter(o -> Set.of("Job", "Pod").contains(o.path("kind").asText()))
            .filter(o -> job.equals(o.path("metadata").path("labels").path(JOB_NAME).asText()))
            .filter(o -> o.path("metadata").path("labels").has(REPLICA_TYPE))
            .forEach(out::add);
      }
      default -> {}
    }
    return out;
  }

  private static JsonNode one(List<JsonNode> objects, String kind, String name) {
    List<JsonNode> found =
        objects.stream()
            .filter(o -> o.path("kind").asText().equals(kind))
            .filter(o -> o.path("metadata").path("name").asText().equals(name))
            .toList();
    assertThat(found).as("the rendered %s %s a sidecar names", kind, name).hasSize(1);
    return found.get(0);
  }

  /** The Pods whose labels hold every {@code key=value} of {@code selector}. */
  private static List<JsonNode> selected(List<JsonNode> objects, String selector) {
    List<JsonNode> out = new ArrayList<>();
    for (JsonNode o : objects) {
      if (!o.path("kind").asText().equals("Pod")) {
        continue;
      }
      boolean all = true;
      for (String term : selector.split(",")) {
        String[] kv = term.split("=", 2);
        all &= kv[1].equals(o.path("metadata").path("labels").path(kv[0]).asText(null));
      }
      if (all) {
        out.add(o);
      }
    }
    assertThat(out).as("the Pods of selector %s", selector).isNotEmpty();
    return out;
  }

  private static String value(List<String> args, String flag) {
    List<String> all = values(args, flag);
    return all.isEmpty() ? null : all.get(0);
  }

  /** The values of {@code flag}: the arguments after it up to the next flag, for every use. */
  private static List<String> values(List<String> args, String flag) {
    List<String> out = new ArrayList<>();
    for (int i = 0; i < args.size(); i++) {
      if (args.get(i).equals(flag)) {
        for (int j = i + 1; j < args.size() && !args.get(j).startsWith("--"); j++) {
          out.add(args.get(j));
        }
      }
    }
    return out;
  }
}
