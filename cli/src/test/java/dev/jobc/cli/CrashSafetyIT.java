package dev.jobc.cli;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bin/jobc render -o DIR} killed with SIGKILL at each step of its swap in turn: DIR is
 * always there, {@code --check} finds the previous render in it or (once the swap's journal is
 * committed) refuses it until a render finishes the swap, and the next render finishes or undoes
 * what was left. The process waits at the chosen step (system property {@code jobc.test.pauseAt},
 * read by the io code), says so on stderr, and is killed there: no sleeps, no timing. Every step
 * once (a seeded random choice of 25 kills took four JVM starts each for steps it had mostly met
 * before).
 */
class CrashSafetyIT {
  private static final Path JOBC = ExternalCommand.root().resolve("bin/jobc");
  @TempDir Path tmp;

  /** Pass-through ConfigMaps {@code name-i}; the sets share some names and differ in others. */
  private void inputs(String set, List<String> names, String value) throws IOException {
    Files.createDirectories(tmp.resolve(set));
    StringBuilder objects = new StringBuilder();
    for (String n : names) {
      objects.append(
          "---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: "
              + n
              + "\n  namespace: default\ndata:\n  k: "
              + value
              + "\n");
    }
    Files.writeString(tmp.resolve(set + "/objects.yaml"), objects, UTF_8);
  }

  @Test
  void aRenderKilledAtAnyStepLeavesTheDirectoryWhole() throws Exception {
    inputs("old", List.of("a", "b", "c"), "old");
    inputs("new", List.of("a", "c", "d"), "new");
    inputs("next", List.of("e"), "next");
    // The steps of a swap from old to new: a, d and the record are staged and moved, b deleted.
    List<String> steps =
        List.of(
            "locked",
            "stage:configmap-a.yaml",
            "stage:configmap-d.yaml",
            "stage:.jobc-files",
            "journal",
            "move:configmap-a.yaml",
            "move:configmap-d.yaml",
            "move:.jobc-files",
            "delete:configmap-b.yaml",
            "cleanup");
    // One run first: bin/jobc builds its class-data archive once, not in the middle of a kill.
    assertThat(run(List.of("render", "old", "-o", "out"), Map.of()).exitCode()).isZero();

    for (String step : steps) {
      String what = "killed at \"" + step + "\"";
      ExternalCommand reset = run(List.of("render", "old", "-o", "out"), Map.of());
      assertThat(reset.exitCode()).as(what + ": " + reset).isZero();

      killAt(step, what);

      assertThat(tmp.resolve("out")).as(what).isDirectory();
      boolean old = run(List.of("render", "old", "--check", "out"), Map.of()).exitCode() == 0;
      boolean fresh = run(List.of("render", "new", "--check", "out"), Map.of()).exitCode() == 0;
      // Before the commit out holds the old render; after it, a mix until a render finishes the
      // journal, which --check accepts as neither.
      assertThat(old).as(what).isEqualTo(steps.indexOf(step) <= steps.indexOf("journal"));
      assertThat(fresh).as(what + ": a stopped swap is never current").isFalse();

      ExternalCommand next = run(List.of("render", "next", "-o", "out"), Map.of());
      assertThat(next.exitCode()).as(what + ": " + next).isZero();
      assertThat(listing(tmp.resolve("out")))
          .as(what)
          .containsExactly(".jobc-files", "configmap-e.yaml");
      assertThat(listing(tmp)).as(what).containsExactly("new", "next", "old", "out");
    }
  }

  /** Starts the render of "new" into out, waits until it pauses at {@code step}, SIGKILLs it. */
  private void killAt(String step, String what) throws Exception {
    List<String> command = new ArrayList<>(List.of(JOBC.toString(), "render", "new", "-o", "out"));
    ProcessBuilder builder =
        new ProcessBuilder(command)
            .directory(tmp.toFile())
            .redirectOutput(ProcessBuilder.Redirect.DISCARD);
    builder.environment().put("JAVA_TOOL_OPTIONS", "-Djobc.test.pauseAt=" + step);
    Process render = builder.start();
    StringBuilder said = new StringBuilder();
    try (BufferedReader err =
        new BufferedReader(new InputStreamReader(render.getErrorStream(), UTF_8))) {
      for (String line = err.readLine(); line != null; line = err.readLine()) {
        said.append(line).append('\n');
        if (line.equals("jobc: paused at " + step)) {
          render.destroyForcibly(); // SIGKILL on Unix
          break;
        }
      }
    }
    // A bound so that a hung render fails the build instead of stalling it; not a timing check.
    assertThat(render.waitFor(5, TimeUnit.MINUTES)).as(what).isTrue();
    assertThat(said.toString()).as(what).contains("jobc: paused at " + step);
    assertThat(render.exitValue()).as(what + ": killed").isEqualTo(137);
  }

  private ExternalCommand run(List<String> args, Map<String, String> env) {
    List<String> command = new ArrayList<>();
    command.add(JOBC.toString());
    command.addAll(args);
    return ExternalCommand.run(tmp, new HashMap<>(env), "", command);
  }

  private static List<String> listing(Path dir) throws IOException {
    try (Stream<Path> entries = Files.list(dir)) {
      return entries.map(p -> p.getFileName().toString()).sorted().collect(Collectors.toList());
    }
  }
}
