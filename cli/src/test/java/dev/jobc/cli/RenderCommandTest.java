package dev.jobc.cli;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import dev.jobc.CompileOptions;
import dev.jobc.CompileResult;
import dev.jobc.ManifestCompiler;
import dev.jobc.OutputObject;
import dev.jobc.Source;
import dev.jobc.frontend.UnifiedDiff;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs {@code jobc render} in a temporary directory. Inputs are ConfigMaps, which pass through the
 * compiler; expected manifests come from the compiler itself, since this command only moves them.
 */
class RenderCommandTest {
  private static final String A = configMap("a", "default", "k: v");
  private static final String B = configMap("b", "default", "k: w");

  @TempDir Path dir;

  @Test
  void rendersAFileToStdout() throws IOException {
    write("input.yaml", A);
    Run run = Run.in(dir, "render", "input.yaml");
    assertThat(run.err()).isEmpty();
    assertThat(run.exitCode()).isZero();
    assertThat(run.out())
        .isEqualTo(compiled(new Source("input.yaml", A)).yaml())
        .contains("name: a");
  }

  @Test
  void rendersADirectoryInPathOrderSkippingHiddenOnes() throws IOException {
    write("in/z.yaml", B);
    write("in/sub/a.yml", A);
    write("in/.git/ignored.yaml", "not: a manifest\n");
    write("in/notes.txt", "not yaml\n");
    Run run = Run.in(dir, "render", "in/");
    assertThat(run.err()).isEmpty();
    assertThat(run.exitCode()).isZero();
    assertThat(run.out())
        .isEqualTo(compiled(new Source("in/sub/a.yml", A), new Source("in/z.yaml", B)).yaml());
  }

  @Test
  void rendersStdin() {
    Run run = Run.withStdin(dir, A.getBytes(UTF_8), "render", "-");
    assertThat(run.exitCode()).isZero();
    assertThat(run.out()).isEqualTo(compiled(new Source("<stdin>", A)).yaml());
  }

  @Test
  void errorsNameTheFileAsTypedAndPrintNothingOnStdout() throws IOException {
    write("sub/input.yaml", "apiVersion: v1\nmetadata:\n  name: nokind\n");
    write("good.yaml", A);
    Run run = Run.in(dir, "render", "good.yaml", "sub/input.yaml");
    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.out()).isEmpty();
    assertThat(run.err()).startsWith("sub/input.yaml:").contains(": error: ").endsWith("\n");
  }

  @Test
  void stdinDiagnosticsAreNamedStdin() {
    Run run = Run.withStdin(dir, "metadata: {name: x}\n".getBytes(UTF_8), "render", "-");
    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.err()).startsWith("<stdin>:");
  }

  @Test
  void missingFileIsAnInputError() throws IOException {
    write("good.yaml", A);
    Run run = Run.in(dir, "render", "good.yaml", "nope.yaml");
    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.out()).isEmpty();
    assertThat(run.err()).isEqualTo("nope.yaml: error: no such file or directory\n");
  }

  @Test
  void invalidUtf8IsAnInputErrorAtTheBadByte() throws IOException {
    Files.write(dir.resolve("bad.yaml"), "kind: ConfigMap\nnam\u00e9: x\n".getBytes(UTF_8));
    byte[] bytes = Files.readAllBytes(dir.resolve("bad.yaml"));
    bytes[19] = (byte) 0xff; // the first byte of "é", which is at line 2, column 4
    Files.write(dir.resolve("bad.yaml"), bytes);
    Run run = Run.in(dir, "render", "bad.yaml");
    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.out()).isEmpty();
    assertThat(run.err())
        .isEqualTo("bad.yaml:2:4: error: not valid UTF-8 (byte 19); save the file as UTF-8\n");
  }

  @Test
  void emptyDirectoryIsAWarningOnly() throws IOException {
    Files.createDirectories(dir.resolve("empty"));
    Run run = Run.in(dir, "render", "empty");
    assertThat(run.exitCode()).isZero();
    assertThat(run.out()).isEmpty();
    assertThat(run.err()).isEqualTo("empty: warning: no *.yaml or *.yml files found\n");
  }

  @Test
  void usageErrorsExitTwo() throws IOException {
    write("input.yaml", A);
    assertUsageError(Run.in(dir, "render"), "give a file, a directory or -");
    assertUsageError(Run.in(dir, "render", "-o", "a", "--check", "b", "input.yaml"), "exclusive");
    assertUsageError(
        Run.in(dir, "render", "--namespace", "Not_A_Label", "input.yaml"), "namespace");
    assertUsageError(Run.in(dir, "render", "--cluster-domain", "-bad-", "input.yaml"), "domain");
    assertUsageError(Run.in(dir, "render", "--kubectl-image", "a b", "input.yaml"), "image");
    assertUsageError(
        Run.in(dir, "render", "--gang-scheduler", "Volcano", "input.yaml"), "gang scheduler");
    assertUsageError(Run.in(dir, "render", "-", "-"), "only once");
    assertUsageError(Run.in(dir, "render", "--bogus", "input.yaml"), "--bogus");
  }

  @Test
  void outputWritesOneFilePerObjectAndRemovesStaleOnes() throws IOException {
    write("in/a.yaml", A);
    write("in/b.yaml", B);
    write("out/configmap-gone.yaml", "stale: true\n");
    Run run = Run.in(dir, "render", "in", "-o", "out");
    assertThat(run.err()).isEmpty();
    assertThat(run.exitCode()).isZero();
    assertThat(run.out()).isEmpty();
    CompileResult expected = compiled(new Source("in/a.yaml", A), new Source("in/b.yaml", B));
    assertThat(listing("out")).containsExactly("configmap-a.yaml", "configmap-b.yaml");
    for (OutputObject o : expected.objects()) {
      assertThat(read("out/" + o.fileName())).isEqualTo(o.yaml());
    }
    // The swap leaves no temporary siblings behind.
    assertThat(listing("")).containsExactly("in", "out");
  }

  @Test
  void outputIsANoOpWhenAnyInputHasAnError() throws IOException {
    write("a.yaml", A);
    write("out/configmap-old.yaml", "old\n");
    Run run = Run.in(dir, "render", "a.yaml", "nope.yaml", "-o", "out");
    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(listing("out")).containsExactly("configmap-old.yaml");
    assertThat(read("out/configmap-old.yaml")).isEqualTo("old\n");

    Run fresh = Run.in(dir, "render", "a.yaml", "nope.yaml", "-o", "new/out");
    assertThat(fresh.exitCode()).isEqualTo(1);
    assertThat(dir.resolve("new")).doesNotExist();
  }

  @Test
  void outputRefusesADirectoryWithForeignContent() throws IOException {
    write("a.yaml", A);
    write("out/configmap-a.yaml", "old\n");
    write("out/sub/x.yaml", "x\n");
    write("out/.keep", "");
    assertRefused(Run.in(dir, "render", "a.yaml", "-o", "out/"), "out/.keep");
    Files.delete(dir.resolve("out/.keep"));
    assertRefused(Run.in(dir, "render", "a.yaml", "-o", "out"), "out/sub/");
    Files.delete(dir.resolve("out/sub/x.yaml"));
    Files.delete(dir.resolve("out/sub"));
    write("out/README.md", "mine\n");
    assertRefused(Run.in(dir, "render", "a.yaml", "-o", "out"), "out/README.md");
    assertThat(read("out/configmap-a.yaml")).isEqualTo("old\n");
  }

  @Test
  void outputRefusesToReplaceADirectoryHoldingAnInput() throws IOException {
    write("out/a.yaml", A);
    Run run = Run.in(dir, "render", "out", "-o", "out");
    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.err())
        .isEqualTo(
            "jobc: error: refusing to replace out: it contains the input out/a.yaml;"
                + " write the output somewhere else\n");
    assertThat(listing("out")).containsExactly("a.yaml");
  }

  @Test
  void outputRefusesAFile() throws IOException {
    write("a.yaml", A);
    write("out", "a file\n");
    Run run = Run.in(dir, "render", "a.yaml", "-o", "out");
    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.err())
        .isEqualTo("jobc: error: refusing to replace out: it is not a directory\n");
  }

  @Test
  void outputRefusesObjectsThatShareAFileName() throws IOException {
    write("a.yaml", A + "---\n" + configMap("a", "other", "k: x"));
    Run run = Run.in(dir, "render", "a.yaml", "-o", "out");
    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.out()).isEmpty();
    assertThat(run.err())
        .isEqualTo(
            "out/configmap-a.yaml: error: both ConfigMap default/a and ConfigMap other/a would be"
                + " written to this file; give them distinct names\n");
    assertThat(dir.resolve("out")).doesNotExist();
  }

  @Test
  void checkOfAnUpToDateDirectoryPrintsNothing() throws IOException {
    write("in/a.yaml", A);
    write("in/b.yaml", B);
    assertThat(Run.in(dir, "render", "in", "-o", "out").exitCode()).isZero();
    Run run = Run.in(dir, "render", "in", "--check", "out");
    assertThat(run.exitCode()).isZero();
    assertThat(run.out()).isEmpty();
    assertThat(run.err()).isEmpty();
  }

  @Test
  void checkReportsEveryDifferenceAsAUnifiedDiff() throws IOException {
    write("in/a.yaml", A);
    write("in/b.yaml", B);
    CompileResult result = compiled(new Source("in/a.yaml", A), new Source("in/b.yaml", B));
    List<String> a = UnifiedDiff.lines(result.objects().get(0).yaml());
    List<String> b = UnifiedDiff.lines(result.objects().get(1).yaml());
    assertThat(a).hasSizeGreaterThan(4);
    // configmap-a.yaml drifted in its first line, configmap-b.yaml is missing, and
    // configmap-old.yaml is no longer rendered.
    write("out/configmap-a.yaml", "x" + String.join("", a));
    write("out/configmap-old.yaml", "old: 1\n");

    Run run = Run.in(dir, "render", "in", "--check", "out");

    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.out()).isEmpty();
    assertThat(run.err())
        .isEqualTo(
            "--- out/configmap-a.yaml\n"
                + "+++ configmap-a.yaml (rendered)\n"
                + "@@ -1,4 +1,4 @@\n"
                + ("-x" + a.get(0))
                + ("+" + a.get(0))
                + (" " + a.get(1))
                + (" " + a.get(2))
                + (" " + a.get(3))
                + "--- /dev/null\n"
                + "+++ configmap-b.yaml (rendered)\n"
                + ("@@ -0,0 +1," + b.size() + " @@\n")
                + b.stream().map(line -> "+" + line).collect(Collectors.joining())
                + "--- out/configmap-old.yaml\n"
                + "+++ /dev/null\n"
                + "@@ -1 +0,0 @@\n"
                + "-old: 1\n");
    assertThat(read("out/configmap-old.yaml")).isEqualTo("old: 1\n");
    assertThat(listing("out")).containsExactly("configmap-a.yaml", "configmap-old.yaml");
  }

  @Test
  void checkOfAMissingDirectoryIsAnError() throws IOException {
    write("a.yaml", A);
    Run run = Run.in(dir, "render", "a.yaml", "--check", "out");
    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.err()).isEqualTo("out: error: no such directory\n");
  }

  private static void assertUsageError(Run run, String message) {
    assertThat(run.exitCode()).as(run.err()).isEqualTo(2);
    assertThat(run.out()).isEmpty();
    assertThat(run.err()).contains(message);
  }

  private void assertRefused(Run run, String entry) {
    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.out()).isEmpty();
    assertThat(run.err())
        .isEqualTo(
            "jobc: error: refusing to replace out: it contains "
                + entry
                + ", which jobc did not write\n");
  }

  private static CompileResult compiled(Source... sources) {
    CompileResult result =
        new ManifestCompiler().compile(List.of(sources), CompileOptions.defaults());
    assertThat(result.diagnostics()).isEmpty();
    return result;
  }

  private static String configMap(String name, String namespace, String data) {
    return "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: "
        + name
        + "\n  namespace: "
        + namespace
        + "\ndata:\n  "
        + data
        + "\n";
  }

  private void write(String relative, String text) throws IOException {
    Path file = dir.resolve(relative);
    Files.createDirectories(file.getParent());
    Files.writeString(file, text, UTF_8);
  }

  private String read(String relative) throws IOException {
    return Files.readString(dir.resolve(relative), UTF_8);
  }

  private List<String> listing(String relative) throws IOException {
    try (Stream<Path> entries = Files.list(dir.resolve(relative))) {
      return entries.map(p -> p.getFileName().toString()).sorted().collect(Collectors.toList());
    }
  }
}
