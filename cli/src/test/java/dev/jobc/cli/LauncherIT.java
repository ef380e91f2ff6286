package dev.jobc.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bin/jobc} as a new user meets it: what it says when a prerequisite is missing, its first
 * build, and the version it reports.
 */
class LauncherIT {
  @TempDir Path tmp;

  @Test
  void versionNamesTheCommitOfTheCheckout() {
    // As the build asks git: about this checkout, never a repository around it.
    Path root = ExternalCommand.root();
    ExternalCommand head =
        ExternalCommand.run(
            root,
            Map.of("GIT_CEILING_DIRECTORIES", root.getParent().toString()),
            "",
            List.of("git", "rev-parse", "--verify", "HEAD"));
    // Sources without git history (a source archive) build a jar that says so.
    String commit =
        head.exitCode() == 0
            ? head.out().strip() + "( \\(built with uncommitted changes\\))?"
            : "unknown \\(not built from a git checkout\\)";
    ExternalCommand version = jobc(tmp, "version");
    assertThat(version.exitCode()).as(version.toString()).isZero();
    assertThat(version.out())
        .matches("jobc \\d+\\.\\d+\\.\\d+(-SNAPSHOT)?\ncommit: " + commit + "\n");
    assertThat(jobc(tmp, "--version").out()).isEqualTo(version.out());
  }

  /**
   * The first run in a copy of the sources without git (as from a source archive) builds the jar:
   * it says so, Maven's output is plain text on stderr, and the version admits the commit is not
   * known.
   */
  @Test
  void firstBuildOutsideGitIsPlainAndItsCommitUnknown() throws IOException {
    Path copy = tmp.resolve("jobc-src");
    ExternalCommand files =
        ExternalCommand.run(
            ExternalCommand.root(),
            Map.of(),
            "",
            List.of("git", "ls-files", "--cached", "--others", "--exclude-standard"));
    assertThat(files.exitCode()).as(files.toString()).isZero();
    for (String file : files.out().split("\n")) {
      Path from = ExternalCommand.root().resolve(file);
      // bin/jobc-krm stays a link; a file deleted but not yet committed is skipped.
      if (Files.exists(from, LinkOption.NOFOLLOW_LINKS)) {
        Path to = copy.resolve(file);
        Files.createDirectories(to.getParent());
        Files.copy(from, to, LinkOption.NOFOLLOW_LINKS, StandardCopyOption.COPY_ATTRIBUTES);
      }
    }
    ExternalCommand run =
        ExternalCommand.run(
            tmp,
            Map.of("PATH", System.getenv().getOrDefault("PATH", "/usr/bin:/bin")),
            "",
            List.of(copy.resolve("bin/jobc").toString(), "version"));
    assertThat(run.exitCode()).as(run.toString()).isZero();
    assertThat(run.err()).startsWith("jobc: building ").doesNotContain("\u001b");
    assertThat(run.out())
        .endsWith("\ncommit: unknown (not built from a git checkout)\n")
        .doesNotContain("\u001b");
  }

  private static ExternalCommand jobc(Path dir, String... args) {
    List<String> command = new java.util.ArrayList<>(List.of("jobc"));
    command.addAll(List.of(args));
    return ExternalCommand.run(dir, Map.of("PATH", ExternalCommand.pathWithBin()), "", command);
  }

  @Test
  void aMissingJavaIsNamedWithWhatToInstall() {
    ExternalCommand run =
        ExternalCommand.run(
            tmp,
            Map.of(
                "PATH",
                ExternalCommand.pathWithBin(),
                "JAVA_HOME",
                tmp.resolve("no-jdk").toString()),
            "",
            List.of("jobc", "--version"));
    assertThat(run.exitCode()).as(run.toString()).isEqualTo(2);
    assertThat(run.out()).isEmpty();
    assertThat(run.err())
        .startsWith("jobc: error: no Java found (")
        .contains("jobc needs a JDK 17 or later")
        .doesNotContain("\u001b");
  }
}
