package dev.jobc.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jobc.testkit.ImageTar;
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
    env.put("TMPDIR", tmp.toString());
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
   * The plugin sidecar as deploy/argocd runs it, with the patch's environment (the warm path):
   * generate through the image's launcher and its client {@code jobc-warm}, served by the
   * long-lived jobc process ({@code JOBC_WARM=only} fails rather than fall back), gives the cold
   * path's bytes; the server then stops when told to by its idle time.
   */
  @Test
  void cliImageServesGenerateWarmAsDeployed() throws Exception {
    ImageTar image = open("jobc.image.tar");
    Path scratch = tmp.resolve("scratch");
    Path jobc = image.hostScript(LAUNCHER, scratch);
    Path client = jobc.resolveSibling("jobc-warm");
    Files.copy(image.file("/usr/local/bin/jobc-warm"), client);
    assertThat(image.modes()).containsEntry("/usr/local/bin/jobc-warm", 0755);
    client.toFile().setExecutable(true);
    Map<String, String> env = new HashMap<>(image.env());
    env.put("PATH", jobc.getParent() + ":" + ImageTar.hostPath());
    env.put("ARGOCD_APP_NAMESPACE", "training");
    env.put("TMPDIR", tmp.toString());
    Map<String, String> deployed = new HashMap<>(env);
    repoServerSidecar()
        .path("env")
        .forEach(e -> deployed.put(e.path("name").asText(), e.path("value").asText()));
    assertThat(deployed).containsEntry("JOBC_WARM", "1").doesNotContainKey("JAVA_TOOL_OPTIONS");
    deployed.put("JOBC_WARM", "only");
    deployed.put("JOBC_WARM_IDLE", "1");
    List<String> generate = pluginCommand("generate");
    Path app = ROOT.resolve("examples/kpt");
    ExternalCommand cold = ExternalCommand.run(app, env, "", generate);
    assertThat(cold.exitCode()).as(cold.toString()).isZero();
    assertThat(ExternalCommand.run(app, deployed, "", generate)).isEqualTo(cold);
    assertThat(ExternalCommand.run(app, deployed, "", generate)).isEqualTo(cold);
    // The server idles out (JOBC_WARM_IDLE=1) and removes its socket: wait for that, no timeout.
    List<ProcessHandle> servers =
        ProcessHandle.allProcesses()
            .filter(
                p ->
                    p.info()
                        .arguments()
                        .map(a -> String.join(" ", a))
                        .filter(
                            a ->
                                a.contains("dev.jobc.cli.WarmServer") && a.contains(tmp.toString()))
                        .isPresent())
            .toList();
    assertThat(servers).hasSize(1);
    servers.get(0).onExit().join();
    try (var files = Files.list(tmp.resolve("jobc-" + WarmPathIT.uid()))) {
      assertThat(files.map(f -> f.getFileName().toString())).doesNotContain("image");
    }
  }

  /**
   * The first cold run in a container leaves a class-data archive in the user's own directory of
   * TMPDIR; later runs map it, with the same output and nothing more on standard error.
   */
  @Test
  void cliImageKeepsAClassDataArchive() throws Exception {
    ImageTar image = open("jobc.image.tar");
    Path scratch = tmp.resolve("scratch");
    Path jobc = image.hostScript(LAUNCHER, scratch);
    Map<String, String> env = new HashMap<>(image.env());
    env.put("PATH", jobc.getParent() + ":" + ImageTar.hostPath());
    env.put("TMPDIR", tmp.toString());
    List<String> render = List.of("jobc", "render", ROOT.resolve("examples/pi.yaml").toString());
    ExternalCommand first = ExternalCommand.run(tmp, env, "", render);
    assertThat(first.exitCode()).as(first.toString()).isZero();
    assertThat(first.err()).isEmpty();
    Path dir = tmp.resolve("jobc-" + WarmPathIT.uid());
    assertThat(Files.getPosixFilePermissions(dir))
        .isEqualTo(java.nio.file.attribute.PosixFilePermissions.fromString("rwx------"));
    List<Path> archives;
    try (var files = Files.list(dir)) {
      archives = files.toList();
    }
    assertThat(archives).singleElement().satisfies(a -> assertThat(a.toString()).endsWith(".jsa"));
    ExternalCommand second = ExternalCommand.run(tmp, env, "", render);
    assertThat(second).isEqualTo(first);
    assertThat(jar(tmp, env, "", render.subList(1, render.size())).out()).isEqualTo(first.out());
    // With -Xshare:on the JVM fails unless it maps every archive it is given: this one maps, and
    // the launcher passes it (the same file made unreadable as an archive fails the run).
    env.put("JAVA_TOOL_OPTIONS", "-Xshare:on");
    ExternalCommand mapped = ExternalCommand.run(tmp, env, "", render);
    assertThat(mapped.exitCode()).as(mapped.toString()).isZero();
    assertThat(mapped.out()).isEqualTo(first.out());
    Files.delete(archives.get(0));
    Files.writeString(archives.get(0), "not an archive");
    ExternalCommand broken = ExternalCommand.run(tmp, env, "", render);
    assertThat(broken.exitCode()).as(broken.toString()).isNotZero();
    assertThat(broken.err()).contains("shared archive");
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
    for (String name : List.of("jobc", "jobc-krm")) {
      assertThat(images).contains("| `ghcr.io/jobc-dev/" + name + ":" + release(VERSION) + "` |");
    }
    // The sidecar is tagged with its own version, which moves only when the sidecar changes.
    String sidecar = System.getProperty("jobc.sidecar.version");
    assertThat(sidecar).as("system property jobc.sidecar.version (run through Maven)").isNotNull();
    assertThat(images).contains("| `ghcr.io/jobc-dev/jobc-sidecar:" + sidecar + "` |");
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
    // Jars only (Jib's packaged mode): a class-data archive takes no directories.
    assertThat(classPath).anyMatch(e -> e.matches("/app/classpath/jobc-cli-.*\\.jar"));
    assertThat(classPath).allMatch(e -> e.endsWith(".jar"));
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
