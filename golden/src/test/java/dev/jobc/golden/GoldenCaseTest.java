package dev.jobc.golden;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The harness's own rules: case discovery, file names, expectations, options and diffs. */
class GoldenCaseTest {
  @TempDir Path root;

  private void file(String relative, String text) throws IOException {
    Path p = root.resolve(relative);
    Files.createDirectories(p.getParent());
    Files.writeString(p, text, StandardCharsets.UTF_8);
  }

  @Test
  void findsCasesSortedByName() throws IOException {
    file("b-error/input.yaml", "x: 1\n");
    file("b-error/expected-errors.txt", "input.yaml: error: x\n");
    file("a-ok/input.yaml", "x: 1\n");
    file("a-ok/expected.yaml", "x: 1\n");
    file("a-ok/expected-warnings.txt", "input.yaml: warning: x\n");
    file("a-ok/options.yaml", "namespace: ns\n");
    file("a-ok/README.md", "Why this case exists.\n");
    file("C-upper/input.yaml", "x: 1\n");
    file("C-upper/expected.yaml", "x: 1\n");

    List<GoldenCase> cases = GoldenCase.discover(root, false);

    assertThat(cases).extracting(GoldenCase::name).containsExactly("C-upper", "a-ok", "b-error");
    assertThat(cases)
        .extracting(GoldenCase::expectation)
        .containsExactly(
            GoldenCase.Expectation.SUCCESS,
            GoldenCase.Expectation.SUCCESS,
            GoldenCase.Expectation.ERROR);
    assertThat(cases.get(1).hasWarnings()).isTrue();
    assertThat(cases.get(1).arguments())
        .containsExactly("render", "input.yaml", "--namespace", "ns");
  }

  @Test
  void zeroCasesFail() {
    assertThatThrownBy(() -> GoldenCase.discover(root, false))
        .isInstanceOf(AssertionError.class)
        .hasMessage("No complete test cases found in " + root);
  }

  @Test
  void missingDirectoryFails() {
    assertThatThrownBy(() -> GoldenCase.discover(root.resolve("nope"), false))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("does not exist");
  }

  @Test
  void reportsEveryBrokenRuleAtOnce() throws IOException {
    file("neither/input.yaml", "x: 1\n");
    file("both/input.yaml", "x: 1\n");
    file("both/expected.yaml", "x: 1\n");
    file("both/expected-errors.txt", "e\n");
    file("stray/input.yaml", "x: 1\n");
    file("stray/expected.yaml", "x: 1\n");
    file("stray/expected.yml", "x: 1\n");
    file("nested/input.yaml", "x: 1\n");
    file("nested/expected.yaml", "x: 1\n");
    file("nested/sub/input.yaml", "x: 1\n");
    file("no-input/expected.yaml", "x: 1\n");
    file("warn-on-error/input.yaml", "x: 1\n");
    file("warn-on-error/expected-errors.txt", "e\n");
    file("warn-on-error/expected-warnings.txt", "w\n");
    file("long-readme/input.yaml", "x: 1\n");
    file("long-readme/expected.yaml", "x: 1\n");
    file("long-readme/README.md", "one\ntwo\n");
    file("loose.yaml", "x: 1\n");
    file("good/input.yaml", "x: 1\n");
    file("good/expected.yaml", "x: 1\n");

    assertThatThrownBy(() -> GoldenCase.discover(root, false))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining(root.resolve("neither") + ": has neither expected.yaml nor")
        .hasMessageContaining(root.resolve("both") + ": has both expected.yaml and")
        .hasMessageContaining(root.resolve("stray/expected.yml") + ": bad file name")
        .hasMessageContaining(root.resolve("nested/sub") + ": bad file name")
        .hasMessageContaining(root.resolve("no-input") + ": missing input.yaml")
        .hasMessageContaining(
            root.resolve("warn-on-error") + ": expected-warnings.txt only belongs next to")
        .hasMessageContaining(root.resolve("long-readme/README.md") + ": must be exactly one line")
        .hasMessageContaining(root.resolve("loose.yaml") + ": bad file name")
        .message()
        .doesNotContain(root.resolve("good").toString() + ":");
  }

  @Test
  void updateModeAcceptsACaseWithoutExpectation() throws IOException {
    file("new/input.yaml", "x: 1\n");

    assertThat(GoldenCase.discover(root, true))
        .extracting(GoldenCase::expectation)
        .containsExactly(GoldenCase.Expectation.NEW);
    assertThatThrownBy(() -> GoldenCase.discover(root, false))
        .hasMessageContaining("-Dgolden.update=true -Dgolden.case=new");
  }

  @Test
  void optionsMapOntoLongOptions() {
    assertThat(
            GoldenCase.options(
                "options.yaml",
                "cluster-domain: cluster.local\nverbose: true\nset: [a=1, b=2]\nreplicas: 3\n"))
        .containsExactly(
            "--cluster-domain",
            "cluster.local",
            "--verbose",
            "--set",
            "a=1",
            "--set",
            "b=2",
            "--replicas",
            "3");
    assertThat(GoldenCase.options("options.yaml", "")).isEmpty();
  }

  @Test
  void badOptionsFail() {
    assertThatThrownBy(() -> GoldenCase.options("options.yaml", "- a\n- b\n"))
        .hasMessageContaining("one YAML map");
    assertThatThrownBy(() -> GoldenCase.options("options.yaml", "--namespace: x\n"))
        .hasMessageContaining("without dashes");
    assertThatThrownBy(() -> GoldenCase.options("options.yaml", "o: out\n"))
        .hasMessageContaining("would write into the case");
    assertThatThrownBy(() -> GoldenCase.options("options.yaml", "verbose: false\n"))
        .hasMessageContaining("as true or leave it out");
    assertThatThrownBy(() -> GoldenCase.options("options.yaml", "namespace: {a: b}\n"))
        .hasMessageContaining("expected a scalar");
  }
}
