package dev.jobc.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.FileSystemLoopException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The reasons jobc gives for I/O failures. Tests run as root, which no permission stops, so most
 * exceptions are made here as the JDK makes them from errno; a full disk is real ({@code
 * /dev/full}).
 */
class IoErrorsTest {
  @TempDir Path tmp;

  @Test
  void reasonsAreTheCLibrarysWordsWithoutPaths() {
    assertThat(IoErrors.reason(new AccessDeniedException("/x/out/a.yaml")))
        .isEqualTo("permission denied");
    assertThat(IoErrors.reason(new NoSuchFileException("/x/in")))
        .isEqualTo("no such file or directory");
    assertThat(IoErrors.reason(new NotDirectoryException("/x/in"))).isEqualTo("not a directory");
    assertThat(IoErrors.reason(new FileSystemLoopException("/x/in/loop")))
        .isEqualTo("symbolic link loop");
    assertThat(IoErrors.reason(new FileSystemException("/x/out", null, "No space left on device")))
        .isEqualTo("no space left on device");
    assertThat(IoErrors.reason(new FileSystemException("/x/out", null, "Read-only file system")))
        .isEqualTo("read-only file system");
    assertThat(IoErrors.reason(new IOException("Input/output error")))
        .isEqualTo("input/output error");
    assertThat(IoErrors.reason(new IOException())).isEqualTo("IOException");
  }

  @Test
  void aFullDiskNamesTheFileBeingWritten() {
    Path full = Path.of("/dev/full");
    assertThat(full).exists();
    assertThatThrownBy(
            () -> {
              try {
                Files.writeString(full, "x".repeat(100_000));
              } catch (IOException e) {
                throw IoErrors.naming(full, e);
              }
            })
        .isInstanceOfSatisfying(
            FileSystemException.class,
            e -> {
              assertThat(e.getFile()).isEqualTo("/dev/full");
              assertThat(IoErrors.reason(e)).isEqualTo("no space left on device");
            });
  }

  @Test
  void outputErrorsNameThePathAsTyped() throws IOException {
    Files.writeString(tmp.resolve("file"), "");
    OutputDirectory out = new OutputDirectory("file/sub/out/", tmp.resolve("file/sub/out"));
    assertThat(
            out.describe(
                new FileSystemException(tmp.resolve("file").toString(), null, "Not a directory")))
        .isEqualTo("file: not a directory");
    assertThat(
            out.describe(
                new AccessDeniedException(tmp.resolve("file/sub/.out.jobc-new-7-0").toString())))
        .isEqualTo("file/sub/.out.jobc-new-7-0: permission denied");
    assertThat(
            out.describe(new AccessDeniedException(tmp.resolve("file/sub/out/a.yaml").toString())))
        .isEqualTo("file/sub/out/a.yaml: permission denied");
    assertThat(out.describe(new IOException("No space left on device")))
        .isEqualTo("file/sub/out: no space left on device");
    assertThat(out.describe(new AccessDeniedException("/elsewhere")))
        .isEqualTo("/elsewhere: permission denied");
  }
}
