package dev.jobc.sidecar;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jobc.k8s.SidecarContainer;
import dev.jobc.sidecar.client.ApiConnection;
import io.fabric8.kubernetes.api.model.PodBuilder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An answer larger than the smallest rendered heap can hold, to a sidecar run as its own process
 * with the JVM options jobc renders ({@code -Xmx16m}, {@code -XX:+ExitOnOutOfMemoryError}): a list
 * page of 8 MiB (one pod with an 8 MiB annotation) is a one-line error and a retry until the
 * command's own timeout, not an OutOfMemoryError (exit 3) and a restart loop.
 */
class BigAnswerProcessTest {
  @TempDir Path dir;

  @Test
  void anEightMibListPageIsNotACrash() throws Exception {
    try (ApiStandIn api =
        ApiStandIn.withPodTable().withoutRole("one wait's reads, not the rendered Role's")) {
      api.create(
          new PodBuilder(ApiProtocolTest.pod("huge"))
              .editMetadata()
              .addToAnnotations("big", "x".repeat(8 << 20))
              .endMetadata()
              .build());
      Path err = dir.resolve("stderr");
      ProcessBuilder pb =
          new ProcessBuilder(
                  Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                  "-cp",
                  System.getProperty("java.class.path"),
                  Main.class.getName(),
                  "wait",
                  "--namespace",
                  ApiStandIn.NS,
                  "--pod",
                  "huge",
                  "--selector",
                  "app=protocol",
                  "--timeout",
                  "10s")
              .redirectError(err.toFile())
              .redirectOutput(ProcessBuilder.Redirect.DISCARD);
      pb.environment()
          .put(
              "JAVA_TOOL_OPTIONS",
              SidecarContainer.javaToolOptions(dev.jobc.options.RenderDefaults.CURRENT, 1));
      pb.environment().put("KUBERNETES_MASTER", api.url());
      pb.environment().put("KUBERNETES_AUTH_TOKEN", "stand-in");
      Process p = pb.start();
      try {
        // The wait ends by its own --timeout; this bound only keeps a hung process from hanging
        // the build.
        assertThat(p.waitFor(Eventually.DEADLINE.toSeconds() * 6, TimeUnit.SECONDS)).isTrue();
      } finally {
        p.destroyForcibly();
      }
      List<String> log = Files.readAllLines(err);
      assertThat(p.exitValue()).as("exit code; stderr: %s", log).isEqualTo(1);
      assertThat(log)
          .anySatisfy(l -> assertThat(l).contains("more than " + ApiConnection.MAX_BODY + " bytes"))
          .noneSatisfy(l -> assertThat(l).contains("java.lang.OutOfMemoryError"))
          .anySatisfy(l -> assertThat(l).contains("timed out"));
      assertThat(api.allLists.get()).as("the list was retried").isGreaterThanOrEqualTo(2);
    }
  }
}
