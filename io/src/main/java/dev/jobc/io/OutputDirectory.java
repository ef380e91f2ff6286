package dev.jobc.io;

import dev.jobc.k8s.ApiLimits;
import dev.jobc.model.Budget;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
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
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CountDownLatch;
import java.util.function.Consumer;
import java.util.regex.Pattern;

/**
 * A directory that holds exactly the files of one render ({@code render -o DIR}), replaced as a
 * whole, and read back for {@code render --check DIR}.
 *
 * <p>Replacing the directory deletes every file the render no longer produces, so jobc replaces
 * only what it wrote. Each render leaves a record, {@value #RECORD}, listing the files it wrote; a
 * directory that holds anything not on that list, or files and no list, is refused.
 *
 * <p>The directory itself is never moved or replaced: a mount point, the caller's working
 * directory, its owner, group, mode (setgid too) and ACLs all stay. A render writes the files that
 * change into {@value #SWAP} inside it, makes them durable ({@code fsync}), then commits by writing
 * a journal there (itself made durable and then renamed into place: one atomic step), and only then
 * renames each file over its old one and deletes the files it no longer renders. Whatever stops it,
 * a kill or a power loss, the directory holds the old render or, once the journal is in place,
 * enough to finish the new one: the next render finishes what the journal says, or removes a
 * staging that never got a journal. {@code --check} reads the directory as the finished swap would
 * leave it, for its diff, and refuses it while the journal is there: until a render finishes the
 * swap, what a reader of the files (kubectl, git) sees is part old render, part new. No file is
 * ever the only copy of a render while it is deleted. Writers take turns through a {@link
 * DirectoryLock} on {@value #LOCK} inside the directory.
 */
public final class OutputDirectory {
  /** The file inside the directory that lists the files jobc wrote there. */
  public static final String RECORD = ".jobc-files";

  /** The lock every writer (and {@code --check}) of the directory holds while it works. */
  static final String LOCK = ".jobc-lock";

  /** Where a render stages the files it changes, and its journal. */
  static final String SWAP = ".jobc-swap";

  private static final String JOURNAL = "journal";

  private static final String RECORD_HEADER =
      "# The files jobc rendered into this directory. Commit this file with them: jobc replaces\n"
          + "# the directory only while it holds these files and nothing else.\n";

  /** The longest file name most file systems accept. */
  private static final int MAX_NAME_BYTES = 255;

  /** A record larger than this is not one jobc wrote (it lists one name per object rendered). */
  private static final long MAX_RECORD_BYTES = 16L * 1024 * 1024;

  /**
   * The longest file jobc writes: one object, which the compiler refuses past this (and the API
   * server well before). A longer file is not one jobc wrote: it is drift, and never read whole.
   */
  static final long MAX_FILE_BYTES = 4L * ApiLimits.OBJECT_BYTES;

  /** The most {@code --check} reads of a directory for its diff: twice what a run renders. */
  static final long MAX_READ_BYTES = 2 * Budget.RUN_OUTPUT_CHARS;

  /**
   * Called with the name of each step of a replacement, before it is taken: tests stop a
   * replacement there (a simulated crash), and the system property {@code jobc.test.pauseAt} (a
   * step name) makes a real jobc process wait at that step to be killed (see {@code
   * CrashSafetyIT}). Nothing else.
   */
  static volatile Consumer<String> steps = OutputDirectory::pauseIfAsked;

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

  /**
   * What {@code --check} compares with a render: the directory's files by name (the record among
   * them), as a finished swap leaves them, and the files too long to be ones jobc wrote (not read;
   * their text is empty here), and whether a render stopped in the middle of its swap: the files as
   * they are on disk are then a mix of two renders, which {@code --check} must not accept however
   * the finished swap would compare.
   */
  public record Contents(
      SortedMap<String, String> files, Set<String> notRead, boolean unfinished) {}

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
   * The files now in the directory as {@link #contents} reads them (the record among them), without
   * judging who wrote them; one too long to read is given by its size and time of change instead of
   * its text. Empty when the directory does not exist. For a digest of the output as it is (the
   * Maven plugin's stamp).
   */
  public SortedMap<String, String> read() throws IOException {
    Path dir = directory();
    if (!Files.isDirectory(dir)) {
      return new TreeMap<>();
    }
    Listing listing = Listing.of(dir);
    Contents contents = read(dir, listing);
    SortedMap<String, String> files = new TreeMap<>(contents.files());
    for (String fileName : contents.notRead()) {
      Path file = listing.entries.get(fileName);
      files.put(
          fileName,
          "\0not read: " + Files.size(file) + " bytes, " + Files.getLastModifiedTime(file));
    }
    return files;
  }

  /**
   * The files in the directory, as a finished swap leaves them (a render killed mid-swap is read as
   * its journal says it ends), or empty when the directory does not exist; for comparing with a
   * render. Holds the directory's lock while it reads, where it can take it, so the result is one
   * render's files, never a mix.
   *
   * @throws Refusal when the directory holds something jobc did not write
   */
  public Optional<Contents> contents() throws IOException, Refusal {
    Path dir = directory();
    if (!Files.exists(dir, LinkOption.NOFOLLOW_LINKS) && !Files.isDirectory(dir)) {
      return Optional.empty();
    }
    if (!Files.isDirectory(dir)) {
      throw new Refusal("it is not a directory");
    }
    DirectoryLock lock = DirectoryLock.tryAcquire(dir.resolve(LOCK));
    try {
      Listing listing = Listing.of(dir);
      judge(listing);
      return Optional.of(read(dir, listing));
    } finally {
      if (lock != null) {
        lock.close();
      }
    }
  }

  /**
   * Makes the directory hold exactly {@code files} (file name to text) and their record. The files
   * that change are staged inside it and swapped in under a journal (see the class comment), so a
   * failure leaves the directory as it was or as the new render, never without one of them; when
   * nothing would change, nothing is touched.
   *
   * @param inputs the files and directories read for this render: the directory must neither hold
   *     one nor be read as one
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
    Path dir = directory();
    if (dir.getParent() == null) {
      throw new Refusal("it is the root directory");
    }
    if (Files.exists(dir, LinkOption.NOFOLLOW_LINKS) && !Files.isDirectory(dir)) {
      throw new Refusal("it is not a directory");
    }
    judgeInputs(dir, inputs);
    LegacyStaging.restore(dir);
    createDirectories(dir);
    DirectoryLock lock;
    try {
      lock = DirectoryLock.acquire(dir.resolve(LOCK));
    } catch (DirectoryLock.NotAFile e) {
      throw new Refusal(
          "it holds "
              + display(LOCK)
              + ", which is not jobc's lock file; remove it and render again");
    }
    try {
      step("locked");
      LegacyStaging.remove(dir);
      recover(dir);
      Listing listing = Listing.of(dir);
      judge(listing);
      return swap(dir, listing, files);
    } finally {
      lock.close();
    }
  }

  /**
   * The directory to write: the path the user gave, resolved as the operating system resolves it
   * ({@code lnk/..} is the parent of where {@code lnk} points, not the working directory), so that
   * {@code -o} and {@code --check} always mean the same directory. Absolute.
   */
  Path directory() throws IOException {
    Path absolute = path.toAbsolutePath();
    Path root = absolute.getRoot();
    int n = absolute.getNameCount();
    for (int i = n; i >= 0; i--) {
      Path prefix = i == 0 ? root : root.resolve(absolute.subpath(0, i));
      if (Files.exists(prefix)) {
        Path at = prefix.toRealPath();
        // What does not exist yet holds no link: its ".." can be resolved by name.
        for (int j = i; j < n; j++) {
          String part = absolute.getName(j).toString();
          if (part.equals("..")) {
            at = at.getParent() == null ? at : at.getParent();
          } else if (!part.equals(".")) {
            at = at.resolve(part);
          }
        }
        return at;
      }
    }
    return absolute.normalize();
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

  // --- the swap -----------------------------------------------------------------------------

  private List<Change> swap(Path dir, Listing listing, SortedMap<String, String> files)
      throws IOException {
    SortedMap<String, String> all = withRecord(files);
    Path swap = dir.resolve(SWAP);
    Files.createDirectory(swap);
    try {
      List<Change> changes = new ArrayList<>();
      // The record last: until it is in place, the old one still covers every file.
      List<String> order = new ArrayList<>(all.keySet());
      order.remove(RECORD);
      order.add(RECORD);
      StringBuilder journal = new StringBuilder();
      int staged = 0;
      for (String fileName : order) {
        byte[] bytes = all.get(fileName).getBytes(StandardCharsets.UTF_8);
        Path existing = dir.resolve(fileName);
        boolean there = listing.isFile(fileName);
        if (there && sameBytes(existing, bytes)) {
          continue;
        }
        step("stage:" + fileName);
        Path file = swap.resolve(Integer.toString(staged));
        writeDurably(file, bytes);
        journal.append(staged).append('\t').append(fileName).append('\n');
        staged++;
        changes.add(new Change(fileName, there ? Change.Kind.CHANGED : Change.Kind.ADDED));
      }
      for (String fileName : listing.recorded()) {
        if (!all.containsKey(fileName) && listing.isFile(fileName)) {
          journal.append("-\t").append(fileName).append('\n');
          changes.add(new Change(fileName, Change.Kind.REMOVED));
        }
      }
      if (changes.isEmpty()) {
        deleteTree(swap); // nothing changes: the directory is left as it is
        return changes;
      }
      changes.sort((a, b) -> a.fileName().compareTo(b.fileName()));
      syncDirectory(swap);
      // The commit: a journal that is there is whole (written, synced, then renamed).
      step("journal");
      Path partial = swap.resolve(JOURNAL + ".tmp");
      writeDurably(partial, journal.toString().getBytes(StandardCharsets.UTF_8));
      Files.move(partial, swap.resolve(JOURNAL), StandardCopyOption.ATOMIC_MOVE);
      syncDirectory(swap);
      finish(dir, swap, parseJournal(dir, journal.toString()));
      return changes;
    } catch (IOException | RuntimeException e) {
      // Before the journal this only removes the staging; after it, the swap is finished by the
      // next render (the journal is kept when finishing failed).
      if (!Files.exists(swap.resolve(JOURNAL))) {
        try {
          deleteTree(swap);
        } catch (IOException cleanup) {
          e.addSuppressed(cleanup);
        }
      }
      throw e;
    }
  }

  /** One entry of a journal: staged file {@code staged} becomes {@code fileName}, or (-1) goes. */
  private record Step(int staged, String fileName) {}

  /**
   * Carries out a committed swap, from wherever it stopped: every step can be taken again (a staged
   * file already moved is not there any more; a file already deleted is gone).
   */
  private static void finish(Path dir, Path swap, List<Step> journal) throws IOException {
    for (Step s : journal) {
      if (s.staged() < 0) {
        continue;
      }
      Path staged = swap.resolve(Integer.toString(s.staged()));
      if (Files.exists(staged, LinkOption.NOFOLLOW_LINKS)) {
        step("move:" + s.fileName());
        Files.move(staged, dir.resolve(s.fileName()), StandardCopyOption.ATOMIC_MOVE);
      }
    }
    for (Step s : journal) {
      if (s.staged() < 0) {
        Path gone = dir.resolve(s.fileName());
        if (Files.isRegularFile(gone, LinkOption.NOFOLLOW_LINKS)) {
          step("delete:" + s.fileName());
          Files.delete(gone);
        }
      }
    }
    syncDirectory(dir);
    step("cleanup");
    Files.delete(swap.resolve(JOURNAL));
    deleteTree(swap);
    syncDirectory(dir);
  }

  /**
   * Finishes a swap a render committed and could not finish (it was killed, or the machine went
   * down), or removes a staging that never got its journal. Only while holding the lock.
   */
  private void recover(Path dir) throws IOException, Refusal {
    Path swap = dir.resolve(SWAP);
    if (!Files.isDirectory(swap, LinkOption.NOFOLLOW_LINKS)) {
      return;
    }
    Path journal = swap.resolve(JOURNAL);
    if (Files.isRegularFile(journal, LinkOption.NOFOLLOW_LINKS)) {
      finish(dir, swap, readJournal(dir, journal));
    } else {
      deleteTree(swap);
    }
  }

  private List<Step> readJournal(Path dir, Path journal) throws IOException, Refusal {
    if (Files.size(journal) > MAX_RECORD_BYTES) {
      throw new Refusal(display(SWAP + "/" + JOURNAL) + " is not a journal jobc wrote");
    }
    return parseJournal(dir, Files.readString(journal, StandardCharsets.UTF_8));
  }

  /** The steps of a journal; every name one plain name in the directory, or the record. */
  private List<Step> parseJournal(Path dir, String text) {
    List<Step> steps = new ArrayList<>();
    for (String line : text.split("\n")) {
      if (line.isEmpty()) {
        continue;
      }
      int tab = line.indexOf('\t');
      String fileName = tab < 0 ? "" : line.substring(tab + 1);
      String staged = tab < 0 ? "" : line.substring(0, tab);
      boolean named = fileName.equals(RECORD) || fileNameProblem(fileName).isEmpty();
      if (!named || !(staged.equals("-") || staged.matches("\\d{1,9}"))) {
        throw new IllegalStateException(
            display(SWAP + "/" + JOURNAL) + " is not a journal jobc wrote: " + line);
      }
      steps.add(new Step(staged.equals("-") ? -1 : Integer.parseInt(staged), fileName));
    }
    return steps;
  }

  // --- judging and reading ------------------------------------------------------------------

  /**
   * What the directory holds, as a finished swap leaves it: entries by name (jobc's lock and a
   * staging with no journal aside), and the names its record lists.
   */
  private static final class Listing {
    /** Entry name to where its content is now (a staged file for a swap not yet finished). */
    final Map<String, Path> entries = new LinkedHashMap<>();

    final Set<String> files = new HashSet<>();
    Set<String> recorded = Set.of();
    boolean hasRecord;

    /** A committed journal nobody finished: what is on disk is part old render, part new. */
    boolean unfinished;

    static Listing of(Path dir) throws IOException {
      Listing l = new Listing();
      for (Path entry : sortedEntries(dir)) {
        String fileName = entry.getFileName().toString();
        if (fileName.equals(LOCK) || fileName.equals(SWAP)) {
          continue;
        }
        l.entries.put(fileName, entry);
        if (Files.isRegularFile(entry, LinkOption.NOFOLLOW_LINKS)) {
          l.files.add(fileName);
        }
      }
      Path swap = dir.resolve(SWAP);
      Path journal = swap.resolve(JOURNAL);
      if (Files.isRegularFile(journal, LinkOption.NOFOLLOW_LINKS)) {
        // A committed swap nobody finished: read the directory as finishing it would leave it.
        l.unfinished = true;
        OutputDirectory reader = new OutputDirectory("", dir);
        List<Step> steps;
        try {
          steps = reader.readJournal(dir, journal);
        } catch (Refusal | IllegalStateException e) {
          throw new FileSystemException(journal.toString(), null, e.getMessage());
        }
        for (Step s : steps) {
          if (s.staged() < 0) {
            l.entries.remove(s.fileName());
            l.files.remove(s.fileName());
          } else {
            Path staged = swap.resolve(Integer.toString(s.staged()));
            if (Files.isRegularFile(staged, LinkOption.NOFOLLOW_LINKS)) {
              l.entries.put(s.fileName(), staged);
              l.files.add(s.fileName());
            }
          }
        }
      } else if (Files.exists(swap, LinkOption.NOFOLLOW_LINKS)
          && !Files.isDirectory(swap, LinkOption.NOFOLLOW_LINKS)) {
        l.entries.put(SWAP, swap); // not jobc's: judged like any other entry
      }
      Path record = l.entries.get(RECORD);
      l.hasRecord = record != null && l.files.contains(RECORD);
      if (l.hasRecord) {
        l.recorded = readRecord(record);
      }
      return l;
    }

    boolean isFile(String fileName) {
      return files.contains(fileName);
    }

    Set<String> recorded() {
      return new TreeSet<>(recorded);
    }
  }

  /** Throws when jobc must not replace the directory: it holds something jobc did not write. */
  private void judge(Listing listing) throws Refusal {
    if (!listing.hasRecord) {
      if (!listing.entries.isEmpty()) {
        String first = listing.entries.keySet().iterator().next();
        throw new Refusal(
            "it holds "
                + shownEntry(listing.entries.get(first), first)
                + " but no "
                + display(RECORD)
                + ", the list of files jobc wrote; move your files elsewhere (or, if jobc wrote"
                + " them, delete them) and render again");
      }
      return;
    }
    for (Map.Entry<String, Path> entry : listing.entries.entrySet()) {
      String fileName = entry.getKey();
      if (!fileName.equals(RECORD)
          && !(listing.recorded.contains(fileName) && listing.isFile(fileName))) {
        throw new Refusal(
            "it contains " + shownEntry(entry.getValue(), fileName) + ", which jobc did not write");
      }
    }
  }

  /**
   * Throws when the directory holds an input file, or lies inside an input directory where it would
   * be read as input next time (not below a hidden directory, which reading skips).
   */
  private void judgeInputs(Path dir, List<InputFiles.File> inputs) throws IOException, Refusal {
    Path real = canonical(dir);
    for (InputFiles.File input : inputs) {
      if (!input.directory() && canonical(input.path()).startsWith(real)) {
        throw new Refusal(
            "it contains the input " + input.name() + "; write the output somewhere else");
      }
    }
    for (InputFiles.File input : inputs) {
      if (!input.directory()) {
        continue;
      }
      Path from = canonical(input.path());
      if (real.startsWith(from)) {
        boolean hidden = false;
        for (Path part : from.relativize(real)) {
          hidden |= part.toString().startsWith(".");
        }
        if (!hidden) {
          throw new Refusal(
              real.equals(from)
                  ? "it is the input directory " + input.name() + "; write the output elsewhere"
                  : "it is inside the input directory "
                      + input.name()
                      + ", so the next render would read the files it writes as input; write"
                      + " the output outside it (or into a hidden directory, which reading"
                      + " skips)");
        }
      }
    }
  }

  private String shownEntry(Path entry, String fileName) {
    String shown = display(fileName);
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

  /**
   * The files of a listing by name, each read whole when it is no longer than any file jobc writes
   * and the directory's files together stay within what {@code --check} reads.
   */
  private static Contents read(Path dir, Listing listing) throws IOException {
    SortedMap<String, String> files = new TreeMap<>();
    Set<String> notRead = new TreeSet<>();
    long read = 0;
    for (Map.Entry<String, Path> entry : listing.entries.entrySet()) {
      if (!listing.isFile(entry.getKey())) {
        continue;
      }
      long size = Files.size(entry.getValue());
      if (size > MAX_FILE_BYTES || read + size > MAX_READ_BYTES) {
        files.put(entry.getKey(), "");
        notRead.add(entry.getKey());
        continue;
      }
      read += size;
      // Lenient decoding on purpose: bytes that are not UTF-8 are drift, and the diff shows them.
      files.put(
          entry.getKey(), new String(Files.readAllBytes(entry.getValue()), StandardCharsets.UTF_8));
    }
    return new Contents(files, notRead, listing.unfinished);
  }

  // --- files --------------------------------------------------------------------------------

  /** Whether {@code file} holds exactly {@code bytes}, read in blocks (never whole). */
  private static boolean sameBytes(Path file, byte[] bytes) throws IOException {
    if (Files.size(file) != bytes.length) {
      return false;
    }
    try (InputStream in = Files.newInputStream(file, LinkOption.NOFOLLOW_LINKS)) {
      byte[] block = new byte[64 * 1024];
      int at = 0;
      for (int n = in.read(block); n > 0; n = in.read(block)) {
        if (at + n > bytes.length || !Arrays.equals(block, 0, n, bytes, at, at + n)) {
          return false;
        }
        at += n;
      }
      return at == bytes.length;
    }
  }

  /** Writes {@code bytes} to a new file and syncs it to the device before returning. */
  private static void writeDurably(Path file, byte[] bytes) throws IOException {
    try (FileChannel out =
        FileChannel.open(
            file,
            StandardOpenOption.CREATE_NEW,
            StandardOpenOption.WRITE,
            LinkOption.NOFOLLOW_LINKS)) {
      ByteBuffer buffer = ByteBuffer.wrap(bytes);
      while (buffer.hasRemaining()) {
        out.write(buffer);
      }
      out.force(true);
    } catch (IOException e) {
      throw IoErrors.naming(file, e);
    }
  }

  /**
   * Syncs a directory's entries (the names renamed into and out of it) to the device; where the
   * platform cannot open a directory for that, renames are as durable as it makes them.
   */
  private static void syncDirectory(Path dir) {
    try (FileChannel channel = FileChannel.open(dir, StandardOpenOption.READ)) {
      channel.force(true);
    } catch (IOException e) {
      // Not every file system or platform syncs directories (Windows cannot open one).
    }
  }

  /** Runs the step hook: tests stop here; nothing happens otherwise. */
  private static void step(String name) {
    steps.accept(name);
  }

  /**
   * The hook's default: with the system property {@code jobc.test.pauseAt} naming this step, say so
   * on standard error and wait for ever, for a test to kill the process there.
   */
  private static void pauseIfAsked(String step) {
    String at = System.getProperty("jobc.test.pauseAt");
    if (at != null && at.equals(step)) {
      System.err.println("jobc: paused at " + step);
      System.err.flush();
      try {
        new CountDownLatch(1).await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /**
   * Like {@link Files#createDirectories}, parent first, so that a file in the way is named: "not a
   * directory".
   */
  private static void createDirectories(Path dir) throws IOException {
    if (Files.isDirectory(dir)) {
      return;
    }
    try {
      if (dir.getParent() != null) {
        Files.createDirectories(dir.getParent());
      }
      Files.createDirectory(dir);
    } catch (FileAlreadyExistsException e) {
      if (!Files.isDirectory(dir)) {
        throw new FileSystemException(e.getFile(), null, "Not a directory");
      }
    }
  }

  static List<Path> sortedEntries(Path dir) throws IOException {
    List<Path> entries = new ArrayList<>();
    try (DirectoryStream<Path> stream = Files.newDirectoryStream(dir)) {
      stream.forEach(entries::add);
    }
    entries.sort((a, b) -> a.getFileName().toString().compareTo(b.getFileName().toString()));
    return entries;
  }

  /** The real path of {@code p}, or of its nearest existing ancestor plus the rest. */
  static Path canonical(Path p) throws IOException {
    return new OutputDirectory("", p).directory();
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
      // Not a path this system can name: shown as the exception has it.
      return file;
    }
    String typed = name;
    Path at;
    try {
      at = directory();
    } catch (IOException e) {
      // Not resolvable (a loop of links, say): relative to the path as given.
      at = path.toAbsolutePath().normalize();
    }
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

  static void deleteTree(Path root) throws IOException {
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

  /**
   * Staging that jobc before this version left next to the directory ({@code .DIR.jobc-new-P-N},
   * {@code .DIR.jobc-old-P-N}) when it was killed: it swapped by renaming the directory itself, and
   * a kill between its two renames left no directory at all, the previous render only in the old
   * copy. The new copy was complete by then, so a missing directory is finished from it, or else
   * restored from the old one; with the directory there, they are leftovers and go.
   */
  static final class LegacyStaging {
    private LegacyStaging() {}

    private static Pattern pattern(String base, String kinds) {
      return Pattern.compile("\\." + Pattern.quote(base) + "\\.jobc-(" + kinds + ")-(\\d+-\\d+)");
    }

    static void restore(Path dir) throws IOException {
      Path parent = dir.getParent();
      if (parent == null
          || Files.exists(dir, LinkOption.NOFOLLOW_LINKS)
          || !Files.isDirectory(parent)) {
        return;
      }
      String base = dir.getFileName().toString();
      Pattern old = pattern(base, "old");
      List<Path> siblings = sortedEntries(parent);
      for (Path sibling : siblings) {
        var m = old.matcher(sibling.getFileName().toString());
        if (m.matches() && Files.isDirectory(sibling, LinkOption.NOFOLLOW_LINKS)) {
          Path fresh = parent.resolve("." + base + ".jobc-new-" + m.group(2));
          Path from = Files.isDirectory(fresh, LinkOption.NOFOLLOW_LINKS) ? fresh : sibling;
          try {
            Files.move(from, dir, StandardCopyOption.ATOMIC_MOVE);
          } catch (FileAlreadyExistsException | NoSuchFileException e) {
            // Another render restored it first.
          }
          return;
        }
      }
    }

    static void remove(Path dir) throws IOException {
      Path parent = dir.getParent();
      if (parent == null) {
        return;
      }
      Pattern staging = pattern(dir.getFileName().toString(), "new|old");
      for (Path sibling : sortedEntries(parent)) {
        if (staging.matcher(sibling.getFileName().toString()).matches()
            && Files.isDirectory(sibling, LinkOption.NOFOLLOW_LINKS)) {
          deleteTree(sibling);
        }
      }
      // Its lock file, empty, when that version was killed holding it; never a link's target.
      Path lock = parent.resolve("." + dir.getFileName() + ".jobc-lock");
      if (Files.isRegularFile(lock, LinkOption.NOFOLLOW_LINKS) && Files.size(lock) == 0) {
        Files.deleteIfExists(lock);
      }
    }
  }
}
