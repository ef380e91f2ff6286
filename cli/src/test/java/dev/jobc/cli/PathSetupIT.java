package dev.jobc.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's PATH set-up, as printed, on a fresh account: an empty HOME (with Debian's /etc/skel
 * when there is one, as useradd gives a new user), a clean environment with the system's PATH only,
 * run in the checkout by bash (Debian, Ubuntu) and zsh (macOS's shell). Afterwards {@code jobc} and
 * {@code jobc-krm} run from any directory, in that shell and, as the README says, in later login
 * shells: Debian's ~/.profile puts ~/.local/bin on the PATH once it exists, and on macOS the
 * README's line goes into ~/.zprofile.
 */
class PathSetupIT {
  /** A PATH without ~/.local/bin, as a fresh account's login gets it. */
  private static final String SYSTEM_PATH = "/usr/local/bin:/usr/bin:/bin";

  private static final String RESOURCE_LIST =
      "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems: []\n";

  @TempDir Path tmp;

  @BeforeAll
  static void tools() {
    ExternalCommand.require("bash");
    ExternalCommand.require("zsh");
    ExternalCommand.require("env");
  }

  @Test
  void theSnippetPutsJobcOnThePathInBash() throws IOException {
    String snippet = DocSnippets.get("path-setup");
    Path home = freshHome("bash");
    assertThat(Files.exists(home.resolve(".local"))).isFalse();

    ExternalCommand setUp =
        clean(home, "bash", "--noprofile", "--norc", "-c", snippet + "cd / && " + check());
    assertThat(setUp.exitCode()).as(setUp.toString()).isZero();
    assertThat(setUp.out()).startsWith("jobc ").contains("items: []");

    // A later login shell of the same account.
    ExternalCommand login = clean(home, "bash", "-l", "-c", "cd / && " + check());
    assertThat(login.exitCode()).as(login.toString()).isZero();
    assertThat(login.out()).startsWith("jobc ");
  }

  @Test
  void theSnippetPutsJobcOnThePathInZsh() throws IOException {
    String snippet = DocSnippets.get("path-setup");
    Path home = freshHome("zsh");

    ExternalCommand setUp = clean(home, "zsh", "-f", "-c", snippet + "cd / && " + check());
    assertThat(setUp.exitCode()).as(setUp.toString()).isZero();
    assertThat(setUp.out()).startsWith("jobc ").contains("items: []");

    // macOS: the README's last line in ~/.zprofile, then a later login shell.
    List<String> lines = snippet.lines().toList();
    Files.writeString(home.resolve(".zprofile"), lines.get(lines.size() - 1) + "\n");
    ExternalCommand login = clean(home, "zsh", "-l", "-c", "cd / && " + check());
    assertThat(login.exitCode()).as(login.toString()).isZero();
    assertThat(login.out()).startsWith("jobc ");
  }

  /** jobc and jobc-krm found on the PATH (krm with an empty ResourceList). */
  private static String check() {
    return "jobc version && printf '" + RESOURCE_LIST.replace("\n", "\\n") + "' | jobc-krm\n";
  }

  /** An empty HOME with the files a new Debian account starts with. */
  private Path freshHome(String name) throws IOException {
    Path home = tmp.resolve(name + "-home");
    Files.createDirectories(home);
    Path skel = Path.of("/etc/skel");
    if (Files.isDirectory(skel)) {
      try (Stream<Path> files = Files.list(skel)) {
        for (Path f : files.filter(Files::isRegularFile).toList()) {
          Files.copy(f, home.resolve(f.getFileName()));
        }
      }
    }
    return home;
  }

  /**
   * {@code command} in the checkout with nothing of this JVM's environment: HOME, the system PATH
   * and a terminal type only, as a new account's shell has.
   */
  private ExternalCommand clean(Path home, String... command) {
    List<String> args =
        new ArrayList<>(List.of("env", "-i", "HOME=" + home, "PATH=" + SYSTEM_PATH, "TERM=dumb"));
    args.addAll(List.of(command));
    return ExternalCommand.run(ExternalCommand.root(), Map.of(), "", args);
  }
}
