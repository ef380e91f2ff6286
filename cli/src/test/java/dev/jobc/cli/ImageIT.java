package dev.jobc.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The two images of this module (pom.xml, jib-maven-plugin), as Jib's {@code buildTar} writes them
 * at pre-integration-test on {@code scratch}: their config, their files, and their entrypoints run
 * as processes of this machine (see {@link ImageTar#hostCommand}), compared with the shaded jar
 * that the other integration tests run through {@code bin/jobc}.
 */
class ImageIT {
  private static final Path ROOT = ExternalCommand.root();
  private static final String VERSION = System.getProperty("jobc.version");
  private static final String LAUNCHER = "/usr/local/bin/jobc";
  private static final String CLASS_PATH_FILE = "/app/jib-classpath-file";

  @TempDir Path tmp;

  /**
   * The Argo CD plugin sidecar's image: what deploy/argocd names and how it runs it (as uid 999,
   * plugin.yaml's commands through {@code jobc} on the PATH).
   */
  @Test
  void cliImageServesTheArgoCdPlugin() throws Exception {
    ImageTar image = open("jobc.image.tar");
    assertThat(image.repoTags()).containsExactly("ghcr.io/jobc-dev/jobc:" + VERSION);
    assertThat(image.entrypoint()).containsExactly(LAUNCHER);
    assertThat(image.cmd()).isEmpty();
    JsonNode sidecar = repoServerSidecar();
    // The patch pulls the released image this build makes.
    assertThat(sidecar.path("image").asText())
        .isEqualTo("ghcr.io/jobc-dev/jobc:" + release(VERSION));
    long uid = sidecar.path("securityContext").path("runAsUser").asLong();
    assertThat(image.user()).isEqualTo(uid + ":" + uid);
    assertCommon(image);

    // plugin.yaml's generate command, with jobc found on the PATH as argocd-cmp-server finds it.
    Path scratch = tmp.resolve("scratch");
    Path jobc = image.hostScript(LAUNCHER, scratch);
    Map<String, String> env = new HashMap<>(image.env());
    env.put("PATH", jobc.getParent() + ":" + ImageTar.hostPath());
    env.put("ARGOCD_APP_NAMESPACE", "training");
    List<String> generate = pluginCommand("generate");
    assertThat(generate.get(0)).isEqualTo("jobc");
    Path app = ROOT.resolve("examples/kpt");
    ExternalCommand fromImage = ExternalCommand.run(app, env, "", generate);
    ExternalCommand fromJar = jar(app, env, "", generate.subList(1, generate.size()));
    assertThat(fromImage.exitCode()).as(fromImage.toString()).isZero();
    assertThat(YamlStream.ids(fromImage.out())).contains("Job/pi-kpt-launcher");
    assertThat(fromImage.out()).isEqualTo(fromJar.out());

    ExternalCommand version = ExternalCommand.run(tmp, env, "", List.of("jobc", "--version"));
    assertThat(version.exitCode()).as(version.toString()).isZero();
    // The same version and commit lines as the shaded jar it was built with.
    assertThat(version.out())
        .startsWith("jobc " + VERSION + "\n")
        .isEqualTo(jar(tmp, env, "", List.of("--version")).out());
  }

  /**
   * The KRM function image: its entrypoint, run as kpt runs a function container (a ResourceList on
   * stdin, nothing else), turns a golden case's job into the objects the shaded jar makes.
   */
  @Test
  void krmImageIsAKrmFunction() throws Exception {
    ImageTar image = open("jobc.krm.image.tar");
    assertThat(image.repoTags()).containsExactly("ghcr.io/jobc-dev/jobc-krm:" + VERSION);
    assertThat(image.entrypoint()).containsExactly(LAUNCHER, "krm");
    assertThat(image.cmd()).isEmpty();
    // The KRM functions specification: containerized functions run as nobody.
    assertThat(image.user()).isEqualTo("65534:65534");
    assertCommon(image);

    String input = resourceList("golden/cases/mpijob-v2beta1-gpu/input.yaml");
    Map<String, String> env = new HashMap<>(image.env());
    env.put("PATH", ImageTar.hostPath());
    ExternalCommand fromImage =
        ExternalCommand.run(
            tmp, env, input, image.hostCommand(image.entrypoint(), tmp.resolve("scratch")));
    ExternalCommand fromJar = jar(tmp, env, input, List.of("krm"));
    assertThat(fromImage.exitCode()).as(fromImage.toString()).isZero();
    JsonNode out = YamlStream.parse(fromImage.out()).get(0);
    assertThat(out.path("kind").asText()).isEqualTo("ResourceList");
    List<String> kinds = new ArrayList<>();
    out.path("items").forEach(i -> kinds.add(i.path("kind").asText()));
    assertThat(kinds).contains("Job", "StatefulSet", "ConfigMap").doesNotContain("MPIJob");
    assertThat(fromImage.out()).isEqualTo(fromJar.out());
  }

  /**
   * The images table (docs/images.md) tells cluster users which images they pull: the releases of
   * this version.
   */
  @Test
  void docsNameTheReleasedImages() throws IOException {
    String images = Files.readString(ROOT.resolve("docs/images.md"));
    for (String name : List.of("jobc", "jobc-krm", "jobc-sidecar")) {
      assertThat(images).contains("| `ghcr.io/jobc-dev/" + name + ":" + release(VERSION) + "` |");
    }
  }

  /** What both images share: the launcher, the class path, the user and the directories. */
  private static void assertCommon(ImageTar image) throws IOException {
    assertThat(image.user()).as("non-root").doesNotStartWith("0").doesNotStartWith("root");
    assertThat(image.workingDir()).isEqualTo("/tmp");
    assertThat(image.env()).containsEntry("HOME", "/tmp");
    assertThat(image.modes()).containsEntry(LAUNCHER, 0755);
    assertThat(Files.readString(image.file(LAUNCHER)))
        .contains("-cp @" + CLASS_PATH_FILE + " dev.jobc.cli.Main \"$@\"");
    List<String> classPath = image.classPath(CLASS_PATH_FILE);
    assertThat(classPath).contains("/app/classes", "/app/resources");
    assertThat(classPath).allSatisfy(e -> assertThat(image.modes()).containsKey(e));
    // picocli compiled for Java 17 (jobc-picocli), never picocli's own jar (DEVELOPERS.md).
    assertThat(classPath).noneMatch(e -> e.startsWith("/app/libs/picocli-"));
    assertThat(image.classPathEntries(CLASS_PATH_FILE))
        .contains("dev/jobc/cli/Main.class", "dev/jobc/ManifestCompiler.class");
  }

  private static ImageTar open(String property) throws IOException {
    String tar = System.getProperty(property);
    assertThat(tar).as("system property " + property + " (run through Maven)").isNotNull();
    Path root = Files.createTempDirectory("jobc-image-");
    return ImageTar.open(Path.of(tar), root);
  }

  /** {@code 0.1.0} for {@code 0.1.0-SNAPSHOT}: the tag a release of this version pushes. */
  static String release(String version) {
    return version.replaceFirst("-SNAPSHOT$", "");
  }

  /** The shaded jar, as bin/jobc runs it, with the same environment and input. */
  private static ExternalCommand jar(
      Path dir, Map<String, String> env, String stdin, List<String> args) {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-jar");
    command.add(ROOT.resolve("cli/target/jobc.jar").toString());
    command.addAll(args);
    return ExternalCommand.run(dir, env, stdin, command);
  }

  private static List<String> pluginCommand(String name) throws IOException {
    JsonNode plugin =
        YamlStream.parse(Files.readString(ROOT.resolve("deploy/argocd/plugin.yaml"))).get(0);
    List<String> command = new ArrayList<>();
    plugin.path("spec").path(name).path("command").forEach(c -> command.add(c.asText()));
    plugin.path("spec").path(name).path("args").forEach(c -> command.add(c.asText()));
    return command;
  }

  private static JsonNode repoServerSidecar() throws IOException {
    JsonNode patch =
        YamlStream.parse(Files.readString(ROOT.resolve("deploy/argocd/repo-server-patch.yaml")))
            .get(0);
    for (JsonNode c : patch.path("spec").path("template").path("spec").path("containers")) {
      if (c.path("name").asText().equals("jobc")) {
        return c;
      }
    }
    throw new AssertionError("no container jobc in deploy/argocd/repo-server-patch.yaml");
  }

  /** A ResourceList holding the job in {@code input}, as kpt sends it. */
  private static String resourceList(String input) throws IOException {
    ObjectMapper json = new ObjectMapper();
    ObjectNode list = json.createObjectNode();
    list.put("apiVersion", "config.kubernetes.io/v1");
    list.put("kind", "ResourceList");
    ObjectNode item = (ObjectNode) YamlStream.parse(Files.readString(ROOT.resolve(input))).get(0);
    ObjectNode annotations = item.withObject("/metadata/annotations");
    annotations.put("internal.config.kubernetes.io/path", "job.yaml");
    annotations.put("config.kubernetes.io/path", "job.yaml");
    list.putArray("items").add(item);
    return json.writeValueAsString(list);
  }
}
