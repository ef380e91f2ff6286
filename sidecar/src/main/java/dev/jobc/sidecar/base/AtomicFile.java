package dev.jobc.sidecar.base;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;

/**
 * Replaces a file so that readers see either the old or the new content, never a mix: the content
 * goes to a temporary file in the same directory, is flushed, then renamed over the target.
 */
public final class AtomicFile {
  /** {@code r-xr-xr-x}: scripts ({@code discover_hosts.sh}, {@code kubexec.sh}). */
  public static final Set<PosixFilePermission> EXECUTABLE =
      PosixFilePermissions.fromString("r-xr-xr-x");

  /** {@code r--r--r--}: data files ({@code hostfile}, DGL's files). */
  public static final Set<PosixFilePermission> READ_ONLY =
      PosixFilePermissions.fromString("r--r--r--");

  private AtomicFile() {}

  /** Writes {@code content} (UTF-8) to {@code target} atomically with the given permissions. */
  public static void write(Path target, String content, Set<PosixFilePermission> permissions)
      throws IOException {
    Path dir = target.toAbsolutePath().getParent();
    Path temp = Files.createTempFile(dir, "." + target.getFileName() + ".", ".tmp");
    try {
      try (FileChannel out = FileChannel.open(temp, StandardOpenOption.WRITE)) {
        ByteBuffer bytes = ByteBuffer.wrap(content.getBytes(StandardCharsets.UTF_8));
        while (bytes.hasRemaining()) {
          out.write(bytes);
        }
        out.force(true);
      }
      if (Files.getFileStore(temp).supportsFileAttributeView("posix")) {
        Files.setPosixFilePermissions(temp, permissions);
      }
      try {
        Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE);
      } catch (AtomicMoveNotSupportedException e) {
        // Same directory, so this only happens on exotic file systems; say so instead of
        // silently writing in place.
        throw new IOException("cannot rename atomically in " + dir, e);
      }
    } finally {
      Files.deleteIfExists(temp);
    }
  }
}
