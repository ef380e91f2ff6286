package dev.jobc.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jobc.model.Budget;
import dev.jobc.testkit.ImageTar;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every launcher starts jobc's JVM with its memory ceiling ({@link Budget#HEAP_MIB}), from which
 * every input limit is derived: {@code bin/jobc}, {@code bin/jobc-krm}, and the images' {@code
 * jobc} (the Argo CD plugin, and the KRM function's entrypoint). Each is run as a process and the
 * JVM it starts says its own maximum heap ({@code -XX:+PrintCommandLineFlags}).
 */
class HeapCeilingIT {
  private static final Path ROOT = ExternalCommand.root();
  private static final String CEILING = "-XX:MaxHeapSize=" + Budget.HEAP_MIB * 1024L * 1024;

  @TempDir Path tmp;

  private static Map<String, String> env() {
    Map<String, String> env = new HashMap<>();
    env.put("JAVA_TOOL_OPTIONS", "-XX:+PrintCommandLineFlags");
    env.put("JOBC_CDS", "0");
    return env;
  }

  /** The flags of the last JVM the command started (a rebuild's Maven starts one before it). */
  private static String flags(ExternalCommand run) {
    String found = "";
    for (String line : (run.out() + "\n" + run.err()).split("\n")) {
      if (line.contains("-XX:MaxHeapSize=")) {
        found = line;
      }
    }
    return found;
  }

  @Test
  void theCheckoutsLaunchers() {
    for (String launcher : List.of("bin/jobc", "bin/jobc-krm")) {
      ExternalCommand run =
          ExternalCommand.run(
              tmp, env(), "", List.of(ROOT.resolve(launcher).toString(), "--version"));
      assertThat(flags(run)).as(launcher + ": " + run).contains(CEILING + " ");
    }
  }

  @Test
  void theImagesLauncher() throws Exception {
    for (String property : List.of("jobc.image.tar", "jobc.krm.image.tar")) {
      String tar = System.getProperty(property);
      assertThat(tar).as("system property " + property + " (run through Maven)").isNotNull();
      ImageTar image = ImageTar.open(Path.of(tar), Files.createTempDirectory(tmp, "image-"));
      Path jobc = image.hostScript("/usr/local/bin/jobc", tmp.resolve("scratch-" + property));
      Map<String, String> env = new HashMap<>(image.env());
      env.putAll(env());
      env.put("PATH", jobc.getParent() + ":" + ImageTar.hostPath());
      ExternalCommand run = ExternalCommand.run(tmp, env, "", List.of("jobc", "--version"));
      assertThat(flags(run)).as(property + ": " + run).contains(CEILING + " ");
    }
  }
}
