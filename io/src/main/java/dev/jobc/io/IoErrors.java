package dev.jobc.io;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.FileSystemLoopException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.util.Locale;

/**
 * The words for an I/O failure, the way the C library says them ("permission denied", "no space
 * left on device"), without Java exception names or the absolute paths exceptions carry: callers
 * name the file as the user typed it.
 */
public final class IoErrors {
  private IoErrors() {} // don't instantiate

  /** Why {@code e} happened, in lower case, without a path. */
  public static String reason(IOException e) {
    if (e instanceof NoSuchFileException) {
      return "no such file or directory";
    }
    if (e instanceof AccessDeniedException) {
      return "permission denied";
    }
    if (e instanceof NotDirectoryException) {
      return "not a directory";
    }
    if (e instanceof DirectoryNotEmptyException) {
      return "directory not empty";
    }
    if (e instanceof FileAlreadyExistsException) {
      return "file exists";
    }
    if (e instanceof FileSystemLoopException) {
      return "symbolic link loop";
    }
    // Other FileSystemExceptions carry strerror's text as the reason ("No space left on device").
    String text =
        e instanceof FileSystemException f && f.getReason() != null
            ? f.getReason()
            : e.getMessage();
    if (text == null || text.isBlank()) {
      return e.getClass().getSimpleName();
    }
    return lowerFirst(text);
  }

  /**
   * {@code e} as an exception that names {@code file}: writes to a full disk fail with a bare "No
   * space left on device" that says nowhere which file it was.
   */
  static IOException naming(Path file, IOException e) {
    if (e instanceof FileSystemException f && f.getFile() != null) {
      return e;
    }
    FileSystemException named = new FileSystemException(file.toString(), null, reason(e));
    named.initCause(e);
    return named;
  }

  /** "No such device" → "no such device", but "NFS ..." stays as it is. */
  private static String lowerFirst(String s) {
    if (s.length() > 1
        && Character.isUpperCase(s.charAt(0))
        && Character.isUpperCase(s.charAt(1))) {
      return s;
    }
    return s.substring(0, 1).toLowerCase(Locale.ROOT) + s.substring(1);
  }
}
