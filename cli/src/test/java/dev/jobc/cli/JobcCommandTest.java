package dev.jobc.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class JobcCommandTest {
  @TempDir Path dir;

  @Test
  void versionComesFromTheFilteredResource() {
    Run run = Run.in(dir, "--version");
    assertThat(run.exitCode()).isZero();
    assertThat(run.out())
        .matches(
            "jobc \\d+\\.\\d+\\.\\d+(-SNAPSHOT)?\\R"
                + "commit: ([0-9a-f]{40}( \\(built with uncommitted changes\\))?"
                + "|unknown \\(not built from a git checkout\\))\\R");
    assertThat(run.err()).isEmpty();
    Run version = Run.in(dir, "version");
    assertThat(version.exitCode()).isZero();
    assertThat(version.out()).isEqualTo(run.out());
  }

  @Test
  void helpListsSubcommandsAndExitCodes() {
    Run run = Run.in(dir, "--help");
    assertThat(run.exitCode()).isZero();
    assertThat(run.out())
        .contains("Usage: jobc", "render ", "schema ", "Exit codes:")
        .containsPattern("render +Compiles job specs");
  }

  @Test
  void subcommandHelpDocumentsOptionsAndExitCodes() {
    Run run = Run.in(dir, "render", "--help");
    assertThat(run.exitCode()).isZero();
    assertThat(run.out())
        .contains("--output=DIR", "--check=DIR", "--namespace=NS", "--cluster-domain=DOMAIN")
        .contains("--kubectl-image=IMAGE", "Exit codes:", "drift");
    assertThat(Run.in(dir, "schema", "--help").out())
        .contains("API_VERSION", "KIND", "Exit codes:");
  }

  @Test
  void aUsageErrorIsTwoLinesNotTheWholeHelp() {
    Run run = Run.in(dir, "render");
    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.out()).isEmpty();
    assertThat(run.err())
        .isEqualTo(
            "jobc: error: no input: give a file, a directory or - (stdin)\n"
                + "Run 'jobc render --help' for usage.\n");
  }

  @Test
  void outputFormatWordsAreRefusedWithAHint() {
    for (String format : List.of("yaml", "json")) {
      Run run = Run.in(dir, "render", "-", "-o", format);
      assertThat(run.exitCode()).isEqualTo(2);
      assertThat(run.err())
          .startsWith("jobc: error: -o " + format + ": -o takes a directory, not an output format")
          .contains("-o ./" + format);
      assertThat(dir.resolve(format)).doesNotExist();
    }
  }

  @Test
  void completionScriptsCoverEveryCommandAndFlag() throws Exception {
    Run bash = Run.in(dir, "completion", "bash");
    assertThat(bash.exitCode()).as(bash.err()).isZero();
    assertThat(bash.out()).contains("render", "schema", "--cluster-domain", "--namespace");
    // The script parses in the shell it is for.
    Path script = dir.resolve("jobc-completion.bash");
    java.nio.file.Files.writeString(script, bash.out());
    Process check =
        new ProcessBuilder("bash", "-n", script.toString()).redirectErrorStream(true).start();
    String said = new String(check.getInputStream().readAllBytes());
    assertThat(check.waitFor()).as(said).isZero();

    Run zsh = Run.in(dir, "completion", "zsh");
    assertThat(zsh.out()).startsWith("#compdef jobc\n").contains("_jobc_render");
    Path zshScript = dir.resolve("jobc-completion.zsh");
    java.nio.file.Files.writeString(zshScript, zsh.out());
    Process zshCheck =
        new ProcessBuilder("zsh", "-n", zshScript.toString()).redirectErrorStream(true).start();
    String zshSaid = new String(zshCheck.getInputStream().readAllBytes());
    assertThat(zshCheck.waitFor()).as(zshSaid).isZero();
    Run fish = Run.in(dir, "completion", "fish");
    assertThat(fish.exitCode()).isEqualTo(2);
    assertThat(fish.err()).startsWith("jobc: error: SHELL must be bash or zsh, not \"fish\"");
  }

  @Test
  void noSubcommandIsAUsageError() {
    Run run = Run.in(dir);
    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.out()).isEmpty();
    assertThat(run.err()).contains("missing command", "render");
  }

  @Test
  void unknownSubcommandIsAUsageError() {
    Run run = Run.in(dir, "rendr");
    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err()).contains("rendr");
  }

  @Test
  void schemaPrintsTheSchemaCheckedForThatInput() {
    for (String version : List.of("v1alpha1", "v1alpha2", "v1", "v2beta1")) {
      Run run = Run.in(dir, "schema", "kubeflow.org/" + version, "MPIJob");
      assertThat(run.exitCode()).isZero();
      assertThat(run.err()).isEmpty();
      assertThat(run.out())
          .startsWith("{")
          .contains("\"const\": \"kubeflow.org/" + version + "\"")
          .contains("https://jobc.dev/schemas/mpijob.kubeflow.org-" + version + ".schema.json");
    }
  }

  @Test
  void schemaOfAnUnknownKindIsAUsageError() {
    Run run = Run.in(dir, "schema", "example.com/v1", "Widget");
    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.out()).isEmpty();
    assertThat(run.err())
        .isEqualTo(
            "jobc: error: no schema for example.com/v1 Widget: not a kind jobc accepts as input;"
                + " it accepts kubeflow.org/v1alpha1 MPIJob, kubeflow.org/v1alpha2 MPIJob,"
                + " kubeflow.org/v1 MPIJob, kubeflow.org/v2beta1 MPIJob, qihoo.net/v1alpha1"
                + " DGLJob, kubeflow.org/v1 TFJob, kubeflow.org/v1 PyTorchJob, kubeflow.org/v1"
                + " XGBoostJob, kubeflow.org/v1 JAXJob, kubeflow.org/v1 PaddleJob,"
                + " trainer.kubeflow.org/v1alpha1 TrainJob\n");
  }

  @ParameterizedTest
  @ValueSource(strings = {"TFJob", "PyTorchJob", "XGBoostJob", "JAXJob", "PaddleJob"})
  void schemaOfTrainingOperatorKinds(String kind) {
    Run run = Run.in(dir, "schema", "kubeflow.org/v1", kind);
    assertThat(run.exitCode()).isZero();
    assertThat(run.err()).isEmpty();
    assertThat(run.out())
        .startsWith("{")
        .contains("\"const\": \"" + kind + "\"")
        .contains(
            "https://jobc.dev/schemas/"
                + kind.toLowerCase(java.util.Locale.ROOT)
                + ".kubeflow.org-v1.schema.json");
  }

  @Test
  void schemaAllWritesEveryPublishedSchema() throws Exception {
    Run run = Run.in(dir, "schema", "--all", "out/schemas");
    assertThat(run.exitCode()).as(run.err()).isZero();
    Path published =
        Path.of(
            System.getProperty("jobc.root", ".."), "schemas/src/main/resources/dev/jobc/schemas");
    List<String> names;
    try (var files = java.nio.file.Files.list(published)) {
      names = files.map(p -> p.getFileName().toString()).sorted().toList();
    }
    try (var files = java.nio.file.Files.list(dir.resolve("out/schemas"))) {
      assertThat(files.map(p -> p.getFileName().toString()).sorted().toList())
          .containsExactlyElementsOf(names);
    }
    for (String name : names) {
      assertThat(dir.resolve("out/schemas").resolve(name))
          .hasSameTextualContentAs(published.resolve(name));
    }
    assertThat(Run.in(dir, "schema", "--all", "x", "kubeflow.org/v1").exitCode()).isEqualTo(2);
  }

  @Test
  void schemaAllIntoAFileSaysWhyItFails() throws Exception {
    java.nio.file.Files.writeString(dir.resolve("afile"), "x");
    Run run = Run.in(dir, "schema", "--all", "afile");
    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.err()).isEqualTo("jobc: error: afile: not a directory\n");
    Run below = Run.in(dir, "schema", "--all", "afile/sub");
    assertThat(below.exitCode()).isEqualTo(1);
    assertThat(below.err()).isEqualTo("jobc: error: afile/sub: not a directory\n");
  }

  @Test
  void schemaNeedsBothArguments() {
    Run run = Run.in(dir, "schema", "kubeflow.org/v2beta1");
    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err()).contains("KIND");
  }

  /**
   * A run of one subcommand registers only that one (faster start); its help, options and exit
   * codes are those of the full command tree, for every subcommand that is run that way.
   */
  @Test
  void aSubcommandRunAloneIsTheSubcommandOfTheFullTree() {
    picocli.CommandLine full = JobcCommand.tree(new JobcCommand(), JobcCommand.SUBCOMMANDS);
    int alone = 0;
    for (String name : JobcCommand.SUBCOMMANDS.keySet()) {
      if (JobcCommand.subcommandsFor(name).size() != 1) {
        continue;
      }
      alone++;
      Run help = Run.in(dir, name, "--help");
      assertThat(help.exitCode()).as(name).isZero();
      assertThat(help.out()).as(name).isEqualTo(full.getSubcommands().get(name).getUsageMessage());
    }
    assertThat(alone).isEqualTo(6);
    assertThat(JobcCommand.subcommandsFor("completion", "bash")).hasSize(8);
    assertThat(JobcCommand.subcommandsFor("help", "render")).hasSize(8);
    assertThat(JobcCommand.subcommandsFor("--help")).hasSize(8);
    assertThat(JobcCommand.subcommandsFor()).hasSize(8);
  }
}
