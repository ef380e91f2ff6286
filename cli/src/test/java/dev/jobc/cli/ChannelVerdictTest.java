package dev.jobc.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jobc.load.YamlLimits;
import dev.jobc.load.YamlLoader;
import dev.jobc.model.Source;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The same files get the same verdict in every channel: {@code jobc render} of the directory,
 * {@code jobc argocd} in it, and {@code jobc krm} on the ResourceList kpt makes of it (each item
 * annotated with its file). The verdict is the exit code and the set of (file, severity, field
 * path, message) each channel reports, positions aside (krm has none).
 */
class ChannelVerdictTest {
  private static final String JOB = ChannelInputs.PYTORCH_JOB;

  private static String nearMiss(String apiVersion, String kind) {
    return JOB.replace("apiVersion: kubeflow.org/v1", "apiVersion: " + apiVersion)
        .replace("kind: PyTorchJob", "kind: " + kind)
        .replace("name: ok", "name: miss");
  }

  /** A package's files, the verdict render gives it, and reports (prefixes) it must include. */
  record Case(Map<String, String> files, int exitCode, List<String> reports) {
    @Override
    public String toString() {
      return new TreeMap<>(files).keySet() + " " + reports;
    }
  }

  private static Case miss(String apiVersion, String kind, String field) {
    return new Case(
        Map.of("job.yaml", JOB, "miss.yaml", nearMiss(apiVersion, kind)),
        1,
        List.of("miss.yaml error " + field + ": "));
  }

  static Stream<Case> packages() {
    return Stream.of(
        miss("kubeflow.org/v1", "PytorchJob", "kind"),
        miss("kubeflow.org/v1", "TfJob", "kind"),
        miss("kubeflow.org/v2beta1", "MPIjob", "kind"),
        miss("kubeflow.org/v1", "PyTorchJobs", "kind"),
        miss("kubeflow.org/v1", "TrainingJob", "kind"),
        miss("kubeflow.com/v1", "PyTorchJob", "apiVersion"),
        new Case(
            // Tool configuration: skipped with a note by render, passed through with it by krm.
            Map.of(
                "job.yaml",
                JOB,
                "kustomization.yaml",
                "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\n"
                    + "resources: [job.yaml]\npatches:\n- path: patch.yaml\n",
                "patch.yaml",
                "apiVersion: kubeflow.org/v1\nkind: PyTorchJob\nmetadata: {name: ok}\n"
                    + "spec: {runPolicy: {suspend: true}}\n"),
            0,
            List.of("kustomization.yaml note skipped: ", "patch.yaml note skipped: ")),
        new Case(
            Map.of(
                "job.yaml",
                JOB,
                "plugin.yaml",
                "apiVersion: argoproj.io/v1alpha1\nkind: ConfigManagementPlugin\n"
                    + "metadata: {name: jobc}\nspec:\n  generate: {command: [jobc, argocd]}\n"),
            0,
            List.of("plugin.yaml note skipped: ")));
  }

  @ParameterizedTest
  @MethodSource("packages")
  void everyChannelGivesTheSameVerdict(Case c, @TempDir Path dir) throws IOException {
    Map<String, String> files = c.files();
    for (Map.Entry<String, String> f : new TreeMap<>(files).entrySet()) {
      Files.writeString(dir.resolve(f.getKey()), f.getValue());
    }
    Run render = Run.in(dir, "render", ".");
    Run argocd =
        Run.of(
            new JobcCommand(dir, System.in, Map.of("ARGOCD_APP_NAMESPACE", "training")), "argocd");
    Run krm = Run.withStdin(dir, resourceList(files).getBytes(StandardCharsets.UTF_8), "krm");

    Verdict expected = Verdict.of(render);
    assertThat(expected.exitCode()).as(render.err()).isEqualTo(c.exitCode());
    for (String report : c.reports()) {
      assertThat(expected.reports()).as(render.err()).anyMatch(r -> r.startsWith(report));
    }
    assertThat(Verdict.of(argocd))
        .as("argocd against render\n%s", argocd.err())
        .isEqualTo(expected);
    assertThat(Verdict.of(krm)).as("krm against render\n%s", krm.err()).isEqualTo(expected);
  }

  /** The ResourceList kpt hands a function for a package of these files. */
  private static String resourceList(Map<String, String> files) throws IOException {
    ObjectMapper json = new ObjectMapper();
    ObjectNode list = json.createObjectNode();
    list.put("apiVersion", "config.kubernetes.io/v1");
    list.put("kind", "ResourceList");
    ArrayNode items = list.putArray("items");
    for (Map.Entry<String, String> f : new TreeMap<>(files).entrySet()) {
      ObjectNode item =
          (ObjectNode)
              new YamlLoader(YamlLimits.defaults())
                  .load(new Source(f.getKey(), f.getValue()))
                  .documents()
                  .get(0)
                  .root()
                  .deepCopy();
      ObjectNode annotations = item.withObject("metadata").withObject("annotations");
      annotations.put(KrmCommand.PATH, f.getKey());
      annotations.put(KrmCommand.INDEX, "0");
      items.add(item);
    }
    return json.writeValueAsString(list);
  }

  /** Exit code and what was reported, without positions, prefixes or summaries. */
  record Verdict(int exitCode, TreeSet<String> reports) {
    private static final Pattern REPORT =
        Pattern.compile(
            "^(?:jobc krm: )?(?:\\./)?([^:\\s]+)(?::\\d+:\\d+)?: (error|warning|note): (.*)$",
            Pattern.MULTILINE);

    static Verdict of(Run run) {
      TreeSet<String> reports = new TreeSet<>();
      Matcher m = REPORT.matcher(run.err());
      while (m.find()) {
        reports.add(m.group(1) + " " + m.group(2) + " " + m.group(3));
      }
      return new Verdict(run.exitCode(), reports);
    }
  }
}
