package dev.jobc.frontend;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFileAttributeView;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * A directory that holds exactly the files of one render ({@code render -o DIR}), replaced as a
 * whole, and read back for {@code render --check DIR}.
 *
 * <p>jobc owns such a directory completely: replacing it deletes every file the render no longer
 * produces. That is only safe for a directory jobc could have written, so anything else in it (a
 * subdirectory, a dotfile, a non-YAML file) makes jobc refuse.
 */
public final class OutputDirectory {
  private final String name;
  private final Path path;

  /**
   * @param name the directory as the user typed it, for messages
   * @param path the same directory resolved against the working directory
   */
  public OutputDirectory(String name, Path path) {
    this.name = stripTrailingSlashes(name);
    this.path = path;
  }

  /** The directory as the user typed it. */
  public String name() {
    return name;
  }

  /** {@code DIR/file}, as diff headers and messages show it. */
  public String display(String fileName) {
    return InputFiles.join(name, fileName);
  }

  /**
   * Why this directory must not be replaced, or empty when it may: it is not a directory, it holds
   * something jobc did not write, or one of {@code inputs} lies inside it.
   */
  public Optional<String> refusal(List<InputFiles.File> inputs) throws IOException {
    if (Files.exists(path, LinkOption.NOFOLLOW_LINKS) && !Files.isDirectory(path)) {
      return Optional.of("refusing to replace " + name + ": it is not a directory");
    }
    if (Files.isDirectory(path)) {
      for (Path entry : sortedEntries()) {
        if (!isRenderedFile(entry)) {
          String shown = display(entry.getFileName().toString());
          if (Files.isDirectory(entry, LinkOption.NOFOLLOW_LINKS)) {
            shown += "/";
          }
          return Optional.of(
              "refusing to replace "
                  + name
                  + ": it contains "
                  + shown
                  + ", which jobc did not write");
        }
      }
    }
    Path target = canonical(path);
    for (InputFiles.File input : inputs) {
      if (canonical(input.path()).startsWith(target)) {
        return Optional.of(
            "refusing to replace "
                + name
                + ": it contains the input "
                + input.name()
                + "; write the output somewhere else");
      }
    }
    return Optional.empty();
  }

  /**
   * The {@code *.yaml} / {@code *.yml} files now in the directory, by file name; empty when the
   * directory does not exist.
   */
  public SortedMap<String, String> read() throws IOException {
    SortedMap<String, String> files = new TreeMap<>();
    if (!Files.isDirectory(path)) {
      return files;
    }
    for (Path entry : sortedEntries()) {
      if (Files.isRegularFile(entry) && InputFiles.isYaml(entry)) {
        // Lenient decoding on purpose: bytes that are not UTF-8 are drift, and the diff shows them.
        files.put(
            entry.getFileName().toString(),
            new String(Files.readAllBytes(entry), StandardCharsets.UTF_8));
      }
    }
    return files;
  }

  /** Whether the directory exists. */
  public boolean exists() {
    return Files.isDirectory(path);
  }

  /**
   * Makes the directory hold exactly {@code files} (file name to text). Everything is written to a
   * new sibling directory first and then swapped in by renames, so a failure leaves the directory
   * as it was and a reader never sees a half-written set. Call {@link #refusal} first.
   */
  public void replace(SortedMap<String, String> files) throws IOException {
    Path target = path.toAbsolutePath().normalize();
    Path parent = target.getParent();
    if (parent == null) {
      throw new IOException("cannot replace the root directory");
    }
    if (Files.isSymbolicLink(target)) {
      // Swap the directory the link points to, and keep the link.
      target = target.toRealPath();
      parent = target.getParent();
    }
    Files.createDirectories(parent);
    String base = target.getFileName().toString();
    Path fresh = createSibling(parent, "." + base + ".jobc-new-");
    try {
      copyPermissions(target, fresh);
      for (var file : files.entrySet()) {
        Files.writeString(fresh.resolve(file.getKey()), file.getValue(), StandardCharsets.UTF_8);
      }
      swap(target, fresh, parent, base);
    } catch (IOException | RuntimeException e) {
      try {
        deleteTree(fresh);
      } catch (IOException cleanup) {
        e.addSuppressed(cleanup);
      }
      throw e;
    }
  }

  private static void swap(Path target, Path fresh, Path parent, String base) throws IOException {
    if (!Files.exists(target, LinkOption.NOFOLLOW_LINKS)) {
      move(fresh, target);
      return;
    }
    // The name must not exist when the old directory is moved to it, so reserve it and free it.
    Path old = createSibling(parent, "." + base + ".jobc-old-");
    Files.delete(old);
    move(target, old);
    try {
      move(fresh, target);
    } catch (IOException | RuntimeException e) {
      move(old, target);
      throw e;
    }
    try {
      deleteTree(old);
    } catch (IOException e) {
      throw new IOException(
          "the new files are in place, but the previous copy could not be removed: " + old, e);
    }
  }

  private static void move(Path from, Path to) throws IOException {
    try {
      Files.move(from, to, StandardCopyOption.ATOMIC_MOVE);
    } catch (AtomicMoveNotSupportedException e) {
      // Same parent, so this only happens on unusual file systems; a plain rename is still one
      // step.
      Files.move(from, to);
    }
  }

  private static Path createSibling(Path parent, String prefix) throws IOException {
    // Not Files.createTempDirectory: it creates mode 0700, and the directory is about to become
    // DIR.
    long pid = ProcessHandle.current().pid();
    for (int attempt = 0; ; attempt++) {
      Path candidate = parent.resolve(prefix + pid + "-" + attempt);
      try {
        return Files.createDirectory(candidate);
      } catch (FileAlreadyExistsException e) {
        if (attempt >= 100) {
          throw e;
        }
      }
    }
  }

  private static void copyPermissions(Path from, Path to) throws IOException {
    PosixFileAttributeView source = Files.getFileAttributeView(from, PosixFileAttributeView.class);
    PosixFileAttributeView target = Files.getFileAttributeView(to, PosixFileAttributeView.class);
    if (source != null && target != null && Files.isDirectory(from)) {
      target.setPermissions(source.readAttributes().permissions());
    }
  }

  private List<Path> sortedEntries() throws IOException {
    List<Path> entries = new ArrayList<>();
    try (DirectoryStream<Path> stream = Files.newDirectoryStream(path)) {
      stream.forEach(entries::add);
    }
    entries.sort((a, b) -> a.getFileName().toString().compareTo(b.getFileName().toString()));
    return entries;
  }

  private static boolean isRenderedFile(Path entry) {
    String fileName = entry.getFileName().toString();
    return !fileName.startsWith(".")
        && InputFiles.isYaml(entry)
        && Files.isRegularFile(entry, LinkOption.NOFOLLOW_LINKS);
  }

  /** The real path of {@code p}, or of its nearest existing ancestor plus the rest. */
  private static Path canonical(Path p) throws IOException {
    Path absolute = p.toAbsolutePath().normalize();
    Path existing = absolute;
    while (existing != null && !Files.exists(existing)) {
      existing = existing.getParent();
    }
    if (existing == null) {
      return absolute;
    }
    return existing.toRealPath().resolve(existing.relativize(absolute));
  }

  private static void deleteTree(Path root) throws IOException {
    if (!Files.exists(root, LinkOption.NOFOLLOW_LINKS)) {
      return;
    }
    Files.walkFileTree(
        root,
        new SimpleFileVisitor<>() {
          @Override
          public FileVisitResult visitFile(Path file, BasicFileAttributes attrs)
              throws IOException {
            Files.delete(file);
            return FileVisitResult.CONTINUE;
          }

          @Override
          public FileVisitResult postVisitDirectory(Path dir, IOException e) throws IOException {
            if (e != null) {
              throw e;
            }
            Files.delete(dir);
            return FileVisitResult.CONTINUE;
          }
        });
  }

  private static String stripTrailingSlashes(String s) {
    String out = s;
    while (out.length() > 1 && out.endsWith("/")) {
      out = out.substring(0, out.length() - 1);
    }
    return out;
  }
}
