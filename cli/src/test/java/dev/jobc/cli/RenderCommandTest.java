package dev.jobc.cli;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import dev.jobc.ManifestCompiler;
import dev.jobc.io.InputLimits;
import dev.jobc.io.UnifiedDiff;
import dev.jobc.model.CompileResult;
import dev.jobc.model.OutputObject;
import dev.jobc.model.Source;
import dev.jobc.options.CompileOptions;
import java.io.IOException;
import java.io.InputStream;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
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
  void aDanglingLinkOrAFifoBelowAnInputDirectoryIsAnErrorAndNothingIsWritten()
      throws IOException, InterruptedException {
    write("in/a.yaml", A);
    write("in/b.yaml", B);
    assertThat(Run.in(dir, "render", "-o", "out", "in").exitCode()).isZero();
    Map<String, String> before = contents("out");
    assertThat(before).hasSize(3); // the two objects and .jobc-files

    Files.delete(dir.resolve("in/b.yaml"));
    Files.createSymbolicLink(dir.resolve("in/b.yaml"), Path.of("gone.yaml"));
    Run dangling = Run.in(dir, "render", "-o", "out", "in");
    assertThat(dangling.exitCode()).isEqualTo(1);
    assertThat(dangling.err())
        .startsWith("in/b.yaml: error: a symbolic link to gone.yaml, which does not exist");
    assertThat(contents("out")).isEqualTo(before);

    Files.delete(dir.resolve("in/b.yaml"));
    Process mkfifo = new ProcessBuilder("mkfifo", dir.resolve("in/b.yaml").toString()).start();
    assertThat(mkfifo.waitFor()).isZero();
    // Read, a FIFO with no writer would block the render: the error comes from its type alone.
    Run fifo = Run.in(dir, "render", "-o", "out", "in");
    assertThat(fifo.exitCode()).isEqualTo(1);
    assertThat(fifo.err()).startsWith("in/b.yaml: error: not a regular file");
    assertThat(contents("out")).isEqualTo(before);
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
  void excludeLeavesOutWhatItsGlobsMatch() throws IOException {
    write("in/a.yaml", A);
    write("in/b.yaml", B);
    write("in/test-a.yaml", "not: an object\n");
    write("in/sub/test-b.yaml", "not: an object\n");
    write("in/kpt/x.yaml", "not: an object\n");
    write("in/deep/kpt/y.yaml", "not: an object\n");
    // A name at any depth, a path relative to the directory, the same path as messages show it.
    Run run =
        Run.in(
            dir,
            "render",
            "in/",
            "--exclude",
            "test-*.yaml",
            "--exclude=kpt/",
            "--exclude",
            "in/deep/**");
    assertThat(run.err()).isEmpty();
    assertThat(run.exitCode()).isZero();
    assertThat(run.out())
        .isEqualTo(compiled(new Source("in/a.yaml", A), new Source("in/b.yaml", B)).yaml());
    // A file named on the command line is read whatever --exclude says.
    Run named = Run.in(dir, "render", "in/a.yaml", "--exclude", "a.yaml");
    assertThat(named.out()).isEqualTo(compiled(new Source("in/a.yaml", A)).yaml());
    assertUsageError(
        Run.in(dir, "render", "in", "--exclude", "[a-"), "--exclude \"[a-\": not a glob");
    assertUsageError(Run.in(dir, "render", "in", "--exclude", ""), "the pattern is empty");
  }

  @Test
  void toolConfigurationIsSkippedWithANote() throws IOException {
    write("in/a.yaml", A);
    // kustomize: the kustomization and what it names other than resources.
    write(
        "in/k/kustomization.yaml",
        "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n- b.yaml\n"
            + "patches:\n- path: patch.yaml\ngenerators:\n- gen/config.yaml\n"
            + "configMapGenerator:\n- name: c\n  files:\n  - settings=data.yaml\n");
    write("in/k/b.yaml", B);
    write("in/k/patch.yaml", "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: d\n");
    write("in/k/gen/config.yaml", "apiVersion: x.dev/v1\nkind: Gen\nmetadata:\n  name: g\n");
    write("in/k/data.yaml", "key: value\n");
    // A kustomization.yml without apiVersion and kind, as kustomize allows.
    write("in/k2/kustomization.yml", "resources: []\n");
    // A Helm chart, templates and all.
    write("in/chart/Chart.yaml", "apiVersion: v2\nname: c\nversion: 0.1.0\n");
    write("in/chart/values.yaml", "replicas: 1\n");
    write("in/chart/templates/cm.yaml", "kind: ConfigMap\nmetadata:\n  name: {{ .Values.x }}\n");
    // Argo CD's plugin configuration.
    write(
        "in/argocd/plugin.yaml",
        "apiVersion: argoproj.io/v1alpha1\nkind: ConfigManagementPlugin\nmetadata:\n"
            + "  name: jobc\nspec:\n  generate:\n    command: [jobc, argocd]\n");
    Run run = Run.in(dir, "render", "in");
    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.out())
        .isEqualTo(compiled(new Source("in/a.yaml", A), new Source("in/k/b.yaml", B)).yaml());
    assertThat(run.err())
        .isEqualTo(
            "in/argocd/plugin.yaml: note: skipped: an Argo CD ConfigManagementPlugin (Argo CD's"
                + " configuration)\n"
                + "in/chart: note: skipped: a Helm chart (Chart.yaml); its templates and values"
                + " become objects only through helm template\n"
                + "in/k/data.yaml: note: skipped: the data of a ConfigMap named by the"
                + " kustomization.yaml beside it\n"
                + "in/k/gen/config.yaml: note: skipped: a generator configuration named by"
                + " in/k/kustomization.yaml\n"
                + "in/k/kustomization.yaml: note: skipped: a kustomization (kustomize's"
                + " configuration)\n"
                + "in/k/patch.yaml: note: skipped: a patch named by the kustomization.yaml beside"
                + " it\n"
                + "in/k2/kustomization.yml: note: skipped: a kustomization (kustomize's"
                + " configuration)\n");
  }

  @Test
  void filesWithToolNamesButObjectsInsideAreRendered() throws IOException {
    // Flux's Kustomization is an object, and so is a ConfigMap called plugin.yaml; values.yaml
    // outside a chart is any file.
    String flux =
        "apiVersion: kustomize.toolkit.fluxcd.io/v1\nkind: Kustomization\nmetadata:\n"
            + "  name: apps\n  namespace: flux-system\n";
    write("in/kustomization.yaml", flux);
    write("in/plugin.yaml", A);
    write("in/values.yaml", B);
    Run run = Run.in(dir, "render", "in");
    assertThat(run.err()).isEmpty();
    assertThat(run.out())
        .isEqualTo(
            compiled(
                    new Source("in/kustomization.yaml", flux),
                    new Source("in/plugin.yaml", A),
                    new Source("in/values.yaml", B))
                .yaml());
  }

  @Test
  void allowMissingRendersAMissingDirectoryAsEmpty() throws IOException {
    write("jobs/a.yaml", A);
    assertThat(Run.in(dir, "render", "jobs/", "-o", "out").exitCode()).isZero();
    Files.delete(dir.resolve("jobs/a.yaml"));
    Files.delete(dir.resolve("jobs"));

    Run without = Run.in(dir, "render", "jobs/", "-o", "out");
    assertThat(without.exitCode()).isOne();
    assertThat(listing("out")).containsExactly(".jobc-files", "configmap-a.yaml");

    Run run = Run.in(dir, "render", "--allow-missing", "--fail-if-changed", "jobs/", "-o", "out");
    assertThat(run.exitCode()).isOne();
    assertThat(run.err())
        .isEqualTo(
            "jobs/: note: does not exist; read as an empty directory\n"
                + "jobc: out/.jobc-files: changed\n"
                + "jobc: out/configmap-a.yaml: removed\n"
                + "jobc: error: out changed; review the changes and add them (--fail-if-changed)\n");
    assertThat(listing("out")).containsExactly(".jobc-files");
    Run check = Run.in(dir, "render", "--allow-missing", "jobs/", "--check", "out");
    assertThat(check.exitCode()).as(check.err()).isZero();
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
  void outputWritesOneFilePerObjectRecordsThemAndRemovesStaleOnes() throws IOException {
    write("in/a.yaml", A);
    write("in/b.yaml", B);
    write("in/gone.yaml", configMap("gone", "default", "k: v"));
    assertThat(Run.in(dir, "render", "in", "-o", "out").exitCode()).isZero();
    assertThat(listing("out"))
        .containsExactly(
            ".jobc-files", "configmap-a.yaml", "configmap-b.yaml", "configmap-gone.yaml");

    Files.delete(dir.resolve("in/gone.yaml"));
    Run run = Run.in(dir, "render", "in", "-o", "out");
    assertThat(run.err()).isEmpty();
    assertThat(run.exitCode()).isZero();
    assertThat(run.out()).isEmpty();
    CompileResult expected = compiled(new Source("in/a.yaml", A), new Source("in/b.yaml", B));
    assertThat(listing("out"))
        .containsExactly(".jobc-files", "configmap-a.yaml", "configmap-b.yaml");
    for (OutputObject o : expected.objects()) {
      assertThat(read("out/" + o.fileName())).isEqualTo(o.yaml());
    }
    assertThat(read("out/.jobc-files"))
        .startsWith("# ")
        .endsWith("\nconfigmap-a.yaml\nconfigmap-b.yaml\n");
    // The swap leaves no temporary siblings (staging, lock) behind.
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
  void outputAndCheckRefuseADirectoryWithAnythingJobcDidNotWrite() throws IOException {
    write("a.yaml", A);
    assertThat(Run.in(dir, "render", "a.yaml", "-o", "out").exitCode()).isZero();
    String rendered = read("out/configmap-a.yaml");
    write("out/.keep", "");
    assertRefused("a.yaml", "out/", "it contains out/.keep, which jobc did not write");
    Files.delete(dir.resolve("out/.keep"));
    write("out/sub/x.yaml", "x\n");
    assertRefused("a.yaml", "out", "it contains out/sub/, which jobc did not write");
    Files.delete(dir.resolve("out/sub/x.yaml"));
    Files.delete(dir.resolve("out/sub"));
    write("out/README.md", "mine\n");
    assertRefused("a.yaml", "out", "it contains out/README.md, which jobc did not write");
    Files.delete(dir.resolve("out/README.md"));
    // A hand-written manifest among rendered ones is the user's, however it is named.
    write("out/configmap-mine.yaml", "mine: true\n");
    assertRefused("a.yaml", "out", "it contains out/configmap-mine.yaml, which jobc did not write");
    assertThat(read("out/configmap-mine.yaml")).isEqualTo("mine: true\n");
    assertThat(read("out/configmap-a.yaml")).isEqualTo(rendered);
  }

  @Test
  void outputAndCheckRefuseYamlFilesWithoutARecordThatJobcWroteThem() throws IOException {
    write("a.yaml", A);
    write("out/deployment.yaml", "mine: true\n");
    write("out/configmap-a.yaml", "mine too\n");
    assertRefused(
        "a.yaml",
        "out",
        "it holds out/configmap-a.yaml but no out/.jobc-files, the list of files jobc wrote;"
            + " move your files elsewhere (or, if jobc wrote them, delete them) and render again");
    assertThat(listing("out")).containsExactly("configmap-a.yaml", "deployment.yaml");
    assertThat(read("out/deployment.yaml")).isEqualTo("mine: true\n");

    // The current directory is no exception.
    Run here = Run.in(dir.resolve("out"), "render", "../a.yaml", "-o", ".");
    assertThat(here.exitCode()).isEqualTo(1);
    assertThat(listing("out")).containsExactly("configmap-a.yaml", "deployment.yaml");
  }

  @Test
  void anEmptyDirectoryNameIsAUsageErrorAndTouchesNothing() throws IOException {
    write("a.yaml", A);
    assertUsageError(Run.in(dir, "render", "a.yaml", "-o", ""), "-o: the directory name is empty");
    assertUsageError(
        Run.in(dir, "render", "a.yaml", "--check", ""), "--check: the directory name is empty");
    assertThat(listing("")).containsExactly("a.yaml");
  }

  @Test
  void failIfChangedExitsOneAndNamesEveryFileThatChanged() throws IOException {
    write("in/a.yaml", A);
    write("in/old.yaml", configMap("old", "default", "k: v"));
    Run first = Run.in(dir, "render", "in", "-o", "out", "--fail-if-changed");
    assertThat(first.exitCode()).isEqualTo(1);
    assertThat(first.err())
        .isEqualTo(
            "jobc: out/.jobc-files: added\n"
                + "jobc: out/configmap-a.yaml: added\n"
                + "jobc: out/configmap-old.yaml: added\n"
                + "jobc: error: out changed; review the changes and add them (--fail-if-changed)\n");
    assertThat(listing("out"))
        .containsExactly(".jobc-files", "configmap-a.yaml", "configmap-old.yaml");

    Object before = Files.readAttributes(dir.resolve("out"), BasicFileAttributes.class).fileKey();
    Run same = Run.in(dir, "render", "in", "-o", "out", "--fail-if-changed");
    assertThat(same.err()).isEmpty();
    assertThat(same.exitCode()).isZero();
    // Nothing changed, so nothing was swapped: the directory is the same one.
    assertThat(Files.readAttributes(dir.resolve("out"), BasicFileAttributes.class).fileKey())
        .isEqualTo(before);

    write("in/a.yaml", configMap("a", "default", "k: changed"));
    Files.delete(dir.resolve("in/old.yaml"));
    write("in/b.yaml", B);
    Run changed = Run.in(dir, "render", "in", "-o", "out", "--fail-if-changed");
    assertThat(changed.exitCode()).isEqualTo(1);
    assertThat(changed.err())
        .isEqualTo(
            "jobc: out/.jobc-files: changed\n"
                + "jobc: out/configmap-a.yaml: changed\n"
                + "jobc: out/configmap-b.yaml: added\n"
                + "jobc: out/configmap-old.yaml: removed\n"
                + "jobc: error: out changed; review the changes and add them (--fail-if-changed)\n");
    assertThat(Run.in(dir, "render", "in", "--check", "out").exitCode()).isZero();

    assertUsageError(Run.in(dir, "render", "in", "--fail-if-changed"), "needs -o DIR");
    assertUsageError(
        Run.in(dir, "render", "in", "--check", "out", "--fail-if-changed"), "needs -o DIR");
  }

  @Test
  void aSymbolicLinkToAnInputDirectoryIsReadAndALoopIsAnError() throws IOException {
    write("real/a.yaml", A);
    write("other/b.yaml", B);
    Files.createSymbolicLink(dir.resolve("jobs"), dir.resolve("real"));
    Files.createSymbolicLink(dir.resolve("real/linked"), dir.resolve("other"));
    Run run = Run.in(dir, "render", "jobs", "-o", "out");
    assertThat(run.err()).isEmpty();
    assertThat(run.exitCode()).isZero();
    assertThat(listing("out"))
        .containsExactly(".jobc-files", "configmap-a.yaml", "configmap-b.yaml");

    Files.createSymbolicLink(dir.resolve("other/loop"), dir.resolve("real"));
    Run loop = Run.in(dir, "render", "jobs", "-o", "out");
    assertThat(loop.exitCode()).isEqualTo(1);
    assertThat(loop.err())
        .contains(
            "jobs/linked/loop: error: symbolic link loop: it leads back to a directory that"
                + " contains it\n");
  }

  @Test
  void aPathThroughAFileIsNotADirectory() throws IOException {
    write("a.yaml", A);
    Run input = Run.in(dir, "render", "a.yaml/b.yaml");
    assertThat(input.exitCode()).isEqualTo(1);
    assertThat(input.err()).isEqualTo("a.yaml/b.yaml: error: not a directory\n");

    Run output = Run.in(dir, "render", "a.yaml", "-o", "a.yaml/out");
    assertThat(output.exitCode()).isEqualTo(1);
    assertThat(output.err()).isEqualTo("jobc: error: a.yaml: not a directory\n");
    Run deeper = Run.in(dir, "render", "a.yaml", "-o", "a.yaml/sub/out");
    assertThat(deeper.exitCode()).isEqualTo(1);
    assertThat(deeper.err()).isEqualTo("jobc: error: a.yaml/sub: not a directory\n");
    assertThat(listing("")).containsExactly("a.yaml");
  }

  @Test
  void stagingLeftByARenderThatDiedIsRemoved() throws IOException, InterruptedException {
    write("a.yaml", A);
    assertThat(Run.in(dir, "render", "a.yaml", "-o", "out").exitCode()).isZero();
    Process finished = new ProcessBuilder("true").start();
    finished.waitFor();
    long dead = finished.pid();
    write(".out.jobc-new-" + dead + "-0/configmap-a.yaml", "half\n");
    write(".out.jobc-old-" + dead + "-2/configmap-a.yaml", "old\n");
    write(".out.jobc-lock", "");
    // Names that are not jobc's staging of out are left alone.
    write(".out.jobc-new-notes/x", "");
    write(".other.jobc-new-" + dead + "-0/x", "");

    Run run = Run.in(dir, "render", "a.yaml", "-o", "out");
    assertThat(run.err()).isEmpty();
    assertThat(run.exitCode()).isZero();
    assertThat(listing(""))
        .containsExactly(".other.jobc-new-" + dead + "-0", ".out.jobc-new-notes", "a.yaml", "out");
  }

  @Test
  void outputIntoTheWorkingDirectoryKeepsItForTheCaller() throws Exception {
    write("a.yaml", A);
    write("b.yaml", B);
    Path work = Files.createDirectory(dir.resolve("work"));
    Object before = Files.readAttributes(work, "unix:ino,dev");
    assertThat(Run.in(work, "render", "../a.yaml", "-o", ".").exitCode()).isZero();
    Run second = Run.in(work, "render", "../b.yaml", "-o", ".");
    assertThat(second.err()).isEmpty();
    assertThat(second.exitCode()).isZero();
    // The same directory, not a new one in its place: a shell sitting in it still sees the files.
    assertThat(Files.readAttributes(work, "unix:ino,dev")).isEqualTo(before);
    assertThat(listing("work")).containsExactly(".jobc-files", "configmap-b.yaml");
    assertThat(listing("")).containsExactly("a.yaml", "b.yaml", "work");
  }

  @Test
  void outputInsideAnInputDirectoryIsRefusedUnlessHidden() throws IOException {
    write("jobs/a.yaml", A);
    Run inside = Run.in(dir, "render", "jobs", "-o", "jobs/rendered");
    assertThat(inside.exitCode()).isEqualTo(1);
    assertThat(inside.err())
        .isEqualTo(
            "jobc: error: refusing to replace jobs/rendered: it is inside the input directory"
                + " jobs, so the next render would read the files it writes as input; write the"
                + " output outside it (or into a hidden directory, which reading skips)\n");
    assertThat(dir.resolve("jobs/rendered")).doesNotExist();
    // Reading skips hidden directories: jobs/.rendered is never read back.
    assertThat(Run.in(dir, "render", "jobs", "-o", "jobs/.rendered").exitCode()).isZero();
    assertThat(Run.in(dir, "render", "jobs", "--check", "jobs/.rendered").exitCode()).isZero();
  }

  @Test
  void aFileNameThatIsNotUtf8IsSaidToBeSo() throws Exception {
    write("jobs/a.yaml", A);
    // "caf" and the Latin-1 byte for é: not UTF-8. Made by the shell, which writes bytes.
    Process p =
        new ProcessBuilder(
                "sh", "-c", "printf '%s' \"$1\" > \"jobs/caf$(printf '\\351').yaml\"", "sh", B)
            .directory(dir.toFile())
            .start();
    assertThat(p.waitFor()).isZero();
    Run run = Run.in(dir, "render", "jobs");
    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.err())
        .isEqualTo(
            "jobs/caf\ufffd.yaml: error: the file name is not valid UTF-8 (shown here with U+FFFD"
                + " for its bad bytes); rename it\n");
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
            "a.yaml:12:3: error: metadata.name: Duplicate value: ConfigMap other/a and ConfigMap"
                + " default/a (a.yaml:4) would both be written to out/configmap-a.yaml; give them"
                + " distinct names\n");
    assertThat(dir.resolve("out")).doesNotExist();
  }

  @Test
  void outputRefusesNamesThatMacOsOrWindowsTakeForOneFile() throws IOException {
    // "café" composed (U+00E9) and decomposed (e, U+0301); "straße" and "STRASSE" (ß folds to ss).
    write(
        "a.yaml",
        configMap("caf\u00e9", "default", "k: x")
            + "---\n"
            + configMap("cafe\u0301", "default", "k: y")
            + "---\n"
            + configMap("stra\u00dfe", "default", "k: x")
            + "---\n"
            + configMap("STRASSE", "default", "k: y"));
    Run run = Run.in(dir, "render", "a.yaml", "-o", "out");
    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.err())
        .isEqualTo(
            "a.yaml:12:3: error: metadata.name: Duplicate value: ConfigMap default/cafe\u0301 and"
                + " ConfigMap default/caf\u00e9 (a.yaml:4) would be written to"
                + " \"configmap-cafe\u0301.yaml\" and \"configmap-caf\u00e9.yaml\", one file on case-"
                + " and normalization-insensitive file systems (macOS, Windows); give them distinct"
                + " names\n"
                + "a.yaml:28:3: error: metadata.name: Duplicate value: ConfigMap default/STRASSE and"
                + " ConfigMap default/stra\u00dfe (a.yaml:20) would be written to"
                + " \"configmap-strasse.yaml\" and \"configmap-stra\u00dfe.yaml\", one file on case-"
                + " and normalization-insensitive file systems (macOS, Windows); give them distinct"
                + " names\n");
    assertThat(dir.resolve("out")).doesNotExist();
    // Printed to standard output they are four objects, as before.
    assertThat(Run.in(dir, "render", "a.yaml").exitCode()).isZero();
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
    String old = configMap("old", "default", "k: v");
    write("in/a.yaml", A);
    write("in/old.yaml", old);
    assertThat(Run.in(dir, "render", "in", "-o", "out").exitCode()).isZero();
    CompileResult result = compiled(new Source("in/a.yaml", A), new Source("in/b.yaml", B));
    List<String> a = UnifiedDiff.lines(result.objects().get(0).yaml());
    List<String> b = UnifiedDiff.lines(result.objects().get(1).yaml());
    List<String> gone = UnifiedDiff.lines(compiled(new Source("in/old.yaml", old)).yaml());
    List<String> record = UnifiedDiff.lines(read("out/.jobc-files"));
    assertThat(a).hasSizeGreaterThan(4);
    assertThat(record).hasSize(4);
    // configmap-a.yaml drifted in its first line, configmap-b.yaml is missing, and
    // configmap-old.yaml is no longer rendered.
    write("out/configmap-a.yaml", "x" + String.join("", a));
    write("in/b.yaml", B);
    Files.delete(dir.resolve("in/old.yaml"));

    Run run = Run.in(dir, "render", "in", "--check", "out");

    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.out()).isEmpty();
    assertThat(run.err())
        .isEqualTo(
            "--- out/.jobc-files\n"
                + "+++ .jobc-files (rendered)\n"
                + "@@ -1,4 +1,4 @@\n"
                + (" " + record.get(0))
                + (" " + record.get(1))
                + " configmap-a.yaml\n"
                + "-configmap-old.yaml\n"
                + "+configmap-b.yaml\n"
                + "--- out/configmap-a.yaml\n"
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
                + ("@@ -1," + gone.size() + " +0,0 @@\n")
                + gone.stream().map(line -> "-" + line).collect(Collectors.joining())
                + "jobc: error: out is not what the inputs render to; to update it, run:"
                + " jobc render in -o out\n");
    assertThat(listing("out"))
        .containsExactly(".jobc-files", "configmap-a.yaml", "configmap-old.yaml");
  }

  @Test
  void checkOfAMissingDirectoryIsAnError() throws IOException {
    write("a.yaml", A);
    Run run = Run.in(dir, "render", "a.yaml", "--check", "out");
    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.err())
        .isEqualTo(
            "out: error: no such directory\n"
                + "jobc: error: out is not what the inputs render to; to update it, run:"
                + " jobc render a.yaml -o out\n");
  }

  @Test
  void checkEndsWithTheCommandThatMakesTheDirectoryCurrent() throws IOException {
    write("my jobs/a.yaml", A);
    assertThat(Run.in(dir, "render", "my jobs", "-n", "x", "-o", "out").exitCode()).isZero();
    write("my jobs/b.yaml", B);
    Run run = Run.in(dir, "render", "-n", "x", "--check=out", "my jobs");
    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.err())
        .contains("+++ configmap-b.yaml (rendered)\n")
        .endsWith(
            "\njobc: error: out is not what the inputs render to; to update it, run:"
                + " jobc render -n x -o out 'my jobs'\n");
    // The command it names does that.
    assertThat(Run.in(dir, "render", "-n", "x", "-o", "out", "my jobs").exitCode()).isZero();
    assertThat(Run.in(dir, "render", "-n", "x", "--check=out", "my jobs").err()).isEmpty();
  }

  @Test
  void aRefusedCheckNamesNoCommand() throws IOException {
    write("in/a.yaml", A);
    write("out/mine.txt", "not jobc's\n");
    Run run = Run.in(dir, "render", "in", "--check", "out");
    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.err()).doesNotContain("to update it");
  }

  @Test
  void aFileGivenToCheckIsNamedAsTheDirectoryItWasTakenFor() throws IOException {
    write("jobs/pi.yaml", A);
    Run run = Run.in(dir, "render", "--check", "jobs/pi.yaml");
    assertUsageError(
        run,
        "jobc: error: no input: give a file, a directory or - (stdin); jobs/pi.yaml was taken as"
            + " the DIR of --check DIR\n");
    assertUsageError(
        Run.in(dir, "render", "-o", "jobs/pi.yaml"), "jobs/pi.yaml was taken as the DIR of -o DIR");
  }

  @Test
  void aFileLongerThanTheLimitIsOneLocatedErrorNeverReadWhole() throws IOException {
    int limit = InputLimits.defaults().maxFileChars();
    String tooLong =
        ":1:"
            + (limit + 1)
            + ": error: longer than "
            + limit
            + " characters, the limit for one input; split it into smaller files\n";

    Run zero = Run.in(dir, "render", "/dev/zero");
    assertThat(zero.exitCode()).isEqualTo(1);
    assertThat(zero.out()).isEmpty();
    assertThat(zero.err()).isEqualTo("/dev/zero" + tooLong);

    // 3 GB that take no disk space: more than a Java array can hold.
    try (RandomAccessFile big = new RandomAccessFile(dir.resolve("big.yaml").toFile(), "rw")) {
      big.setLength(3L << 30);
    }
    Run sparse = Run.in(dir, "render", "big.yaml", "-o", "out");
    assertThat(sparse.exitCode()).isEqualTo(1);
    assertThat(sparse.err()).isEqualTo("big.yaml" + tooLong);
    assertThat(dir.resolve("out")).doesNotExist();

    Run endless = Run.withStdin(dir, new EndlessInput(), "render", "-");
    assertThat(endless.exitCode()).isEqualTo(1);
    assertThat(endless.out()).isEmpty();
    assertThat(endless.err()).isEqualTo("<stdin>" + tooLong);
  }

  @Test
  void inputsTogetherLongerThanTheLimitStopReading() throws IOException {
    InputLimits limits = InputLimits.defaults();
    long files = limits.maxTotalChars() / limits.maxFileChars();
    assertThat(files * limits.maxFileChars()).isEqualTo(limits.maxTotalChars());
    // Files of the largest size allowed (sparse, so no disk is used) fill the total exactly.
    Files.createDirectories(dir.resolve("many"));
    for (int i = 0; i <= files; i++) {
      try (RandomAccessFile f =
          new RandomAccessFile(dir.resolve("many/" + i + ".yaml").toFile(), "rw")) {
        f.setLength(limits.maxFileChars());
      }
    }
    // Never read: it would be an error of its own.
    Files.write(dir.resolve("many/z.yaml"), new byte[] {(byte) 0xff});

    Run run = Run.in(dir, "render", "many");
    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.out()).isEmpty();
    assertThat(run.err())
        .contains(
            "many/"
                + files
                + ".yaml:1:1: error: the inputs together are longer than "
                + limits.maxTotalChars()
                + " characters, the limit for one run; render fewer files at a time\n")
        .doesNotContain("many/z.yaml");
  }

  @Test
  void helpStatesTheInputLimitsAndTheChangeFlag() {
    InputLimits limits = InputLimits.defaults();
    String help = Run.in(dir, "render", "--help").out().replaceAll("\\s+", " ");
    assertThat(help)
        .contains(
            "At most "
                + limits.maxFileChars()
                + " characters are read from one input, and "
                + limits.maxTotalChars()
                + " from all together.")
        .contains("--fail-if-changed With -o: exit 1 after writing when DIR changed");
  }

  @Test
  void krmReadsStandardInputWithinTheSameLimit() {
    int limit = InputLimits.defaults().maxFileChars();
    Run endless = Run.withStdin(dir, new EndlessInput(), "krm");
    assertThat(endless.exitCode()).isEqualTo(1);
    assertThat(endless.out()).isEmpty();
    assertThat(endless.err())
        .isEqualTo(
            "jobc krm: <stdin>:1:"
                + (limit + 1)
                + ": error: longer than "
                + limit
                + " characters, the limit for one input; split it into smaller files\n");
  }

  /** Standard input that never ends. */
  private static final class EndlessInput extends InputStream {
    @Override
    public int read() {
      return 'x';
    }

    @Override
    public int read(byte[] b, int off, int len) {
      Arrays.fill(b, off, off + len, (byte) 'x');
      return len;
    }
  }

  private static void assertUsageError(Run run, String message) {
    assertThat(run.exitCode()).as(run.err()).isEqualTo(2);
    assertThat(run.out()).isEmpty();
    assertThat(run.err()).contains(message);
  }

  /** -o and --check refuse {@code out} alike, and neither changes it. */
  private void assertRefused(String input, String out, String reason) throws IOException {
    Map<String, String> before = contents("out");
    Run write = Run.in(dir, "render", input, "-o", out);
    assertThat(write.exitCode()).isEqualTo(1);
    assertThat(write.out()).isEmpty();
    assertThat(write.err()).isEqualTo("jobc: error: refusing to replace out: " + reason + "\n");
    Run check = Run.in(dir, "render", input, "--check", out);
    assertThat(check.exitCode()).isEqualTo(1);
    assertThat(check.out()).isEmpty();
    assertThat(check.err()).isEqualTo("jobc: error: refusing to check out: " + reason + "\n");
    assertThat(contents("out")).isEqualTo(before);
  }

  /** Every file below {@code relative}, by path, with its text. */
  private Map<String, String> contents(String relative) throws IOException {
    Map<String, String> files = new TreeMap<>();
    try (Stream<Path> all = Files.walk(dir.resolve(relative))) {
      for (Path p : all.filter(Files::isRegularFile).collect(Collectors.toList())) {
        files.put(dir.relativize(p).toString(), Files.readString(p, UTF_8));
      }
    }
    return files;
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
