package dev.jobc.cli;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bin/jobc} against what the file system and the locale of real machines bring: a C locale
 * (CI containers) with file and object names outside ASCII, an output directory that is a mount
 * point (a volume), and the caller's working directory as the output directory.
 */
class FileSystemIT {
  private static final Path JOBC = ExternalCommand.root().resolve("bin/jobc");

  @TempDir Path tmp;

  private static String configMap(String name) {
    return "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: "
        + name
        + "\n  namespace: default\ndata:\n  k: v\n";
  }

  @Test
  void namesOutsideAsciiRenderUnderTheCLocale() throws IOException {
    Files.createDirectories(tmp.resolve("jobs"));
    Files.writeString(tmp.resolve("jobs/caf\u00e9.yaml"), configMap("caf\u00e9"), UTF_8);
    Map<String, String> c = Map.of("LC_ALL", "C", "LANG", "C");
    ExternalCommand stdout =
        ExternalCommand.run(tmp, c, "", List.of(JOBC.toString(), "render", "jobs"));
    assertThat(stdout.exitCode()).as(stdout.toString()).isZero();
    assertThat(stdout.out()).contains("name: caf\u00e9\n");
    ExternalCommand write =
        ExternalCommand.run(tmp, c, "", List.of(JOBC.toString(), "render", "jobs", "-o", "out"));
    assertThat(write.exitCode()).as(write.toString()).isZero();
    assertThat(listing(tmp.resolve("out")))
        .containsExactly(".jobc-files", "configmap-caf\u00e9.yaml");
    ExternalCommand check =
        ExternalCommand.run(
            tmp, c, "", List.of(JOBC.toString(), "render", "jobs", "--check", "out"));
    assertThat(check.exitCode()).as(check.toString()).isZero();
  }

  @Test
  void aMountPointIsAnOutputDirectory() throws IOException {
    ExternalCommand.require("unshare");
    Files.writeString(tmp.resolve("a.yaml"), configMap("a"), UTF_8);
    Files.writeString(tmp.resolve("b.yaml"), configMap("b"), UTF_8);
    Files.createDirectories(tmp.resolve("out"));
    // A mount namespace of its own (a user namespace too where this runs unprivileged), with a
    // tmpfs mounted on out: a mount point cannot be renamed, so a swap by renaming fails there.
    String script =
        "set -e\n"
            + "mount -t tmpfs jobc-test out\n"
            + "\"$1\" render a.yaml -o out\n"
            + "\"$1\" render b.yaml -o out\n"
            + "\"$1\" render b.yaml --check out\n"
            + "ls -A out\n";
    List<String> unshare =
        "root".equals(System.getProperty("user.name"))
            ? List.of("unshare", "-m")
            : List.of("unshare", "-Urm");
    List<String> command = new java.util.ArrayList<>(unshare);
    command.addAll(List.of("sh", "-c", script, "sh", JOBC.toString()));
    ExternalCommand run = ExternalCommand.run(tmp, Map.of(), "", command);
    assertThat(run.exitCode()).as(run.toString()).isZero();
    assertThat(run.out()).isEqualTo(".jobc-files\nconfigmap-b.yaml\n");
  }

  private static List<String> listing(Path dir) throws IOException {
    try (Stream<Path> entries = Files.list(dir)) {
      return entries.map(p -> p.getFileName().toString()).sorted().collect(Collectors.toList());
    }
  }
}
