package dev.jobc.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The warm path ({@code JOBC_WARM=1}) through {@code bin/jobc}, the entry point users and kpt run,
 * against the cold path of the same launcher: every golden case through {@code jobc argocd} (the
 * Argo CD plugin's generate) and {@code jobc krm} (the KRM function) both ways, compared byte for
 * byte (standard output, standard error, exit status); and what the thin client does when the warm
 * path cannot serve. {@code JOBC_WARM=only} makes the client fail instead of falling back, so that
 * a warm run here is known to have been served warm.
 */
class WarmPathIT {
  private static final Path ROOT = ExternalCommand.root();
  private static final String UID = uid();

  /** The client's base directory: the socket directory is {@code tmp/jobc-UID}. */
  @TempDir Path tmp;

  @AfterEach
  void stopServers() {
    // A server started by a test exits after JOBC_WARM_IDLE; don't leave it running until then.
    servers().forEach(ProcessHandle::destroy);
    servers().forEach(p -> p.onExit().join());
  }

  /**
   * Every golden case through {@code jobc argocd} warm, and every fifth through {@code jobc krm}
   * (its standard input travels as frames; the compiler under both is the same). Every sixth case
   * also runs cold and the two are compared byte for byte (standard output, standard error, exit
   * status); the others are compared with the case's expectation, which the golden tests hold for
   * the cold path's compiler: the exit status its kind gives and, for a render, {@code
   * expected.yaml} byte for byte. A cold run is a JVM start, most of this test's time: on CI's two
   * cores, every case cold took five minutes. Two cases run at a time, and one server serves every
   * warm call, so state one case left behind meets the cases after it.
   */
  @Test
  void everyGoldenCaseGivesTheSameBytesWarmAndCold() throws Exception {
    List<Path> cases;
    try (Stream<Path> list = Files.list(ROOT.resolve("golden/cases"))) {
      cases = list.filter(Files::isDirectory).sorted().toList();
    }
    assertThat(cases).hasSizeGreaterThan(100);
    List<CompletableFuture<Void>> runs = new ArrayList<>();
    ExecutorService two = Executors.newFixedThreadPool(2);
    try {
      for (int i = 0; i < cases.size(); i++) {
        Path c = cases.get(i);
        boolean krm = i % 5 == 0;
        boolean cold = i % 6 == 0;
        runs.add(CompletableFuture.runAsync(() -> warmAndCold(c, krm, cold), two));
      }
      CompletableFuture.allOf(runs.toArray(CompletableFuture[]::new)).join();
    } finally {
      two.shutdown();
    }
    assertThat(servers()).as("one server served them all").hasSize(1);
  }

  private void warmAndCold(Path c, boolean krm, boolean cold) {
    try {
      String name = c.getFileName().toString();
      Map<String, String> options = options(c);
      // Argo CD: the application's directory holds the job; the options come as parameters.
      Path app = Files.createDirectories(tmp.resolve("apps").resolve(name));
      Files.copy(c.resolve("input.yaml"), app.resolve("input.yaml"));
      Map<String, String> argocd = new HashMap<>();
      argocd.put("ARGOCD_APP_PARAMETERS", parameters(options));
      List<String> generate = List.of("jobc", "argocd");
      if (cold) {
        assertSameBothWays(name + " (argocd)", app, argocd, "", generate);
      } else {
        ExternalCommand warm = run(app, warmEnv(argocd), "", generate);
        Path expected = c.resolve("expected.yaml");
        if (Files.exists(expected)) {
          assertThat(warm.exitCode()).as("%s (argocd, warm): %s", name, warm).isZero();
          assertThat(warm.out())
              .as("%s (argocd, warm): standard output against expected.yaml", name)
              .isEqualTo(Files.readString(expected));
        } else {
          assertThat(warm.exitCode()).as("%s (argocd, warm): %s", name, warm).isEqualTo(1);
          assertThat(warm.out()).as("%s (argocd, warm): nothing written", name).isEmpty();
        }
      }
      if (krm) {
        // kpt: the job as a ResourceList's items, the options as the function's ConfigMap.
        String list = resourceList(Files.readString(c.resolve("input.yaml")), options);
        if (cold) {
          assertSameBothWays(name + " (krm)", tmp, Map.of(), list, List.of("jobc-krm"));
        } else {
          ExternalCommand warm = run(tmp, warmEnv(Map.of()), list, List.of("jobc-krm"));
          assertThat(warm.exitCode())
              .as("%s (krm, warm): %s", name, warm)
              .isEqualTo(Files.exists(c.resolve("expected.yaml")) ? 0 : 1);
        }
      }
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  @Test
  void concurrentClientsEachGetTheirOwnOutput() {
    List<String> inputs =
        List.of("pi.yaml", "graphsage-dist.yaml", "pytorch-simple.yaml", "tf-dist-mnist.yaml");
    List<CompletableFuture<ExternalCommand>> warm = new ArrayList<>();
    for (String input : inputs) {
      warm.add(
          CompletableFuture.supplyAsync(
              () -> run(ROOT, warm(), "", List.of("jobc", "render", "examples/" + input))));
    }
    for (int i = 0; i < inputs.size(); i++) {
      ExternalCommand cold =
          run(ROOT, Map.of(), "", List.of("jobc", "render", "examples/" + inputs.get(i)));
      assertThat(cold.exitCode()).as(cold.toString()).isZero();
      assertThat(warm.get(i).join()).isEqualTo(cold);
    }
  }

  @Test
  void aDirectoryOthersMayOpenIsNotUsed() throws IOException {
    Path dir = Files.createDirectories(tmp.resolve("jobc-" + UID));
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
    List<String> command = List.of("jobc", "render", "examples/pi.yaml");
    ExternalCommand only = run(ROOT, warm(), "", command);
    assertThat(only.exitCode()).isEqualTo(125);
    assertThat(only.err()).contains("is not a directory of this user's alone");
    Map<String, String> fallback = new HashMap<>(warm());
    fallback.put("JOBC_WARM", "1");
    assertThat(run(ROOT, fallback, "", command)).isEqualTo(run(ROOT, Map.of(), "", command));
    assertThat(servers()).isEmpty();
    try (Stream<Path> files = Files.list(dir)) {
      assertThat(files).isEmpty();
    }
  }

  @Test
  void aSocketLeftByADeadServerIsReplaced() {
    List<String> command = List.of("jobc", "render", "examples/pi.yaml");
    ExternalCommand cold = run(ROOT, Map.of(), "", command);
    assertThat(run(ROOT, warm(), "", command)).isEqualTo(cold);
    List<ProcessHandle> first = servers();
    assertThat(first).hasSize(1);
    // Killed, it cannot remove its socket file: the next client finds it and nobody listening.
    first.get(0).destroyForcibly();
    first.get(0).onExit().join();
    assertThat(run(ROOT, warm(), "", command)).isEqualTo(cold);
    assertThat(servers()).hasSize(1).doesNotContain(first.get(0));
  }

  /**
   * A server that goes away after the client sent its standard input: the client runs the cold path
   * with that same input, so the output is the cold path's.
   */
  @Test
  void aServerThatFailsHalfWayLeavesTheColdPath() throws Exception {
    Path dir = Files.createDirectories(tmp.resolve("jobc-" + UID));
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));
    String input = Files.readString(ROOT.resolve("examples/pi.yaml"));
    CompletableFuture<byte[]> received;
    try (ServerSocketChannel fake = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
      fake.bind(UnixDomainSocketAddress.of(dir.resolve("fake")));
      received =
          CompletableFuture.supplyAsync(
              () -> {
                try (var client = fake.accept();
                    var in =
                        new java.io.DataInputStream(
                            java.nio.channels.Channels.newInputStream(client));
                    var out =
                        new java.io.DataOutputStream(
                            java.nio.channels.Channels.newOutputStream(client))) {
                  WarmFrames.writeFrame(out, WarmFrames.GO, new byte[0], 0, 0);
                  WarmFrames.readRequest(in);
                  WarmFrames.writeFrame(out, WarmFrames.ERR, "half".getBytes(), 0, 4);
                  WarmFrames.writeFrame(out, WarmFrames.STDIN, new byte[0], 0, 0);
                  var stdin = new WarmFrames.FrameInput(in, out);
                  return stdin.readAllBytes(); // then close, with no exit status
                } catch (IOException e) {
                  throw new java.io.UncheckedIOException(e);
                }
              });
      List<String> client = client("fake");
      Map<String, String> env = new HashMap<>();
      env.put("JAVA_HOME", System.getProperty("java.home"));
      ExternalCommand fellBack = ExternalCommand.run(ROOT, env, input, client);
      assertThat(new String(received.join(), java.nio.charset.StandardCharsets.UTF_8))
          .isEqualTo(input);
      ExternalCommand cold = run(ROOT, Map.of(), input, List.of("jobc", "render", "-"));
      assertThat(cold.exitCode()).as(cold.toString()).isZero();
      assertThat(fellBack).isEqualTo(cold);
    }
  }

  /**
   * A server busy with another caller (here one that never takes a connection) is not waited for
   * past JOBC_WARM_WAIT: the caller runs the cold path, or with JOBC_WARM=only says why. Nothing
   * here depends on how long anything takes: the server never answers.
   */
  @Test
  void aBusyServerIsNotWaitedFor() throws Exception {
    Path dir = Files.createDirectories(tmp.resolve("jobc-" + UID));
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));
    String input = Files.readString(ROOT.resolve("examples/pi.yaml"));
    try (ServerSocketChannel busy = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
      busy.bind(UnixDomainSocketAddress.of(dir.resolve("busy")));
      List<String> client = client("busy");
      Map<String, String> env = new HashMap<>();
      env.put("JAVA_HOME", System.getProperty("java.home"));
      env.put("JOBC_WARM_WAIT", "0.2");
      env.put("JOBC_WARM", "only");
      ExternalCommand only = ExternalCommand.run(ROOT, env, input, client);
      assertThat(only.exitCode()).as(only.toString()).isEqualTo(125);
      assertThat(only.err()).contains("the server is busy with another command");
      env.put("JOBC_WARM", "1");
      ExternalCommand fellBack = ExternalCommand.run(ROOT, env, input, client);
      ExternalCommand cold = run(ROOT, Map.of(), input, List.of("jobc", "render", "-"));
      assertThat(cold.exitCode()).as(cold.toString()).isZero();
      assertThat(fellBack).isEqualTo(cold);
    }
  }

  /**
   * A TMPDIR whose socket path is too long for a Unix-domain socket runs the cold path with no
   * warning (JOBC_WARM=only says why); a relative one is served warm.
   */
  @Test
  void anyTmpdirWorksOrFallsBackQuietly() throws IOException {
    List<String> command = List.of("jobc", "render", "examples/pi.yaml");
    ExternalCommand cold = run(ROOT, Map.of(), "", command);
    Path deep = Files.createDirectories(tmp.resolve("d".repeat(60)).resolve("e".repeat(60)));
    Map<String, String> env = new HashMap<>();
    env.put("PATH", ExternalCommand.pathWithBin());
    env.put("JAVA_HOME", System.getProperty("java.home"));
    env.put("TMPDIR", deep.toString());
    env.put("JOBC_WARM", "1");
    assertThat(ExternalCommand.run(ROOT, env, "", command)).isEqualTo(cold);
    env.put("JOBC_WARM", "only");
    ExternalCommand only = ExternalCommand.run(ROOT, env, "", command);
    assertThat(only.exitCode()).isEqualTo(125);
    assertThat(only.err()).contains("longer than a Unix-domain socket's name may be");

    // Relative to the caller's working directory, which the server does not share.
    Path work = Files.createDirectories(tmp.resolve("work"));
    Files.createDirectories(work.resolve("rel"));
    Files.copy(ROOT.resolve("examples/pi.yaml"), work.resolve("pi.yaml"));
    List<String> here = List.of("jobc", "render", "pi.yaml");
    ExternalCommand coldHere = run(work, Map.of(), "", here);
    env.put("TMPDIR", "rel");
    env.put("JOBC_WARM_IDLE", "120");
    ExternalCommand relative = ExternalCommand.run(work, env, "", here);
    assertThat(relative).isEqualTo(coldHere);
    ProcessHandle.allProcesses()
        .filter(
            p ->
                p.info()
                    .arguments()
                    .map(List::of)
                    .map(
                        a ->
                            a.contains("dev.jobc.cli.WarmServer")
                                && a.stream().anyMatch(x -> x.startsWith(work.toString())))
                    .orElse(false))
        .forEach(
            p -> {
              p.destroy();
              p.onExit().join();
            });
  }

  /** A server with nothing to do exits by itself and removes its socket. */
  @Test
  void anIdleServerExits() throws Exception {
    Map<String, String> env = warm();
    env.put("JOBC_WARM_IDLE", "1");
    List<String> command = List.of("jobc", "version");
    assertThat(run(ROOT, env, "", command)).isEqualTo(run(ROOT, Map.of(), "", command));
    // JOBC_WARM=only: the call above was served warm, so a server started. It may have gone idle
    // and exited already (a loaded machine): whichever is still running is waited for.
    List<ProcessHandle> started = servers();
    assertThat(started).hasSizeLessThanOrEqualTo(1);
    started.forEach(p -> p.onExit().join()); // no timeout: the idle time is what ends it
    try (Stream<Path> files = Files.list(tmp.resolve("jobc-" + UID))) {
      assertThat(files.map(f -> f.getFileName().toString()))
          .noneMatch(f -> f.startsWith("bin-") && !f.contains("."));
    }
  }

  private void assertSameBothWays(
      String what, Path dir, Map<String, String> env, String stdin, List<String> command) {
    ExternalCommand cold = run(dir, env, stdin, command);
    ExternalCommand warm = run(dir, warmEnv(env), stdin, command);
    assertThat(warm).as(what).isEqualTo(cold);
  }

  /** {@code env} with the warm path's variables. */
  private Map<String, String> warmEnv(Map<String, String> env) {
    Map<String, String> warmEnv = new HashMap<>(env);
    warmEnv.putAll(warm());
    return warmEnv;
  }

  /**
   * The client run directly against the socket {@code name} below the test's base directory, for
   * {@code render -}: its cold path is bin/jobc, and no server is started ({@code false}).
   */
  private List<String> client(String name) {
    return List.of(
        ROOT.resolve("cli/src/main/jib/usr/local/bin/jobc-warm").toString(),
        tmp.toString(),
        name,
        ROOT.resolve("bin/jobc").toString(),
        ":::",
        "false",
        ":::",
        "render",
        "-");
  }

  /** The environment of a warm run that must be served warm. */
  private Map<String, String> warm() {
    Map<String, String> env = new HashMap<>();
    env.put("JOBC_WARM", "only");
    env.put("JOBC_WARM_IDLE", "120");
    return env;
  }

  /** Runs through bin/ with the test's TMPDIR (the socket's place). */
  private ExternalCommand run(
      Path dir, Map<String, String> env, String stdin, List<String> command) {
    Map<String, String> all = new HashMap<>(env);
    all.put("PATH", ExternalCommand.pathWithBin());
    all.put("TMPDIR", tmp.toString());
    all.put("JAVA_HOME", System.getProperty("java.home"));
    return ExternalCommand.run(dir, all, stdin, command);
  }

  /** The servers this test's runs started: their socket is below its TMPDIR. */
  private List<ProcessHandle> servers() {
    String socketDir = tmp.resolve("jobc-" + UID) + "/";
    return ProcessHandle.allProcesses()
        .filter(
            p ->
                p.info()
                    .arguments()
                    .map(List::of)
                    .map(
                        a ->
                            a.contains("dev.jobc.cli.WarmServer")
                                && a.stream().anyMatch(s -> s.startsWith(socketDir)))
                    .orElse(false))
        .toList();
  }

  private static Map<String, String> options(Path c) throws IOException {
    Map<String, String> options = new java.util.TreeMap<>();
    Path file = c.resolve("options.yaml");
    if (Files.exists(file)) {
      YamlStream.parse(Files.readString(file))
          .get(0)
          .properties()
          .forEach(e -> options.put(e.getKey(), e.getValue().asText()));
    }
    return options;
  }

  private static String parameters(Map<String, String> options) {
    ObjectMapper json = new ObjectMapper();
    var array = json.createArrayNode();
    options.forEach((k, v) -> array.addObject().put("name", k).put("string", v));
    return array.toString();
  }

  /** The input's documents as a ResourceList's items; the raw text when it is no YAML stream. */
  private static String resourceList(String input, Map<String, String> options) {
    ObjectMapper json = new ObjectMapper();
    ObjectNode list = json.createObjectNode();
    list.put("apiVersion", "config.kubernetes.io/v1");
    list.put("kind", "ResourceList");
    ObjectNode config = list.putObject("functionConfig");
    config.put("apiVersion", "v1");
    config.put("kind", "ConfigMap");
    config.putObject("metadata").put("name", "jobc");
    ObjectNode data = config.putObject("data");
    options.forEach(data::put);
    var items = list.putArray("items");
    try {
      int i = 0;
      for (JsonNode doc : YamlStream.parse(input)) {
        if (doc instanceof ObjectNode item) {
          ObjectNode annotations = item.withObject("/metadata/annotations");
          annotations.put("config.kubernetes.io/path", "input.yaml");
          annotations.put("config.kubernetes.io/index", String.valueOf(i++));
        }
        items.add(doc);
      }
    } catch (RuntimeException | AssertionError e) { // YamlStream fails as a test would
      return input;
    }
    return list.toString();
  }

  /** This process's user id, as the launchers name their directory. */
  static String uid() {
    try {
      Process p = new ProcessBuilder("id", "-u").start();
      String out = new String(p.getInputStream().readAllBytes()).trim();
      p.waitFor();
      return out;
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }
}
