package dev.jobc.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code bin/jobc} as a new user meets it: what it says when a prerequisite is missing. */
class LauncherIT {
  @TempDir Path tmp;

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
