package dev.jobc.io;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFileAttributeView;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * A directory that holds exactly the files of one render ({@code render -o DIR}), replaced as a
 * whole, and read back for {@code render --check DIR}.
 *
 * <p>Replacing the directory deletes every file the render no longer produces, so jobc replaces
 * only what it wrote. Each render leaves a record, {@value #RECORD}, listing the files it wrote, in
 * the same swap as the files; a directory that holds anything not on that list, or files and no
 * list, is refused. Writers hold a {@link DirectoryLock} while they judge, write and swap, and
 * remove staging directories of renders that died.
 */
public final class OutputDirectory {
  /** The file inside the directory that lists the files jobc wrote there. */
  public static final String RECORD = ".jobc-files";

  private static final String RECORD_HEADER =
      "# The files jobc rendered into this directory. Commit this file with them: jobc replaces\n"
          + "# the directory only while it holds these files and nothing else.\n";

  /** The longest file name most file systems accept. */
  private static final int MAX_NAME_BYTES = 255;

  /** A record larger than this is not one jobc wrote (it would list a million files). */
  private static final long MAX_RECORD_BYTES = 64L * 1024 * 1024;

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

  /** Why jobc will not replace (or check) a directory: it may hold files jobc did not write. */
  public static final class Refusal extends Exception {
    private static final long serialVersionUID = 1L;

    Refusal(String reason) {
      super(reason);
    }
  }

  /**
   * One file a replacement added, changed or removed.
   *
   * @param fileName the name inside the directory
   */
  public record Change(String fileName, Kind kind) {
    /** What happened to the file. */
    public enum Kind {
      ADDED,
      CHANGED,
      REMOVED;

      /** "added", "changed", "removed". */
      public String word() {
        return name().toLowerCase(java.util.Locale.ROOT);
      }
    }
  }

  /** The directory as the user typed it. */
  public String name() {
    return name;
  }

  /** {@code DIR/file}, as diff headers and messages show it. */
  public String display(String fileName) {
    return InputFiles.join(name, fileName);
  }

  /** Whether the directory exists. */
  public boolean exists() {
    return Files.isDirectory(path);
  }

  /**
   * Why {@code fileName} cannot be written directly into a directory, or empty when it can: it must
   * be one plain, visible name (hidden names are jobc's own, like {@link #RECORD}).
   */
  public static Optional<String> fileNameProblem(String fileName) {
    if (fileName.isEmpty()) {
      return Optional.of("it is empty");
    }
    if (fileName.equals(".") || fileName.equals("..")) {
      return Optional.of("it names a directory");
    }
    if (fileName.indexOf('/') >= 0 || fileName.indexOf('\\') >= 0) {
      return Optional.of("it contains a path separator");
    }
    for (int i = 0; i < fileName.length(); i++) {
      char c = fileName.charAt(i);
      if (c < 0x20 || c == 0x7f) {
        return Optional.of("it contains a control character");
      }
    }
    if (fileName.startsWith(".")) {
      return Optional.of("it starts with \".\" (hidden files are jobc's own)");
    }
    if (fileName.getBytes(StandardCharsets.UTF_8).length > MAX_NAME_BYTES) {
      return Optional.of("it is longer than " + MAX_NAME_BYTES + " bytes");
    }
    return Optional.empty();
  }

  /** {@code files} and the record listing them: what {@link #replace} makes the directory hold. */
  public static SortedMap<String, String> withRecord(SortedMap<String, String> files) {
    SortedMap<String, String> all = new TreeMap<>(files);
    StringBuilder record = new StringBuilder(RECORD_HEADER);
    for (String fileName : files.keySet()) {
      record.append(fileName).append('\n');
    }
    all.put(RECORD, record.toString());
    return all;
  }

  /**
   * The files now directly in the directory (the record among them), by name; empty when the
   * directory does not exist. Does not judge who wrote them.
   */
  public SortedMap<String, String> read() throws IOException {
    return Files.isDirectory(path) ? read(path) : new TreeMap<>();
  }

  /**
   * The files in the directory, as {@link #read}, or empty when it does not exist; for comparing
   * with a render. A render that swaps the directory meanwhile makes this read it again, so the
   * result is one render's files, never a mix.
   *
   * @throws Refusal when the directory holds something jobc did not write
   */
  public Optional<SortedMap<String, String>> contents() throws IOException, Refusal {
    boolean waited = false;
    for (int attempt = 1; ; attempt++) {
      Object before = identity(path);
      if (before == null) {
        // Between a render's two renames the directory is briefly missing; wait for the render.
        if (waited || !swapping()) {
          return Optional.empty();
        }
        waited = true;
        waitForWriters();
        continue;
      }
      try {
        judge(path, List.of());
        SortedMap<String, String> files = read(path);
        if (before.equals(identity(path))) {
          return Optional.of(files);
        }
      } catch (IOException | Refusal e) {
        if (before.equals(identity(path))) {
          throw e;
        }
      }
      if (attempt == 100) {
        throw new IOException(name + ": it kept changing while it was read; try again");
      }
    }
  }

  /**
   * Makes the directory hold exactly {@code files} (file name to text) and their record. Everything
   * is written to a new sibling directory first and then swapped in by renames, so a failure leaves
   * the directory as it was and a reader never sees a half-written set; when nothing would change,
   * nothing is touched.
   *
   * @return what changed, by file name; empty when the directory already held the render
   * @throws Refusal when the directory holds something jobc did not write, or one of {@code inputs}
   */
  public List<Change> replace(SortedMap<String, String> files, List<InputFiles.File> inputs)
      throws IOException, Refusal {
    for (String fileName : files.keySet()) {
      // RenderedDirectory reports bad names first; this is the last line of defence.
      Optional<String> problem = fileNameProblem(fileName);
      if (problem.isPresent()) {
        throw new IllegalArgumentException("file name \"" + fileName + "\": " + problem.get());
      }
    }
    Path target = target();
    if (target.getParent() == null) {
      throw new Refusal("it is the root directory");
    }
    Path parent = target.getParent();
    createDirectories(parent);
    String base = target.getFileName().toString();
    DirectoryLock lock = DirectoryLock.acquire(lockFile(target));
    try {
      // Only under the lock: another writer's swap briefly moves the directory away.
      if (Files.exists(path, LinkOption.NOFOLLOW_LINKS) && !Files.isDirectory(path)) {
        throw new Refusal("it is not a directory");
      }
      removeStaging(parent, base);
      judge(target, inputs);
      return stageAndSwap(target, files, parent, base);
    } finally {
      lock.close();
    }
  }

  private static List<Change> stageAndSwap(
      Path target, SortedMap<String, String> files, Path parent, String base) throws IOException {
    Path fresh = createSibling(parent, "." + base + ".jobc-new-");
    try {
      copyPermissions(target, fresh);
      for (var file : withRecord(files).entrySet()) {
        Path written = fresh.resolve(file.getKey());
        try {
          Files.writeString(written, file.getValue(), StandardCharsets.UTF_8);
        } catch (IOException e) {
          throw IoErrors.naming(written, e);
        }
      }
      List<Change> changes = changes(target, fresh);
      if (changes.isEmpty()) {
        deleteTree(fresh);
      } else {
        swap(target, fresh, parent, base);
      }
      return changes;
    } catch (IOException | RuntimeException e) {
      try {
        deleteTree(fresh);
      } catch (IOException cleanup) {
        e.addSuppressed(cleanup);
      }
      throw e;
    }
  }

  /**
   * The directory that is swapped: this one, or the one it links to (the link is kept). Absolute,
   * so that it has a parent to hold the staging directories.
   */
  private Path target() throws IOException {
    Path target = path.toAbsolutePath().normalize();
    return Files.isSymbolicLink(target) && Files.isDirectory(target) ? target.toRealPath() : target;
  }

  /** The lock every writer of {@code target} takes; see {@link DirectoryLock}. */
  private static Path lockFile(Path target) {
    return target.resolveSibling("." + target.getFileName() + ".jobc-lock");
  }

  /** Whether a render is between its two renames: the old directory is moved away. */
  private boolean swapping() throws IOException {
    Path target = target();
    Pattern old = staging(target.getFileName().toString(), "old");
    try (DirectoryStream<Path> siblings = Files.newDirectoryStream(target.getParent())) {
      for (Path sibling : siblings) {
        if (old.matcher(sibling.getFileName().toString()).matches()) {
          return true;
        }
      }
    } catch (NoSuchFileException e) {
      // No parent, so no render swapping beside it: the directory is simply missing.
      return false;
    }
    return false;
  }

  /** Returns once no render of this directory runs; at once where the lock cannot be taken. */
  private void waitForWriters() {
    try {
      DirectoryLock.acquire(lockFile(target())).close();
    } catch (IOException e) {
      // No lock to take (a read-only place, say, where nobody renders either): the caller looks
      // once more and then reports the directory missing, which is what it is.
    }
  }

  private static Pattern staging(String base, String kinds) {
    return Pattern.compile("\\." + Pattern.quote(base) + "\\.jobc-(" + kinds + ")-\\d+-\\d+");
  }

  /**
   * {@code e} as one line without the {@code jobc: error: } prefix: the file as the user would name
   * it, then why.
   */
  public String describe(IOException e) {
    String file =
        e instanceof FileSystemException f && f.getFile() != null ? shown(f.getFile()) : name;
    return file + ": " + IoErrors.reason(e);
  }

  /**
   * Throws when jobc must not replace {@code dir}: it is not a directory, it holds something jobc
   * did not write, or one of {@code inputs} lies inside it.
   */
  private void judge(Path dir, List<InputFiles.File> inputs) throws IOException, Refusal {
    if (Files.exists(dir, LinkOption.NOFOLLOW_LINKS) && !Files.isDirectory(dir)) {
      throw new Refusal("it is not a directory");
    }
    Path real = canonical(dir);
    for (InputFiles.File input : inputs) {
      if (canonical(input.path()).startsWith(real)) {
        throw new Refusal(
            "it contains the input " + input.name() + "; write the output somewhere else");
      }
    }
    if (Files.isDirectory(dir)) {
      List<Path> entries = sortedEntries(dir);
      Path record = dir.resolve(RECORD);
      if (!Files.isRegularFile(record, LinkOption.NOFOLLOW_LINKS)) {
        if (!entries.isEmpty()) {
          throw new Refusal(
              "it holds "
                  + shownEntry(entries.get(0))
                  + " but no "
                  + display(RECORD)
                  + ", the list of files jobc wrote; move your files elsewhere (or, if jobc wrote"
                  + " them, delete them) and render again");
        }
      } else {
        Set<String> written = readRecord(record);
        for (Path entry : entries) {
          String fileName = entry.getFileName().toString();
          if (!fileName.equals(RECORD)
              && !(written.contains(fileName)
                  && Files.isRegularFile(entry, LinkOption.NOFOLLOW_LINKS))) {
            throw new Refusal("it contains " + shownEntry(entry) + ", which jobc did not write");
          }
        }
      }
    }
  }

  private String shownEntry(Path entry) {
    String shown = display(entry.getFileName().toString());
    return Files.isDirectory(entry, LinkOption.NOFOLLOW_LINKS) ? shown + "/" : shown;
  }

  private static Set<String> readRecord(Path record) throws IOException {
    if (Files.size(record) > MAX_RECORD_BYTES) {
      throw new FileSystemException(record.toString(), null, "larger than any list jobc writes");
    }
    Set<String> names = new HashSet<>();
    for (String line : Files.readString(record, StandardCharsets.UTF_8).split("\n", -1)) {
      // Tolerate a checkout that turned line ends into CRLF.
      String fileName = line.endsWith("\r") ? line.substring(0, line.length() - 1) : line;
      if (!fileName.isEmpty() && !fileName.startsWith("#")) {
        names.add(fileName);
      }
    }
    return names;
  }

  private static SortedMap<String, String> read(Path dir) throws IOException {
    SortedMap<String, String> files = new TreeMap<>();
    for (Path entry : sortedEntries(dir)) {
      if (Files.isRegularFile(entry, LinkOption.NOFOLLOW_LINKS)) {
        // Lenient decoding on purpose: bytes that are not UTF-8 are drift, and the diff shows them.
        files.put(
            entry.getFileName().toString(),
            new String(Files.readAllBytes(entry), StandardCharsets.UTF_8));
      }
    }
    return files;
  }

  /**
   * What tells one version of the directory from the next: every render swaps in a new directory.
   * Null when it does not exist.
   */
  private static Object identity(Path dir) throws IOException {
    try {
      BasicFileAttributes a = Files.readAttributes(dir, BasicFileAttributes.class);
      return List.of(Objects.requireNonNullElse(a.fileKey(), ""), a.lastModifiedTime());
    } catch (NoSuchFileException e) {
      return null;
    }
  }

  /** The files of {@code fresh} compared with those of {@code target}, by name. */
  private static List<Change> changes(Path target, Path fresh) throws IOException {
    TreeSet<String> names = new TreeSet<>();
    for (Path entry : sortedEntries(fresh)) {
      names.add(entry.getFileName().toString());
    }
    if (Files.isDirectory(target)) {
      for (Path entry : sortedEntries(target)) {
        names.add(entry.getFileName().toString());
      }
    }
    List<Change> changes = new ArrayList<>();
    for (String fileName : names) {
      Path before = target.resolve(fileName);
      Path after = fresh.resolve(fileName);
      if (!Files.exists(before, LinkOption.NOFOLLOW_LINKS)) {
        changes.add(new Change(fileName, Change.Kind.ADDED));
      } else if (!Files.exists(after, LinkOption.NOFOLLOW_LINKS)) {
        changes.add(new Change(fileName, Change.Kind.REMOVED));
      } else if (Files.mismatch(before, after) != -1) {
        changes.add(new Change(fileName, Change.Kind.CHANGED));
      }
    }
    return changes;
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
      FileSystemException left =
          new FileSystemException(
              old.toString(),
              null,
              "the new files are in place, but this previous copy could not be removed: "
                  + IoErrors.reason(e));
      left.initCause(e);
      throw left;
    }
  }

  /**
   * Deletes the staging directories of renders of {@code base} that died. Only a lock holder
   * creates them and every holder removes its own, so while this process holds the lock, any that
   * exist belong to a render that no longer runs (whatever its process id, which may have been
   * reused, or belong to another container).
   */
  private static void removeStaging(Path parent, String base) throws IOException {
    Pattern staging = staging(base, "new|old");
    try (DirectoryStream<Path> siblings = Files.newDirectoryStream(parent)) {
      for (Path sibling : siblings) {
        if (staging.matcher(sibling.getFileName().toString()).matches()
            && Files.isDirectory(sibling, LinkOption.NOFOLLOW_LINKS)) {
          deleteTree(sibling);
        }
      }
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
    // DIR. The process id says whose it is to someone looking.
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

  /** Like {@link Files#createDirectories}, but a file in the way is "not a directory". */
  private static void createDirectories(Path dir) throws IOException {
    try {
      Files.createDirectories(dir);
    } catch (FileAlreadyExistsException e) {
      throw new FileSystemException(e.getFile(), null, "Not a directory");
    }
  }

  private static void copyPermissions(Path from, Path to) throws IOException {
    PosixFileAttributeView source = Files.getFileAttributeView(from, PosixFileAttributeView.class);
    PosixFileAttributeView target = Files.getFileAttributeView(to, PosixFileAttributeView.class);
    if (source != null && target != null && Files.isDirectory(from)) {
      target.setPermissions(source.readAttributes().permissions());
    }
  }

  private static List<Path> sortedEntries(Path dir) throws IOException {
    List<Path> entries = new ArrayList<>();
    try (DirectoryStream<Path> stream = Files.newDirectoryStream(dir)) {
      stream.forEach(entries::add);
    }
    entries.sort((a, b) -> a.getFileName().toString().compareTo(b.getFileName().toString()));
    return entries;
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

  /**
   * A path from an exception as the user would write it: relative to the directory as typed when it
   * is the directory, inside it, or next to it; otherwise as it is.
   */
  private String shown(String file) {
    Path target;
    try {
      target = Path.of(file).toAbsolutePath().normalize();
    } catch (InvalidPathException e) {
      return file;
    }
    String typed = name;
    Path at = path.toAbsolutePath().normalize();
    while (!target.startsWith(at)) {
      int slash = typed.lastIndexOf('/');
      String last = typed.substring(slash + 1);
      at = at.getParent();
      if (at == null || last.isEmpty() || last.equals(".") || last.equals("..")) {
        return file; // the typed name cannot be shortened alongside
      }
      typed = slash < 0 ? "" : slash == 0 ? "/" : typed.substring(0, slash);
    }
    List<String> rest = new ArrayList<>();
    at.relativize(target).forEach(p -> rest.add(p.toString()));
    String relative = String.join("/", rest);
    if (relative.isEmpty()) {
      return typed.isEmpty() ? "." : typed;
    }
    return typed.isEmpty() ? relative : InputFiles.join(typed, relative);
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
