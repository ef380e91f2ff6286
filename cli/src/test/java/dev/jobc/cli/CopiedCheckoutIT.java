package dev.jobc.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A built checkout copied elsewhere with {@code cp -a} (times kept, so nothing looks stale) runs
 * quietly: its class-data archive, which records the jar's absolute path, is not the copy's, and
 * the copy makes its own instead of printing the JVM's warning on every cold call.
 */
class CopiedCheckoutIT {
  @TempDir Path tmp;

  @Test
  void aCopiedCheckoutPrintsNoClassDataWarning() {
    Path root = ExternalCommand.root();
    // The original's archive first, so that the copy carries one.
    ExternalCommand original =
        ExternalCommand.run(root, Map.of(), "", List.of("bin/jobc", "--version"));
    assertThat(original.exitCode()).as(original.err()).isZero();
    ExternalCommand copy =
        ExternalCommand.sh(
            tmp,
            Map.of("ROOT", root.toString()),
            "mkdir -p copy/cli/target"
                + " && cp -a \"$ROOT/bin\" \"$ROOT/examples\" \"$ROOT/pom.xml\" copy/"
                + " && cp -a \"$ROOT\"/cli/target/jobc.jar \"$ROOT\"/cli/target/jobc-*.* copy/cli/target/");
    assertThat(copy.exitCode()).as(copy.err()).isZero();
    for (int run = 0; run < 2; run++) {
      ExternalCommand copied =
          ExternalCommand.run(tmp, Map.of(), "", List.of("copy/bin/jobc", "--version"));
      assertThat(copied.exitCode()).as(copied.err()).isZero();
      assertThat(copied.err()).as("run " + run).isEmpty();
    }
  }
}
