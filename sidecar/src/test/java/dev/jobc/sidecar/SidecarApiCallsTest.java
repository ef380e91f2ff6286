package dev.jobc.sidecar;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jobc.ManifestCompiler;
import dev.jobc.model.CompileResult;
import dev.jobc.model.OutputObject;
import dev.jobc.model.Source;
import dev.jobc.options.CompileOptions;
import dev.jobc.options.OptionTable;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import io.fabric8.kubernetes.api.model.rbac.Subject;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import picocli.CommandLine.Command;

/**
 * The run-time rule (DEVELOPERS.md), for every kind: at run time nothing jobc rendered is deleted,
 * and a rendered object is changed only when it carries Flux's {@code ssa: IfNotPresent} and the
 * documented Argo CD {@code ignoreDifferences} covers the sidecar's fields of its kind.
 *
 * <p>What each command can do is read from the code ({@link SidecarApiCalls}); what it may do to
 * which object, from the Role that every golden case renders for the pod running it, as RBAC would
 * grant it. Every delete, patch or update a command can make and its Role grants on a rendered
 * object is checked against the rule. {@link ApiStandIn} checks every request the sidecar tests
 * make against both.
 */
class SidecarApiCallsTest {
  /**
   * Breaches of the rule in code this test does not own yet, by command, verb, kind and why; each
   * must still occur (the test fails when one is fixed, so that it leaves this list). None today:
   * the MPI and DGL sidecars end bare worker Pods instead of deleting them, and the Pods they
   * change carry Flux's annotation.
   */
  static final Set<String> KNOWN = Set.of();

  static final Set<String> CHANGES = Set.of("delete", "deletecollection", "patch", "update");

  @Test
  void everyCommandOfTheSidecarIsRead() {
    Command main = Main.class.getAnnotation(Command.class);
    Set<String> registered = new TreeSet<>();
    for (Class<?> c : main.subcommands()) {
      registered.add(c.getAnnotation(Command.class).name());
    }
    assertThat(SidecarApiCalls.byCommand().keySet()).isEqualTo(registered);
    SidecarApiCalls.byCommand()
        .forEach(
            (command, calls) ->
                calls.forEach(
                    c -> System.out.println(command + ": " + c.key() + " at " + c.site())));
  }

  /** Calls the reading must find, in code that is reached only through other classes. */
  @Test
  void theReadingFollowsCallsIntoOtherClasses() {
    assertThat(SidecarApiCalls.keys("tfjob"))
        .contains("patch batch/jobs", "patch pods", "watch batch/jobs", "create events")
        .doesNotContain("delete batch/jobs", "delete pods");
    assertThat(SidecarApiCalls.keys("run"))
        .contains("patch apps/statefulsets/scale", "get batch/jobs", "watch pods");
    assertThat(SidecarApiCalls.keys("wait")).contains("patch pods").doesNotContain("create events");
    assertThat(SidecarApiCalls.keys("hosts"))
        .as("the JobSet target's hosts sidecar only watches the workers")
        .containsExactlyInAnyOrder("list pods", "watch pods");
  }

  @Test
  void noCommandChangesWhatGitHoldsAgainstTheRule() throws IOException {
    Map<String, List<String>> found = new TreeMap<>();
    int audited = 0;
    for (Path dir : cases()) {
      CompileOptions options = options(dir);
      CompileResult result =
          new ManifestCompiler()
              .compile(
                  List.of(new Source("input.yaml", Files.readString(dir.resolve("input.yaml")))),
                  options);
      List<HasMetadata> objects = new ArrayList<>();
      for (OutputObject o : result.objects()) {
        objects.add(RenderedJob.YAML.unmarshal(o.yaml()));
      }
      for (String problem : audit(objects, options.get(OptionTable.SIDECAR_IMAGE))) {
        String key = problem.substring(0, problem.indexOf('|'));
        found
            .computeIfAbsent(key, k -> new ArrayList<>())
            .add(dir.getFileName() + ": " + problem.substring(problem.indexOf('|') + 1));
        found.computeIfPresent(key, (k, v) -> new ArrayList<>(new java.util.LinkedHashSet<>(v)));
      }
      audited++;
    }
    assertThat(audited).as("golden cases rendered").isGreaterThan(100);
    found.forEach(
        (key, where) -> System.out.println(key + "\n    " + String.join("\n    ", where)));
    assertThat(found.keySet()).as("breaches of the run-time rule").isEqualTo(KNOWN);
  }

  /**
   * Each breach as {@code command verb Kind: why|object}: what a sidecar container in {@code
   * objects} can do, by its code and its Role, to an object of {@code objects}.
   */
  static List<String> audit(List<HasMetadata> objects, String sidecarImage) {
    List<String> out = new ArrayList<>();
    for (HasMetadata o : objects) {
      PodSpec spec = podSpec(o);
      if (spec == null) {
        continue;
      }
      String account =
          spec.getServiceAccountName() != null
              ? spec.getServiceAccountName()
              : spec.getServiceAccount() != null ? spec.getServiceAccount() : "default";
      List<Container> containers = new ArrayList<>();
      if (spec.getInitContainers() != null) {
        containers.addAll(spec.getInitContainers());
      }
      containers.addAll(spec.getContainers());
      for (Container c : containers) {
        if (!sidecarImage.equals(c.getImage()) || c.getArgs() == null || c.getArgs().isEmpty()) {
          continue;
        }
        String command = c.getArgs().get(0);
        assertThat(SidecarApiCalls.byCommand())
            .as("a command the sidecar has")
            .containsKey(command);
        List<PolicyRule> rules = rules(objects, account, o.getMetadata().getNamespace());
        for (SidecarApiCalls.Call call : SidecarApiCalls.byCommand().get(command)) {
          if (!CHANGES.contains(call.verb())) {
            continue;
          }
          for (HasMetadata target : granted(objects, rules, call)) {
            String why =
                call.verb().startsWith("delete")
                    ? "deletes what Git holds"
                    : GitOpsRules.whyNotChangeable(target);
            if (why != null) {
              out.add(
                  command
                      + " "
                      + call.verb()
                      + " "
                      + target.getKind()
                      + ": "
                      + why
                      + "|"
                      + target.getKind()
                      + " "
                      + target.getMetadata().getName()
                      + " ("
                      + call.site()
                      + ")");
            }
          }
        }
      }
    }
    return out;
  }

  private static PodSpec podSpec(HasMetadata o) {
    if (o instanceof Pod p) {
      return p.getSpec();
    }
    if (o instanceof Job j) {
      return j.getSpec().getTemplate().getSpec();
    }
    if (o instanceof StatefulSet s) {
      return s.getSpec().getTemplate().getSpec();
    }
    return null;
  }

  /** The rules of every rendered Role bound to {@code account}. */
  private static List<PolicyRule> rules(List<HasMetadata> objects, String account, String ns) {
    Set<String> roles = new TreeSet<>();
    for (HasMetadata o : objects) {
      if (o instanceof RoleBinding b && "Role".equals(b.getRoleRef().getKind())) {
        for (Subject s : b.getSubjects()) {
          if ("ServiceAccount".equals(s.getKind())
              && account.equals(s.getName())
              && ns.equals(
                  s.getNamespace() == null ? b.getMetadata().getNamespace() : s.getNamespace())) {
            roles.add(b.getRoleRef().getName());
          }
        }
      }
    }
    List<PolicyRule> out = new ArrayList<>();
    for (HasMetadata o : objects) {
      if (o instanceof Role r && roles.contains(r.getMetadata().getName())) {
        out.addAll(r.getRules());
      }
    }
    return out;
  }

  /** The rendered objects a rule among {@code rules} lets {@code call} reach. */
  private static Set<HasMetadata> granted(
      List<HasMetadata> objects, List<PolicyRule> rules, SidecarApiCalls.Call call) {
    Set<HasMetadata> out = new java.util.LinkedHashSet<>();
    for (PolicyRule rule : rules) {
      if (!rule.getVerbs().contains(call.verb()) && !rule.getVerbs().contains("*")) {
        continue;
      }
      for (String group : rule.getApiGroups()) {
        for (String resource : rule.getResources()) {
          String groupResource = group.isEmpty() ? resource : group + "/" + resource;
          if (!call.resource().equals("*") && !call.resource().equals(groupResource)) {
            continue;
          }
          String plural =
              resource.contains("/") ? resource.substring(0, resource.indexOf('/')) : resource;
          for (HasMetadata o : objects) {
            if (GitOpsRules.group(o).equals(group)
                && (o.getKind().toLowerCase(Locale.ROOT) + "s").equals(plural)
                && (rule.getResourceNames() == null
                    || rule.getResourceNames().isEmpty()
                    || rule.getResourceNames().contains(o.getMetadata().getName()))) {
              out.add(o);
            }
          }
        }
      }
    }
    return out;
  }

  private static List<Path> cases() throws IOException {
    try (Stream<Path> dirs = Files.list(GitOpsRules.root().resolve("golden/cases"))) {
      return dirs.filter(d -> Files.exists(d.resolve("expected.yaml"))).sorted().toList();
    }
  }

  /** {@code options.yaml}: the {@code jobc render} long options without dashes. */
  @SuppressWarnings("unchecked")
  private static CompileOptions options(Path dir) throws IOException {
    Path file = dir.resolve("options.yaml");
    CompileOptions.Draft draft = CompileOptions.defaults().toDraft();
    if (Files.exists(file)) {
      Map<String, Object> given = RenderedJob.YAML.unmarshal(Files.readString(file), Map.class);
      given.forEach((name, value) -> draft.setText(name, String.valueOf(value)));
    }
    return draft.build();
  }
}
