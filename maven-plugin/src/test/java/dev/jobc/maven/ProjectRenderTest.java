package dev.jobc.maven;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jobc.io.InputSelection;
import dev.jobc.options.CompileOptions;
import dev.jobc.options.OptionTable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link ProjectRender} on a temporary project: render, up-to-date stamp, check. */
class ProjectRenderTest {
  private static final String CONFIG_MAP =
      "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  namespace: default\n";

  @TempDir Path project;

  private ProjectRender project() {
    return new ProjectRender(
        project,
        project.resolve("src/main/jobc"),
        project.resolve("target/jobc"),
        project.resolve("target/jobc.stamp"),
        InputSelection.ALL,
        CompileOptions.defaults());
  }

  @Test
  void rendersThenSkipsUntilSomethingChanges() throws IOException {
    Files.createDirectories(project.resolve("src/main/jobc"));
    Files.writeString(project.resolve("src/main/jobc/a.yaml"), CONFIG_MAP);

    ProjectRender.Result first = project().render();
    assertThat(first.ok()).as(first.report()).isTrue();
    assertThat(first.upToDate()).isFalse();
    assertThat(project.resolve("target/jobc/configmap-a.yaml")).hasContent(CONFIG_MAP);

    assertThat(project().render().upToDate()).isTrue();

    // A deleted output file is a change too.
    Files.delete(project.resolve("target/jobc/configmap-a.yaml"));
    assertThat(project().render().upToDate()).isFalse();
    assertThat(project.resolve("target/jobc/configmap-a.yaml")).exists();

    Files.writeString(project.resolve("src/main/jobc/a.yaml"), CONFIG_MAP.replace("a\n", "b\n"));
    ProjectRender.Result changed = project().render();
    assertThat(changed.upToDate()).isFalse();
    assertThat(project.resolve("target/jobc/configmap-b.yaml")).exists();
    assertThat(project.resolve("target/jobc/configmap-a.yaml")).doesNotExist();

    ProjectRender other =
        new ProjectRender(
            project,
            project.resolve("src/main/jobc"),
            project.resolve("target/jobc"),
            project.resolve("target/jobc.stamp"),
            InputSelection.ALL,
            CompileOptions.defaults().with(OptionTable.NAMESPACE, "other"));
    assertThat(other.render().upToDate()).as("options are part of the stamp").isFalse();
  }

  @Test
  void excludesLeaveFilesOutAndToolConfigurationIsANote() throws IOException {
    Files.createDirectories(project.resolve("src/main/jobc/drafts"));
    Files.writeString(project.resolve("src/main/jobc/a.yaml"), CONFIG_MAP);
    Files.writeString(project.resolve("src/main/jobc/drafts/b.yaml"), "kind: [\n");
    Files.writeString(project.resolve("src/main/jobc/kustomization.yaml"), "resources: []\n");
    ProjectRender excluding =
        new ProjectRender(
            project,
            project.resolve("src/main/jobc"),
            project.resolve("target/jobc"),
            project.resolve("target/jobc.stamp"),
            new InputSelection(List.of("drafts"), false),
            CompileOptions.defaults());
    ProjectRender.Result result = excluding.render();
    assertThat(result.ok()).as(result.report()).isTrue();
    assertThat(result.objects()).isOne();
    assertThat(result.warnings()).isEmpty();
    assertThat(result.notes())
        .containsExactly(
            "src/main/jobc/kustomization.yaml: note: skipped: a kustomization (kustomize's"
                + " configuration)");
    // Without the exclude, the draft is read (and is an error); the stamp knows the difference.
    ProjectRender.Result all = project().render();
    assertThat(all.upToDate()).isFalse();
    assertThat(all.ok()).isFalse();
    assertThat(all.report()).startsWith("src/main/jobc/drafts/b.yaml:");
  }

  @Test
  void errorsNameTheFileRelativeToTheProjectAndWriteNothing() throws IOException {
    Files.createDirectories(project.resolve("src/main/jobc"));
    Files.writeString(project.resolve("src/main/jobc/a.yaml"), "kind: [\n");
    ProjectRender.Result result = project().render();
    assertThat(result.ok()).isFalse();
    assertThat(result.report()).startsWith("src/main/jobc/a.yaml:");
    assertThat(project.resolve("target/jobc")).doesNotExist();
    assertThat(project.resolve("target/jobc.stamp")).doesNotExist();
  }

  @Test
  void checkReportsDriftAsADiff() throws IOException {
    Files.createDirectories(project.resolve("src/main/jobc"));
    Files.writeString(project.resolve("src/main/jobc/a.yaml"), CONFIG_MAP);
    assertThat(project().render().ok()).isTrue();
    assertThat(project().check().ok()).isTrue();

    Files.writeString(project.resolve("target/jobc/configmap-a.yaml"), "stale: true\n");
    ProjectRender.Result drift = project().check();
    assertThat(drift.ok()).isFalse();
    assertThat(drift.report())
        .contains("--- target/jobc/configmap-a.yaml")
        .contains("-stale: true");
  }

  @Test
  void renderAndCheckRefuseAnOutputDirectoryWithFilesJobcDidNotWrite() throws IOException {
    Files.createDirectories(project.resolve("src/main/jobc"));
    Files.writeString(project.resolve("src/main/jobc/a.yaml"), CONFIG_MAP);
    Files.createDirectories(project.resolve("target/jobc"));
    Files.writeString(project.resolve("target/jobc/deployment.yaml"), "mine: true\n");

    ProjectRender.Result render = project().render();
    assertThat(render.ok()).isFalse();
    assertThat(render.report())
        .isEqualTo(
            "jobc: error: refusing to replace target/jobc: it holds target/jobc/deployment.yaml"
                + " but no target/jobc/.jobc-files, the list of files jobc wrote; move your files"
                + " elsewhere (or, if jobc wrote them, delete them) and render again\n");
    ProjectRender.Result check = project().check();
    assertThat(check.ok()).isFalse();
    assertThat(check.report()).startsWith("jobc: error: refusing to check target/jobc: it holds");
    assertThat(project.resolve("target/jobc/deployment.yaml")).hasContent("mine: true");
    assertThat(project.resolve("target/jobc/configmap-a.yaml")).doesNotExist();

    Files.delete(project.resolve("target/jobc/deployment.yaml"));
    assertThat(project().render().ok()).isTrue();
    // Once jobc owns the directory, a file added by hand is still not jobc's to delete.
    Files.writeString(project.resolve("target/jobc/deployment.yaml"), "mine: true\n");
    ProjectRender.Result again = project().render();
    assertThat(again.ok()).isFalse();
    assertThat(again.report())
        .isEqualTo(
            "jobc: error: refusing to replace target/jobc: it contains"
                + " target/jobc/deployment.yaml, which jobc did not write\n");
    assertThat(project.resolve("target/jobc/deployment.yaml")).hasContent("mine: true");
  }
}
