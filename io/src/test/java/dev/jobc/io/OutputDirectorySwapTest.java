package dev.jobc.io;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The swap of {@link OutputDirectory}: stopped at every one of its steps (the step hook throws, as
 * a kill would stop it: no cleanup runs), the directory is still there, reads as the old render or
 * the new one, and the next render finishes or undoes what was left. The directory itself is never
 * replaced: its identity, mode and group stay.
 */
class OutputDirectorySwapTest {
  @TempDir Path tmp;

  /** A kill, as far as the swap can tell: an Error its cleanup does not catch. */
  private static final class Crash extends Error {
    private static final long serialVersionUID = 1L;
  }

  @AfterEach
  void restoreHook() {
    OutputDirectory.steps = step -> {};
  }

  private static final SortedMap<String, String> A =
      files("configmap-a.yaml", "a: 1\n", "configmap-b.yaml", "b: 1\n", "configmap-c.yaml", "c\n");
  private static final SortedMap<String, String> B =
      files("configmap-a.yaml", "a: 2\n", "configmap-c.yaml", "c\n", "configmap-d.yaml", "d\n");
  private static final SortedMap<String, String> C = files("configmap-e.yaml", "e\n");

  private static SortedMap<String, String> files(String... nameAndText) {
    SortedMap<String, String> files = new TreeMap<>();
    for (int i = 0; i < nameAndText.length; i += 2) {
      files.put(nameAndText[i], nameAndText[i + 1]);
    }
    return files;
  }

  private OutputDirectory out() {
    return new OutputDirectory("out", tmp.resolve("out"));
  }

  /** Every step of replacing A with B, in order. */
  private List<String> stepsOfASwap() throws Exception {
    OutputDirectory out = new OutputDirectory("probe", tmp.resolve("probe"));
    out.replace(A, List.of());
    List<String> steps = new ArrayList<>();
    OutputDirectory.steps = steps::add;
    out.replace(B, List.of());
    OutputDirectory.steps = step -> {};
    return steps;
  }

  @Test
  void aSwapStoppedAtAnyStepLeavesTheOldRenderOrTheNewOneAndTheNextRenderCleansUp()
      throws Exception {
    List<String> steps = stepsOfASwap();
    assertThat(steps)
        .containsExactly(
            "locked",
            "stage:configmap-a.yaml",
            "stage:configmap-d.yaml",
            "stage:.jobc-files",
            "journal",
            "move:configmap-a.yaml",
            "move:configmap-d.yaml",
            "move:.jobc-files",
            "delete:configmap-b.yaml",
            "cleanup");
    for (String at : steps) {
      OutputDirectory out = out();
      OutputDirectory.deleteTree(tmp.resolve("out"));
      out.replace(A, List.of());
      OutputDirectory.steps =
          step -> {
            if (step.equals(at)) {
              throw new Crash();
            }
          };
      assertThatThrownBy(() -> out.replace(B, List.of())).isInstanceOf(Crash.class);
      OutputDirectory.steps = step -> {};

      assertThat(tmp.resolve("out")).as(at).isDirectory();
      OutputDirectory.Contents contents = out.contents().orElseThrow();
      // Until the journal is in place the old render stands; from then on, the new one, and the
      // swap is unfinished (what is on disk is a mix) until a render finishes it.
      boolean committed = steps.indexOf(at) > steps.indexOf("journal");
      assertThat(contents.files()).as(at).isEqualTo(OutputDirectory.withRecord(committed ? B : A));
      assertThat(contents.unfinished()).as(at).isEqualTo(committed);
      // The next render finishes or removes what was left, and nothing of it stays.
      assertThat(out.replace(C, List.of())).as(at).isNotEmpty();
      assertThat(listing(tmp.resolve("out")))
          .as(at)
          .containsExactly(".jobc-files", "configmap-e.yaml");
      assertThat(out.contents().orElseThrow().files()).isEqualTo(OutputDirectory.withRecord(C));
      assertThat(out.contents().orElseThrow().unfinished()).isFalse();
    }
  }

  @Test
  void aStoppedSwapIsFinishedByTheNextRenderOfTheSameFiles() throws Exception {
    OutputDirectory out = out();
    out.replace(A, List.of());
    OutputDirectory.steps =
        step -> {
          if (step.equals("move:configmap-d.yaml")) {
            throw new Crash();
          }
        };
    assertThatThrownBy(() -> out.replace(B, List.of())).isInstanceOf(Crash.class);
    OutputDirectory.steps = step -> {};
    // Half moved on disk: the new a, the old b; the journal finishes it.
    assertThat(Files.readString(tmp.resolve("out/configmap-a.yaml"))).isEqualTo("a: 2\n");
    assertThat(tmp.resolve("out/configmap-b.yaml")).exists();
    assertThat(out.replace(B, List.of())).isEmpty();
    assertThat(listing(tmp.resolve("out")))
        .containsExactly(".jobc-files", "configmap-a.yaml", "configmap-c.yaml", "configmap-d.yaml");
  }

  @Test
  void aFileAUserWritesIntoTheDirectoryDuringARenderIsNeverDeleted() throws Exception {
    OutputDirectory out = out();
    out.replace(A, List.of());
    OutputDirectory.steps =
        step -> {
          if (step.equals("journal")) {
            try {
              Files.writeString(tmp.resolve("out/notes.txt"), "mine\n");
            } catch (IOException e) {
              throw new IllegalStateException(e);
            }
          }
        };
    out.replace(B, List.of());
    OutputDirectory.steps = step -> {};
    assertThat(Files.readString(tmp.resolve("out/notes.txt"))).isEqualTo("mine\n");
    // The next render says it is there, and touches nothing.
    assertThatThrownBy(() -> out.replace(C, List.of()))
        .isInstanceOf(OutputDirectory.Refusal.class)
        .hasMessage("it contains out/notes.txt, which jobc did not write");
    assertThat(Files.readString(tmp.resolve("out/notes.txt"))).isEqualTo("mine\n");
  }

  @Test
  void theDirectoryKeepsItsIdentityModeAndGroup() throws Exception {
    Path dir = Files.createDirectory(tmp.resolve("out"));
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxrwxr-x"));
    // The setgid bit, which Java's permission sets cannot express: chmod does.
    assertThat(new ProcessBuilder("chmod", "g+s", dir.toString()).start().waitFor()).isZero();
    int gid = (Integer) Files.getAttribute(dir, "unix:gid") == 4321 ? 4322 : 4321;
    Files.setAttribute(dir, "unix:gid", gid);
    Object identity = Files.readAttributes(dir, "unix:ino,dev");
    int mode = (Integer) Files.getAttribute(dir, "unix:mode");

    OutputDirectory out = out();
    out.replace(A, List.of());
    out.replace(B, List.of());

    assertThat(Files.readAttributes(dir, "unix:ino,dev")).isEqualTo(identity);
    assertThat((Integer) Files.getAttribute(dir, "unix:mode")).isEqualTo(mode);
    assertThat((Integer) Files.getAttribute(dir, "unix:gid")).isEqualTo(gid);
    // Files made in a setgid directory take its group, as any made there do.
    assertThat((Integer) Files.getAttribute(dir.resolve("configmap-d.yaml"), "unix:gid"))
        .isEqualTo(gid);
  }

  @Test
  void aLinkPlantedAsTheLockFileIsRefusedNeverFollowed() throws Exception {
    OutputDirectory out = out();
    out.replace(A, List.of());
    Path target = tmp.resolve("elsewhere/created-by-jobc");
    Files.createDirectories(target.getParent());
    Files.createSymbolicLink(tmp.resolve("out/.jobc-lock"), target);
    // The lock file of jobc before this version, next to the directory, likewise.
    Path old = tmp.resolve("elsewhere/old-lock-target");
    Files.createSymbolicLink(tmp.resolve(".out.jobc-lock"), old);

    assertThatThrownBy(() -> out.replace(B, List.of()))
        .isInstanceOf(OutputDirectory.Refusal.class)
        .hasMessage(
            "it holds out/.jobc-lock, which is not jobc's lock file; remove it and render again");
    assertThat(target).doesNotExist();
    Files.delete(tmp.resolve("out/.jobc-lock"));
    out.replace(B, List.of());
    assertThat(target).doesNotExist();
    assertThat(old).doesNotExist();
    assertThat(tmp.resolve(".out.jobc-lock")).isSymbolicLink();
  }

  @Test
  void aDirectoryLeftMissingByAnOlderJobcIsFinishedOrRestored() throws Exception {
    // Killed between its two renames: the new copy was complete, the old one is the previous.
    write(".out.jobc-old-77-0/configmap-a.yaml", "a: 1\n");
    write(".out.jobc-old-77-0/.jobc-files", "configmap-a.yaml\n");
    write(".out.jobc-new-77-0/configmap-a.yaml", "a: 2\n");
    write(".out.jobc-new-77-0/.jobc-files", "configmap-a.yaml\n");
    OutputDirectory out = out();
    assertThat(out.replace(files("configmap-a.yaml", "a: 2\n"), List.of()))
        .extracting(OutputDirectory.Change::fileName)
        .containsExactly(".jobc-files"); // its header is new; configmap-a.yaml was finished
    assertThat(listing(tmp)).containsExactly("out");

    // Only the old copy: restored, never deleted.
    OutputDirectory.deleteTree(tmp.resolve("out"));
    write(".out.jobc-old-78-0/configmap-a.yaml", "a: 1\n");
    write(".out.jobc-old-78-0/.jobc-files", "configmap-a.yaml\n");
    assertThat(out.contents()).isEmpty();
    out.replace(files("configmap-a.yaml", "a: 1\n"), List.of());
    assertThat(listing(tmp)).containsExactly("out");
    assertThat(Files.readString(tmp.resolve("out/configmap-a.yaml"))).isEqualTo("a: 1\n");
  }

  @Test
  void aSymbolicLinkThenDotDotIsResolvedAsTheSystemResolvesIt() throws Exception {
    Files.createDirectories(tmp.resolve("deep/down"));
    Files.createSymbolicLink(tmp.resolve("lnk"), tmp.resolve("deep/down"));
    OutputDirectory out = new OutputDirectory("lnk/../out", tmp.resolve("lnk/../out"));
    out.replace(A, List.of());
    // lnk/.. is deep, where lnk points from, not tmp.
    assertThat(tmp.resolve("deep/out/configmap-a.yaml")).exists();
    assertThat(tmp.resolve("out")).doesNotExist();
    assertThat(out.contents().orElseThrow().files()).isEqualTo(OutputDirectory.withRecord(A));
  }

  @Test
  void filesLongerThanAnyJobcWritesAreNotReadWhole() throws Exception {
    OutputDirectory out = out();
    out.replace(A, List.of());
    try (var channel =
        java.nio.channels.FileChannel.open(
            tmp.resolve("out/configmap-a.yaml"), java.nio.file.StandardOpenOption.WRITE)) {
      channel.write(java.nio.ByteBuffer.wrap(new byte[] {'x'}), OutputDirectory.MAX_FILE_BYTES);
    }
    OutputDirectory.Contents contents = out.contents().orElseThrow();
    assertThat(contents.notRead()).containsExactly("configmap-a.yaml");
    assertThat(contents.files().get("configmap-a.yaml")).isEmpty();
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

  @SuppressWarnings("unused")
  private static Consumer<String> none() {
    return step -> {};
  }
}
