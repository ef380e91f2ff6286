package dev.jobc.cli;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** A real process run to completion, for integration tests against real tools. */
record ExternalCommand(int exitCode, String out, String err) {
  /** The repository root (failsafe passes it in). */
  static Path root() {
    String root = System.getProperty("jobc.root");
    if (root == null) {
      throw new IllegalStateException("system property jobc.root is not set (run through Maven)");
    }
    return Path.of(root).toAbsolutePath().normalize();
  }

  /** {@code PATH} with the repository's {@code bin/} first, so {@code jobc} is the checkout's. */
  static String pathWithBin() {
    return root().resolve("bin") + ":" + System.getenv().getOrDefault("PATH", "/usr/bin:/bin");
  }

  /**
   * Fails with a clear message when {@code tool} is not on the PATH: these tests never skip, and
   * .ci/run installs or checks every tool they need.
   */
  static void require(String tool) {
    for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
      if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, tool))) {
        return;
      }
    }
    throw new AssertionError(
        tool
            + " is not on the PATH; this integration test runs the real "
            + tool
            + " (see .ci/run)");
  }

  /** Runs {@code command} in {@code dir} with extra {@code env}, feeding {@code stdin}. */
  static ExternalCommand run(
      Path dir, Map<String, String> env, String stdin, List<String> command) {
    List<String> resolved = new java.util.ArrayList<>(command);
    // ProcessBuilder looks programs up on this JVM's PATH; the child's PATH is the one meant.
    String path = env.get("PATH");
    if (path != null && !command.get(0).contains("/")) {
      for (String d : path.split(":")) {
        if (!d.isEmpty() && Files.isExecutable(Path.of(d, command.get(0)))) {
          resolved.set(0, Path.of(d, command.get(0)).toString());
          break;
        }
      }
    }
    ProcessBuilder builder = new ProcessBuilder(resolved).directory(dir.toFile());
    builder.environment().putAll(env);
    try {
      Process p = builder.start();
      CompletableFuture<String> out = CompletableFuture.supplyAsync(() -> read(p.getInputStream()));
      CompletableFuture<String> err = CompletableFuture.supplyAsync(() -> read(p.getErrorStream()));
      try (var in = p.getOutputStream()) {
        in.write(stdin.getBytes(UTF_8));
      } catch (IOException e) {
        // The process stopped reading (an input over jobc's limit ends the read): it says why.
      }
      // A bound so that a hung tool fails the build instead of stalling CI; not a timing check.
      if (!p.waitFor(5, TimeUnit.MINUTES)) {
        p.destroyForcibly();
        throw new AssertionError("did not finish in 5 minutes: " + command);
      }
      return new ExternalCommand(p.exitValue(), out.join(), err.join());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  /** Runs a shell snippet with {@code sh -c}. */
  static ExternalCommand sh(Path dir, Map<String, String> env, String script) {
    return run(dir, env, "", List.of("sh", "-c", script));
  }

  private static String read(InputStream in) {
    try (in) {
      return new String(in.readAllBytes(), UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public String toString() {
    return "exit " + exitCode + "\n--- stdout\n" + out + "\n--- stderr\n" + err;
  }
}
