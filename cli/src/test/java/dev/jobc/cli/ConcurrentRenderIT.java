package dev.jobc.cli;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Several jobc processes rendering into one directory at once, as parallel CI jobs or a hook and an
 * editor plug-in do: none refuses or fails, and the directory ends up holding one render whole.
 */
class ConcurrentRenderIT {
  private static final int PROCESSES = 4;
  private static final int ROUNDS = 3;

  @TempDir Path tmp;

  @Test
  void concurrentRendersIntoOneDirectoryAllSucceedAndOneWinsWhole()
      throws IOException, InterruptedException {
    // Pass-through objects, which render fast; other names in each set, so a mix would show.
    for (String set : List.of("first", "second")) {
      Files.createDirectories(tmp.resolve(set));
      StringBuilder objects = new StringBuilder();
      for (int i = 0; i < 50; i++) {
        objects.append(
            "---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: "
                + set
                + "-"
                + i
                + "\n  namespace: default\ndata:\n  k: v\n");
      }
      Files.writeString(tmp.resolve(set + "/objects.yaml"), objects);
    }

    for (int round = 0; round < ROUNDS; round++) {
      List<Process> renders = new ArrayList<>();
      for (int p = 0; p < PROCESSES; p++) {
        renders.add(jobc("render", p % 2 == 0 ? "first" : "second", "-o", "out").start());
      }
      for (Process render : renders) {
        // A bound so that a deadlock fails the build instead of stalling it; not a timing check.
        assertThat(render.waitFor(5, TimeUnit.MINUTES)).isTrue();
        String err = new String(render.getErrorStream().readAllBytes(), UTF_8);
        assertThat(render.exitValue()).as(err).isZero();
        assertThat(err).isEmpty();
      }
      int current = 0;
      for (String input : List.of("first", "second")) {
        current += Run.in(tmp, "render", input, "--check", "out").exitCode() == 0 ? 1 : 0;
      }
      assertThat(current).as("out holds exactly one of the renders").isOne();
      assertThat(listing(tmp)).containsExactly("first", "out", "second");
    }
  }

  /** The shaded jar run directly: bin/jobc would race to build its class-data archive. */
  private ProcessBuilder jobc(String... args) {
    List<String> command = new ArrayList<>();
    command.add(ProcessHandle.current().info().command().orElse("java"));
    command.add("-cp");
    command.add(ExternalCommand.root().resolve("cli/target/jobc.jar").toString());
    command.add("dev.jobc.cli.Main");
    command.addAll(List.of(args));
    return new ProcessBuilder(command)
        .directory(tmp.toFile())
        .redirectOutput(ProcessBuilder.Redirect.DISCARD);
  }

  private static List<String> listing(Path dir) throws IOException {
    try (Stream<Path> entries = Files.list(dir)) {
      return entries.map(p -> p.getFileName().toString()).sorted().collect(Collectors.toList());
    }
  }
}
