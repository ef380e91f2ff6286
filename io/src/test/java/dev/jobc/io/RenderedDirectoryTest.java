package dev.jobc.io;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.jobc.model.OutputObject;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link RenderedDirectory} on its own: object names that would leave the directory, and writers
 * racing each other. Kinds and names here are ones the compiler may not let through; the directory
 * must hold whatever it is given.
 */
class RenderedDirectoryTest {
  @TempDir Path tmp;

  @Test
  void aKindWithDotDotCannotWriteOutsideTheDirectory() throws IOException {
    // out is tmp/a/out; its staging sibling is tmp/a/.out.jobc-new-*, two levels below tmp.
    write("x/configmap-a.yaml", "precious\n");
    OutputDirectory out = dir("a/out");
    RenderedDirectory.Outcome outcome =
        RenderedDirectory.write(List.of(object("../../x/ConfigMap", "a")), out, List.of());
    assertThat(outcome.ok()).isFalse();
    assertThat(outcome.report())
        .isEqualTo(
            "jobc: error: refusing to write ../../x/ConfigMap default/a into a/out: its file name"
                + " \"../../x/configmap-a.yaml\" is not one plain file name: it contains a path"
                + " separator\n");
    assertThat(Files.readString(tmp.resolve("x/configmap-a.yaml"))).isEqualTo("precious\n");
    assertThat(listing(tmp)).containsExactly("x");
    assertThat(RenderedDirectory.check(List.of(object("../../x/ConfigMap", "a")), out).report())
        .isEqualTo(outcome.report());
  }

  @Test
  void anAbsoluteKindCannotWriteAnywhere() throws IOException {
    RenderedDirectory.Outcome outcome =
        RenderedDirectory.write(List.of(object("/abs/ConfigMap", "a")), dir("out"), List.of());
    assertThat(outcome.ok()).isFalse();
    assertThat(outcome.report())
        .isEqualTo(
            "jobc: error: refusing to write /abs/ConfigMap default/a into out: its file name"
                + " \"/abs/configmap-a.yaml\" is not one plain file name: it contains a path"
                + " separator\n");
    assertThat(Path.of("/abs")).doesNotExist();

    // An absolute path to a directory that exists: nothing may be written there either.
    write("victim/configmap-a.yaml", "precious\n");
    String victim = tmp.resolve("victim").toString();
    assertThat(victim).isEqualTo(victim.toLowerCase(java.util.Locale.ROOT));
    outcome =
        RenderedDirectory.write(List.of(object(victim + "/ConfigMap", "a")), dir("out"), List.of());
    assertThat(outcome.ok()).isFalse();
    assertThat(Files.readString(tmp.resolve("victim/configmap-a.yaml"))).isEqualTo("precious\n");
    assertThat(listing(tmp)).containsExactly("victim");
  }

  @Test
  void hiddenNamesAndControlCharactersAreRefusedWithAPrintableMessage() throws IOException {
    RenderedDirectory.Outcome outcome =
        RenderedDirectory.write(
            List.of(object("..", "x"), object("Config\0Map", "a\nb"), object("ConfigMap", "ok")),
            dir("out"),
            List.of());
    assertThat(outcome.ok()).isFalse();
    assertThat(outcome.report())
        .isEqualTo(
            "jobc: error: refusing to write .. default/x into out: its file name \"..-x.yaml\" is"
                + " not one plain file name: it starts with \".\" (hidden files are jobc's own)\n"
                + "jobc: error: refusing to write Config\\u0000Map default/a\\u000ab into out: its"
                + " file name \"config\\u0000map-a\\u000ab.yaml\" is not one plain file name: it"
                + " contains a control character\n");
    assertThat(listing(tmp)).isEmpty();
  }

  @Test
  void fileNamesMustBeOnePlainVisibleName() {
    assertThat(OutputDirectory.fileNameProblem("configmap-a.yaml")).isEmpty();
    for (String bad :
        List.of("", ".", "..", "a/b", "a\\b", "/a", "a\0b", ".jobc-files", "x".repeat(256))) {
      assertThat(OutputDirectory.fileNameProblem(bad)).as(bad).isPresent();
    }
  }

  @Test
  void concurrentWritersNeverRefuseEachOtherAndOneWinsWhole() throws Exception {
    List<OutputObject> first = List.of(object("ConfigMap", "a"), object("ConfigMap", "b"));
    List<OutputObject> second = List.of(object("ConfigMap", "a"), object("ConfigMap", "c"));
    OutputDirectory out = dir("out");
    assertThat(RenderedDirectory.write(first, out, List.of()).ok()).isTrue();
    int writers = 6;
    int rounds = 25;
    ExecutorService pool = Executors.newFixedThreadPool(writers + 1);
    try {
      for (int round = 0; round < rounds; round++) {
        CyclicBarrier start = new CyclicBarrier(writers + 1);
        List<Future<RenderedDirectory.Outcome>> writes = new ArrayList<>();
        for (int w = 0; w < writers; w++) {
          List<OutputObject> objects = w % 2 == 0 ? first : second;
          writes.add(
              pool.submit(
                  () -> {
                    start.await();
                    return RenderedDirectory.write(objects, out, List.of());
                  }));
        }
        Future<RenderedDirectory.Outcome> check =
            pool.submit(
                () -> {
                  start.await();
                  return RenderedDirectory.check(first, out);
                });
        for (Future<RenderedDirectory.Outcome> write : writes) {
          RenderedDirectory.Outcome outcome = write.get();
          assertThat(outcome.ok()).as(outcome.report()).isTrue();
        }
        // A check sees one render or another (or none yet), never a mix or a refusal.
        String report = check.get().report();
        assertThat(report).as(report).doesNotContain("error");
        if (!report.isEmpty()) {
          assertThat(report).startsWith("--- ");
        }
        List<String> files = listing(tmp.resolve("out"));
        assertThat(files)
            .isIn(
                List.of(".jobc-files", "configmap-a.yaml", "configmap-b.yaml"),
                List.of(".jobc-files", "configmap-a.yaml", "configmap-c.yaml"));
        List<OutputObject> winner = files.contains("configmap-b.yaml") ? first : second;
        assertThat(RenderedDirectory.check(winner, out).report()).isEmpty();
        assertThat(listing(tmp)).containsExactly("out");
      }
    } finally {
      pool.shutdownNow();
    }
  }

  /** A kill, as far as the swap can tell: an Error its cleanup does not catch. */
  private static final class Crash extends Error {
    private static final long serialVersionUID = 1L;
  }

  @Test
  void checkNeverAcceptsADirectoryWhoseSwapWasStoppedAndTheNextRenderRepairsIt()
      throws IOException {
    List<OutputObject> first = List.of(object("ConfigMap", "a"), object("ConfigMap", "b"));
    List<OutputObject> second =
        List.of(
            new OutputObject("v1", "ConfigMap", "default", "a", "kind: ConfigMap # changed\n"),
            object("ConfigMap", "c"));
    List<String> steps = new ArrayList<>();
    OutputDirectory probe = dir("probe");
    assertThat(RenderedDirectory.write(first, probe, List.of()).ok()).isTrue();
    OutputDirectory.steps = steps::add;
    try {
      assertThat(RenderedDirectory.write(second, probe, List.of()).ok()).isTrue();
    } finally {
      OutputDirectory.steps = step -> {};
    }
    assertThat(steps).contains("journal", "move:configmap-a.yaml", "cleanup");
    for (String at : steps) {
      OutputDirectory out = dir("out-" + steps.indexOf(at));
      assertThat(RenderedDirectory.write(first, out, List.of()).ok()).isTrue();
      OutputDirectory.steps =
          step -> {
            if (step.equals(at)) {
              throw new Crash();
            }
          };
      try {
        assertThatThrownBy(() -> RenderedDirectory.write(second, out, List.of()))
            .isInstanceOf(Crash.class);
      } finally {
        OutputDirectory.steps = step -> {};
      }
      RenderedDirectory.Outcome check = RenderedDirectory.check(second, out);
      // Before the journal the old render stands (and differs); from then on the files on disk
      // are a mix until a render finishes the swap: refused either way.
      assertThat(check.ok()).as(at).isFalse();
      assertThat(check.stale()).as(at).isTrue();
      if (steps.indexOf(at) > steps.indexOf("journal")) {
        assertThat(check.report())
            .as(at)
            .startsWith(out.name() + ": error: a render was stopped while it replaced the files");
      }
      assertThat(RenderedDirectory.write(second, out, List.of()).ok()).as(at).isTrue();
      assertThat(RenderedDirectory.check(second, out).ok()).as(at).isTrue();
      assertThat(listing(tmp.resolve(out.name())))
          .as(at)
          .containsExactly(".jobc-files", "configmap-a.yaml", "configmap-c.yaml");
    }
  }

  private OutputDirectory dir(String relative) {
    return new OutputDirectory(relative, tmp.resolve(relative));
  }

  private static OutputObject object(String kind, String name) {
    return new OutputObject(
        "v1",
        kind,
        "default",
        name,
        "apiVersion: v1\nkind: " + kind + "\nmetadata:\n  name: " + name + "\n");
  }

  private void write(String relative, String text) throws IOException {
    Path file = tmp.resolve(relative);
    Files.createDirectories(file.getParent());
    Files.writeString(file, text, UTF_8);
  }

  private static List<String> listing(Path dir) throws IOException {
    try (Stream<Path> entries = Files.list(dir)) {
      return entries.map(p -> p.getFileName().toString()).sorted().collect(Collectors.toList());
    }
  }
}
