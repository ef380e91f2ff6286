package dev.jobc.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.jobc.ManifestCompiler;
import dev.jobc.options.OptionTable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Runs deploy/argocd/plugin.yaml's commands the way argocd-cmp-server does: in the application
 * directory, with the environment Argo CD builds from the documentation's Application, and stdout
 * parsed as a YAML/JSON stream.
 */
class ArgoCdIT {
  private static final Path PLUGIN = ExternalCommand.root().resolve("deploy/argocd/plugin.yaml");

  @TempDir Path tmp;

  @Test
  void generateRendersTheReadmeApplication() {
    JsonNode app = YamlStream.parse(DocSnippets.get("argocd")).get(0);
    JsonNode source = app.path("spec").path("source");
    assertThat(source.path("plugin").path("name").asText())
        .isEqualTo(plugin().path("metadata").path("name").asText());
    Path appDir = ExternalCommand.root().resolve(source.path("path").asText());

    ExternalCommand run = generate(appDir, environment(app));

    assertThat(run.exitCode()).as(run.toString()).isZero();
    List<JsonNode> objects = YamlStream.parse(run.out());
    assertThat(objects).isNotEmpty();
    assertThat(objects)
        .allSatisfy(
            o -> {
              assertThat(o.path("apiVersion").asText()).isNotEmpty();
              assertThat(o.path("kind").asText()).isNotEmpty();
              // The namespace comes from the destination (ARGOCD_APP_NAMESPACE).
              assertThat(o.path("metadata").path("namespace").asText()).isEqualTo("training");
            });
    assertThat(YamlStream.ids(run.out())).contains("Job/pi-kpt-launcher");
    // JOBC_CLUSTER_DOMAIN from plugin.env.
    assertThat(run.out()).contains("pi-kpt-worker-0.pi-kpt.training.svc.cluster.local");
    assertThat(run.err()).contains("rendered");
  }

  /**
   * An application path that is also a kustomization: its kustomization and the patch it names are
   * skipped with a note, and the exclude parameter leaves out what its globs match.
   */
  @Test
  void generateSkipsToolConfigurationAndWhatTheExcludeParameterMatches() throws IOException {
    Path appDir = tmp.resolve("app");
    Files.createDirectories(appDir.resolve("drafts"));
    Files.writeString(
        appDir.resolve("pi.yaml"),
        Files.readString(ExternalCommand.root().resolve("examples/pi.yaml")));
    Files.writeString(
        appDir.resolve("kustomization.yaml"),
        "resources:\n- pi.yaml\npatches:\n- path: patch.yaml\n");
    Files.writeString(
        appDir.resolve("patch.yaml"),
        "apiVersion: kubeflow.org/v2beta1\nkind: MPIJob\nmetadata:\n  name: pi\n");
    Files.writeString(appDir.resolve("drafts/broken.yaml"), "kind: [\n");
    Files.writeString(appDir.resolve("scratch.yaml"), "not: an object\n");

    ExternalCommand run =
        generate(
            appDir,
            Map.of(
                "ARGOCD_APP_NAMESPACE",
                "training",
                "ARGOCD_APP_PARAMETERS",
                "[{\"name\":\"exclude\",\"array\":[\"drafts\",\"scratch.yaml\"]}]"));

    assertThat(run.exitCode()).as(run.toString()).isZero();
    assertThat(YamlStream.ids(run.out())).contains("Job/pi-launcher").doesNotContain("MPIJob/pi");
    assertThat(run.err())
        .startsWith(
            "kustomization.yaml: note: skipped: a kustomization (kustomize's configuration)\n"
                + "patch.yaml: note: skipped: a patch named by the kustomization.yaml beside it\n");
  }

  /** The documentation's Application over a directory with a TFJob: discovered and rendered. */
  @Test
  void generateRendersATfJob() throws IOException {
    JsonNode app = YamlStream.parse(DocSnippets.get("argocd")).get(0);
    Path appDir = tmp.resolve("tf");
    Files.createDirectories(appDir);
    Files.writeString(appDir.resolve("mnist.yaml"), ChannelInputs.tfJob());

    JsonNode find = plugin().path("spec").path("discover").path("find");
    List<String> discover = new ArrayList<>();
    find.path("command").forEach(c -> discover.add(c.asText()));
    find.path("args").forEach(c -> discover.add(c.asText()));
    assertThat(ExternalCommand.run(appDir, Map.of(), "", discover).out().strip())
        .isEqualTo("./mnist.yaml");

    ExternalCommand run = generate(appDir, environment(app));
    assertThat(run.exitCode()).as(run.toString()).isZero();
    assertThat(YamlStream.ids(run.out()))
        .as(run.toString())
        .containsAll(ChannelInputs.TFJOB_OBJECTS)
        .doesNotContain("TFJob/mnist");
    // The destination namespace and JOBC_CLUSTER_DOMAIN, in every replica's TF_CONFIG.
    assertThat(run.out()).contains(ChannelInputs.TF_CONFIG_PS_HOST);
  }

  /**
   * The README's Application over a directory with a job of each other training-operator kind, its
   * kind quoted as training-operator's examples write it: discovered and rendered.
   */
  @ParameterizedTest
  @MethodSource("trainingOperatorExamples")
  void generateRendersEachTrainingOperatorKind(ChannelInputs.Example example, String quote)
      throws IOException {
    JsonNode app = YamlStream.parse(DocSnippets.get("argocd")).get(0);
    Path appDir = tmp.resolve("app");
    Files.createDirectories(appDir);
    String text = example.text();
    assertThat(text).contains("\nkind: " + example.kind() + "\n");
    Files.writeString(
        appDir.resolve(example.name()),
        text.replace(
            "\nkind: " + example.kind() + "\n",
            "\nkind: " + quote + example.kind() + quote + "\n"));

    ExternalCommand discovered = ExternalCommand.run(appDir, Map.of(), "", discover());
    assertThat(discovered.out().strip()).isEqualTo("./" + example.name());

    ExternalCommand run = generate(appDir, environment(app));
    assertThat(run.exitCode()).as(run.toString()).isZero();
    assertThat(YamlStream.ids(run.out()))
        .as(run.toString())
        .containsExactlyInAnyOrderElementsOf(example.objects());
    assertThat(run.out()).contains(example.env());
  }

  static Stream<Arguments> trainingOperatorExamples() {
    return ChannelInputs.TRAINING_OPERATOR.stream()
        .flatMap(e -> Stream.of(Arguments.of(e, ""), Arguments.of(e, "\""), Arguments.of(e, "'")));
  }

  /** Discovery names every kind jobc renders: a kind it left out would never reach jobc. */
  @Test
  void discoveryKnowsEveryAcceptedKind() throws IOException {
    for (String accepted : new ManifestCompiler().acceptedKinds()) {
      String apiVersion = accepted.substring(0, accepted.indexOf(' '));
      String kind = accepted.substring(accepted.indexOf(' ') + 1);
      Path appDir = tmp.resolve(kind + "-" + apiVersion.replace('/', '-'));
      Files.createDirectories(appDir);
      Files.writeString(
          appDir.resolve("job.yml"), "apiVersion: " + apiVersion + "\nkind: " + kind + "\n");
      assertThat(ExternalCommand.run(appDir, Map.of(), "", discover()).out().strip())
          .as(accepted)
          .isEqualTo("./job.yml");
    }
  }

  private static List<String> discover() {
    JsonNode find = plugin().path("spec").path("discover").path("find");
    List<String> command = new ArrayList<>();
    find.path("command").forEach(c -> command.add(c.asText()));
    find.path("args").forEach(c -> command.add(c.asText()));
    return command;
  }

  @Test
  void pluginAnnouncesEveryOptionThroughItsDynamicCommand() throws Exception {
    JsonNode dynamic = plugin().path("spec").path("parameters").path("dynamic");
    List<String> command = new ArrayList<>();
    dynamic.path("command").forEach(c -> command.add(c.asText()));
    assertThat(command).startsWith("jobc", "argocd");
    // Run as argocd-cmp-server runs it: in the application directory, bin/ first on the PATH.
    ExternalCommand run =
        ExternalCommand.run(tmp, Map.of("PATH", ExternalCommand.pathWithBin()), "", command);
    assertThat(run.exitCode()).as(run.toString()).isZero();
    JsonNode announced = new ObjectMapper().readTree(run.out());
    List<String> names = new ArrayList<>();
    announced.forEach(p -> names.add(p.path("name").asText()));
    // Every option, then the exclude globs (not a compile option), an array.
    List<String> expected = new ArrayList<>(OptionTable.names());
    expected.add("exclude");
    assertThat(names).containsExactlyElementsOf(expected);
    assertThat(announced.get(names.size() - 1).path("collectionType").asText()).isEqualTo("array");
    assertThat(announced.get(OptionTable.TRANSPORT.index()).path("string").asText())
        .isEqualTo("kubexec");
    assertThat(announced.get(OptionTable.NAMESPACE.index()).has("string")).isFalse();
  }

  @Test
  void anInvalidJobPrintsNothingAndFails() throws IOException {
    Path appDir = tmp.resolve("app");
    Files.createDirectories(appDir);
    Files.writeString(
        appDir.resolve("pi.yaml"),
        Files.readString(ExternalCommand.root().resolve("examples/pi.yaml"))
            .replace("slotsPerWorker", "slotPerWorker"));
    ExternalCommand run = generate(appDir, Map.of("ARGOCD_APP_NAMESPACE", "training"));
    assertThat(run.exitCode()).as(run.toString()).isOne();
    assertThat(run.out()).isEmpty();
    assertThat(run.err()).contains("pi.yaml:9:3: error: spec.slotPerWorker: unknown field");
  }

  @Test
  void nothingToRenderFailsInsteadOfPruning() throws IOException {
    Path appDir = tmp.resolve("empty");
    Files.createDirectories(appDir);
    Files.writeString(appDir.resolve("README.md"), "no manifests here\n");
    ExternalCommand run = generate(appDir, Map.of("ARGOCD_APP_NAMESPACE", "training"));
    assertThat(run.exitCode()).as(run.toString()).isOne();
    assertThat(run.out()).isEmpty();
    assertThat(run.err()).contains("refusing to print an empty render");
  }

  @Test
  void anUnknownParameterFails() {
    ExternalCommand run =
        generate(
            ExternalCommand.root().resolve("examples/kpt"),
            Map.of("ARGOCD_APP_PARAMETERS", "[{\"name\":\"clusterDomain\",\"string\":\"x\"}]"));
    assertThat(run.exitCode()).as(run.toString()).isOne();
    assertThat(run.out()).isEmpty();
    assertThat(run.err()).contains("unknown parameter \"clusterDomain\"");
  }

  @Test
  void discoveryMatchesOnlyDirectoriesWithJobs() throws IOException {
    JsonNode find = plugin().path("spec").path("discover").path("find");
    List<String> command = new ArrayList<>();
    find.path("command").forEach(c -> command.add(c.asText()));
    find.path("args").forEach(c -> command.add(c.asText()));

    ExternalCommand jobs =
        ExternalCommand.run(ExternalCommand.root().resolve("examples/kpt"), Map.of(), "", command);
    assertThat(jobs.exitCode()).as(jobs.toString()).isZero();
    assertThat(jobs.out().strip()).isEqualTo("./pi.yaml");

    Path other = tmp.resolve("other");
    Files.createDirectories(other);
    Files.writeString(other.resolve("cm.yaml"), "apiVersion: v1\nkind: ConfigMap\n");
    ExternalCommand none = ExternalCommand.run(other, Map.of(), "", command);
    // argocd-cmp-server: a match needs exit 0 and non-empty stdout.
    assertThat(none.out()).isEmpty();
  }

  @Test
  void theComponentAddsTheSidecarAndTheJobSetHealthCheck() throws IOException {
    ExternalCommand.require("kubectl");
    Path dir = tmp.resolve("install");
    Files.createDirectories(dir);
    Files.writeString(
        dir.resolve("kustomization.yaml"),
        "resources: [repo-server.yaml, argocd-cm.yaml]\ncomponents: ["
            // kustomize accepts only relative component paths.
            + dir.relativize(ExternalCommand.root().resolve("deploy/argocd"))
            + "]\n");
    Files.writeString(
        dir.resolve("repo-server.yaml"),
        """
        apiVersion: apps/v1
        kind: Deployment
        metadata:
          name: argocd-repo-server
        spec:
          template:
            spec:
              containers:
              - name: argocd-repo-server
                image: quay.io/argoproj/argocd:v3.0.0
              volumes:
              - name: var-files
                emptyDir: {}
              - name: plugins
                emptyDir: {}
        """);
    // As Argo CD's install.yaml has it.
    Files.writeString(
        dir.resolve("argocd-cm.yaml"),
        """
        apiVersion: v1
        kind: ConfigMap
        metadata:
          name: argocd-cm
          labels:
            app.kubernetes.io/name: argocd-cm
            app.kubernetes.io/part-of: argocd
        """);
    ExternalCommand run =
        ExternalCommand.run(
            dir,
            Map.of(),
            "",
            List.of("kubectl", "kustomize", "--load-restrictor", "LoadRestrictionsNone", "."));
    assertThat(run.exitCode()).as(run.toString()).isZero();
    List<JsonNode> objects = YamlStream.parse(run.out());
    Map<String, JsonNode> configMaps = new HashMap<>();
    objects.stream()
        .filter(o -> o.path("kind").asText().equals("ConfigMap"))
        .forEach(o -> configMaps.put(o.path("metadata").path("name").asText(), o));
    assertThat(configMaps).containsOnlyKeys("jobc-cmp-plugin", "argocd-cm");
    // The JobSet health check (JobSetHealthIT runs it), merged under the key Argo CD reads.
    JsonNode argocdCm = configMaps.get("argocd-cm");
    assertThat(
            argocdCm
                .path("data")
                .path("resource.customizations.health.jobset.x-k8s.io_JobSet")
                .asText())
        .isEqualTo(
            Files.readString(ExternalCommand.root().resolve("deploy/argocd/jobset-health.lua")));
    // And the Job health check, under batch_Job.
    assertThat(argocdCm.path("data").path("resource.customizations.health.batch_Job").asText())
        .isEqualTo(
            Files.readString(ExternalCommand.root().resolve("deploy/argocd/job-health.lua")));
    assertThat(argocdCm.path("metadata").path("labels").path("app.kubernetes.io/part-of").asText())
        .isEqualTo("argocd");
    JsonNode configMap = configMaps.get("jobc-cmp-plugin");
    assertThat(configMap.path("data").path("plugin.yaml").asText())
        .isEqualTo(Files.readString(PLUGIN));
    JsonNode pod =
        objects.stream()
            .filter(o -> o.path("kind").asText().equals("Deployment"))
            .findFirst()
            .get()
            .path("spec")
            .path("template")
            .path("spec");
    JsonNode sidecar = null;
    for (JsonNode c : pod.path("containers")) {
      if (c.path("name").asText().equals("jobc")) {
        sidecar = c;
      }
    }
    assertThat(sidecar)
        .as(run.out())
        .isInstanceOf(com.fasterxml.jackson.databind.node.ObjectNode.class);
    assertThat(sidecar.path("securityContext").path("runAsUser").asInt()).isEqualTo(999);
    assertThat(sidecar.path("command").get(0).asText())
        .isEqualTo("/var/run/argocd/argocd-cmp-server");
    Map<String, String> mounts = new HashMap<>();
    sidecar
        .path("volumeMounts")
        .forEach(m -> mounts.put(m.path("mountPath").asText(), m.path("name").asText()));
    assertThat(mounts)
        .containsEntry("/tmp", "jobc-tmp")
        .containsEntry("/var/run/argocd", "var-files")
        .containsEntry("/home/argocd/cmp-server/plugins", "plugins")
        .containsEntry("/home/argocd/cmp-server/config/plugin.yaml", "jobc-cmp-plugin");
    Map<String, String> volumes = new HashMap<>();
    pod.path("volumes").forEach(v -> volumes.put(v.path("name").asText(), v.toString()));
    // Its own /tmp: an emptyDir, not the repo-server's volume.
    assertThat(volumes.get("jobc-tmp")).contains("\"emptyDir\":{}");
  }

  /** Runs plugin.yaml's generate command in {@code appDir}, with bin/ first on the PATH. */
  private static ExternalCommand generate(Path appDir, Map<String, String> env) {
    JsonNode generate = plugin().path("spec").path("generate");
    List<String> command = new ArrayList<>();
    generate.path("command").forEach(c -> command.add(c.asText()));
    generate.path("args").forEach(c -> command.add(c.asText()));
    Map<String, String> all = new HashMap<>(env);
    all.put("PATH", ExternalCommand.pathWithBin());
    return ExternalCommand.run(appDir, all, "", command);
  }

  private static JsonNode plugin() {
    try {
      return YamlStream.parse(Files.readString(PLUGIN)).get(0);
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }

  /**
   * The variables argocd-repo-server passes for an Application: ARGOCD_APP_*, ARGOCD_ENV_<name> per
   * plugin.env entry, ARGOCD_APP_PARAMETERS and PARAM_<NAME> per parameter.
   */
  private static Map<String, String> environment(JsonNode app) {
    Map<String, String> env = new HashMap<>();
    env.put("ARGOCD_APP_NAME", app.path("metadata").path("name").asText());
    env.put(
        "ARGOCD_APP_NAMESPACE", app.path("spec").path("destination").path("namespace").asText());
    env.put("ARGOCD_APP_REVISION", "0123456789abcdef0123456789abcdef01234567");
    JsonNode plugin = app.path("spec").path("source").path("plugin");
    plugin
        .path("env")
        .forEach(e -> env.put("ARGOCD_ENV_" + e.path("name").asText(), e.path("value").asText()));
    ArrayNode parameters = new ObjectMapper().createArrayNode();
    for (JsonNode p : plugin.path("parameters")) {
      parameters
          .addObject()
          .put("name", p.path("name").asText())
          .put("string", p.path("string").asText());
      env.put(
          "PARAM_" + p.path("name").asText().toUpperCase(Locale.ROOT).replaceAll("[^A-Z0-9_]", "_"),
          p.path("string").asText());
    }
    env.put("ARGOCD_APP_PARAMETERS", parameters.toString());
    return env;
  }
}
