package dev.jobc.io;

import dev.jobc.diag.Code;
import dev.jobc.diag.Diagnostic;
import dev.jobc.diag.Position;
import dev.jobc.diag.Quoting;
import dev.jobc.diag.Severity;
import dev.jobc.model.Source;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystemLoopException;
import java.nio.file.FileVisitOption;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;

/**
 * The inputs named on a command line, read as strict UTF-8: files, directories (every {@code
 * *.yaml} / {@code *.yml} below them, sorted by path, following symbolic links) and {@code -} for
 * standard input.
 *
 * <p>Reading never stops at the first problem: each unreadable input becomes an error diagnostic,
 * and the others are still read so that one run reports everything. Only the {@link InputLimits
 * total limit} stops reading: what comes after it is not read at all.
 */
public final class InputFiles {
  /** The name standard input goes by in diagnostics. */
  public static final String STDIN_NAME = "<stdin>";

  private static final int CHUNK = 64 * 1024;

  /** What a name's bytes that are not UTF-8 decode to. */
  private static final char NOT_UTF8 = '\uFFFD';

  /** Why a name's bytes did not decode: they are not UTF-8, or this JVM does not read UTF-8. */
  private static final String NOT_UTF8_NAME =
      "UTF-8".equalsIgnoreCase(System.getProperty("sun.jnu.encoding", "UTF-8"))
          ? "the file name is not valid UTF-8 (shown here with U+FFFD for its bad bytes); rename it"
          : "the file name cannot be read in this system's file name encoding ("
              + System.getProperty("sun.jnu.encoding")
              + "); run jobc in a UTF-8 locale (LC_ALL=C.UTF-8)";

  private final InputLimits limits;
  private final InputSelection selection;
  private final List<Source> sources = new ArrayList<>();
  private final List<File> files = new ArrayList<>();
  private final List<File> directories = new ArrayList<>();
  private final List<Diagnostic> diagnostics = new ArrayList<>();
  private long totalChars;
  private boolean totalExceeded;

  private InputFiles(InputLimits limits, InputSelection selection) {
    this.limits = limits;
    this.selection = selection;
  }

  /**
   * Reads every argument within {@link InputLimits#defaults()}; see {@link #read(List, Path,
   * InputStream, InputLimits)}.
   */
  public static InputFiles read(List<String> arguments, Path workingDirectory, InputStream stdin) {
    return read(arguments, workingDirectory, stdin, InputLimits.defaults());
  }

  /**
   * Reads every argument. Relative paths resolve against {@code workingDirectory}, while sources
   * are named by the argument as typed, so diagnostics point where the user pointed.
   */
  public static InputFiles read(
      List<String> arguments, Path workingDirectory, InputStream stdin, InputLimits limits) {
    return read(arguments, InputSelection.ALL, workingDirectory, stdin, limits);
  }

  /**
   * Reads every argument, leaving out below directories what {@code selection} excludes and
   * {@linkplain ToolFiles tool configuration}, each skipped file with a note.
   */
  public static InputFiles read(
      List<String> arguments,
      InputSelection selection,
      Path workingDirectory,
      InputStream stdin,
      InputLimits limits) {
    InputFiles inputs = new InputFiles(limits, selection);
    for (String argument : arguments) {
      if (inputs.totalExceeded) {
        break;
      }
      if (argument.equals("-")) {
        inputs.readStdin(stdin);
      } else {
        inputs.readPath(argument, workingDirectory.resolve(argument));
      }
    }
    return inputs;
  }

  /** Sources in command-line order (directory contents sorted), for the compiler. */
  public List<Source> sources() {
    return List.copyOf(sources);
  }

  /**
   * One file that was read, or a directory that was read through: its name as shown and its path
   * resolved against the working directory.
   */
  public record File(String name, Path path, boolean directory) {
    public File(String name, Path path) {
      this(name, path, false);
    }
  }

  /** Files read, so that writers can refuse to clobber them. */
  public List<File> files() {
    return List.copyOf(files);
  }

  /**
   * Files read and the directories named on the command line: what an output directory must neither
   * hold nor lie in.
   */
  public List<File> paths() {
    List<File> all = new ArrayList<>(files);
    all.addAll(directories);
    return List.copyOf(all);
  }

  /** One error per input that could not be read. */
  public List<Diagnostic> diagnostics() {
    return List.copyOf(diagnostics);
  }

  private void readStdin(InputStream stdin) {
    try {
      readText(STDIN_NAME, stdin);
    } catch (IOException e) {
      diagnostics.add(error(STDIN_NAME, IoErrors.reason(e)));
    }
  }

  private void readPath(String name, Path path) {
    BasicFileAttributes attributes;
    try {
      // Follows links: a link to a directory is read as that directory.
      attributes = Files.readAttributes(path, BasicFileAttributes.class);
    } catch (NoSuchFileException e) {
      if (name.indexOf(NOT_UTF8) >= 0) {
        // The argument's bytes were not UTF-8, the encoding jobc reads names in. Checked before
        // --allow-missing: such a name may well exist, and reading it as empty would delete its
        // rendered files.
        diagnostics.add(error(name, NOT_UTF8_NAME));
        return;
      }
      if (selection.missingIsEmpty() && Files.notExists(path, LinkOption.NOFOLLOW_LINKS)) {
        diagnostics.add(note(name, "does not exist; read as an empty directory"));
        return;
      }
      // Some JDKs say "no such file" for a path through a regular file; opening it says which.
      readFile(name, path);
      return;
    } catch (IOException e) {
      diagnostics.add(error(name, IoErrors.reason(e)));
      return;
    }
    if (attributes.isDirectory()) {
      readDirectory(name, path);
    } else {
      readFile(name, path);
    }
  }

  private void readDirectory(String name, Path directory) {
    directories.add(new File(name, directory, true));
    List<String> found = new ArrayList<>();
    // Every *.yaml and *.yml file below, those left out or unreadable by name included.
    int[] yamlFiles = {0};
    try {
      // Links are followed so that a linked job directory is read like any other; the walker
      // detects a link back to a directory it is already in and reports it to visitFileFailed.
      Files.walkFileTree(
          directory,
          EnumSet.of(FileVisitOption.FOLLOW_LINKS),
          Integer.MAX_VALUE,
          new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
              // Hidden directories hold tool state (.git, .idea), never manifests; the directory
              // that was named explicitly is read even when it is hidden.
              if (!dir.equals(directory) && isHidden(dir)) {
                return FileVisitResult.SKIP_SUBTREE;
              }
              String relative = relativeName(directory.relativize(dir));
              if (!dir.equals(directory) && selection.excluded(relative, join(name, relative))) {
                return FileVisitResult.SKIP_SUBTREE;
              }
              String chart = ToolFiles.chart(dir);
              if (chart != null) {
                diagnostics.add(note(dir.equals(directory) ? name : join(name, relative), chart));
                return FileVisitResult.SKIP_SUBTREE;
              }
              return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
              // attrs are the link target's; a dangling link has the link's own.
              if (!isHidden(file) && isYaml(file)) {
                yamlFiles[0]++;
                String relative = relativeName(directory.relativize(file));
                if (selection.excluded(relative, join(name, relative))) {
                  return FileVisitResult.CONTINUE;
                }
                String notAFile = notARegularFile(file, attrs);
                if (notAFile != null) {
                  // Skipped silently, its job's objects would vanish from the output (and, with
                  // -o, its rendered files be deleted); a FIFO read would block the render.
                  diagnostics.add(error(join(name, relative), notAFile));
                } else if (relative.indexOf(NOT_UTF8) >= 0) {
                  // Its bytes decode to U+FFFD: no name made of characters reaches it again.
                  diagnostics.add(error(join(name, relative), NOT_UTF8_NAME));
                } else {
                  found.add(relative);
                }
              }
              return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFileFailed(Path file, IOException e) {
              // An unreadable subdirectory is reported, and the rest of the tree is still read.
              String where =
                  file.equals(directory)
                      ? name
                      : join(name, relativeName(directory.relativize(file)));
              String reason =
                  e instanceof FileSystemLoopException
                      ? "symbolic link loop: it leads back to a directory that contains it"
                      : IoErrors.reason(e);
              diagnostics.add(error(where, reason));
              return FileVisitResult.CONTINUE;
            }
          });
    } catch (IOException e) {
      diagnostics.add(error(name, IoErrors.reason(e)));
      return;
    }
    // String order, not Path order, so the result is the same on every file system and platform.
    found.sort(String::compareTo);
    ToolFiles.skipped(directory, name, found)
        .forEach(
            (relative, why) -> {
              found.remove(relative);
              diagnostics.add(note(join(name, relative), why));
            });
    if (yamlFiles[0] == 0) {
      diagnostics.add(
          new Diagnostic(
              Severity.WARNING, Code.NOTE, name, -1, -1, "", "no *.yaml or *.yml files found"));
    }
    for (String relative : found) {
      if (totalExceeded) {
        return;
      }
      readFile(join(name, relative), directory.resolve(relative));
    }
  }

  /**
   * Why a {@code *.yaml} entry found below a directory cannot be read as a file (a dangling
   * symbolic link, a FIFO, a socket, a device), or {@code null} when it is a regular file.
   */
  private static String notARegularFile(Path file, BasicFileAttributes attrs) {
    if (attrs.isRegularFile()) {
      return null;
    }
    if (attrs.isSymbolicLink()) {
      String target;
      try {
        target = Files.readSymbolicLink(file).toString();
      } catch (IOException e) {
        target = "?";
      }
      return "a symbolic link to "
          + Quoting.fileName(target)
          + ", which does not exist; remove the link or restore its target";
    }
    return "not a regular file (a FIFO, socket or device); jobc reads only regular files below a"
        + " directory: move it away or name it as an input of its own";
  }

  private void readFile(String name, Path path) {
    try (InputStream in = Files.newInputStream(path)) {
      files.add(new File(name, path));
      readText(name, in);
    } catch (IOException e) {
      diagnostics.add(error(name, IoErrors.reason(e)));
    }
  }

  /**
   * Decodes {@code in} chunk by chunk and stops one character past the limit, so that neither an
   * endless stream nor a huge file is ever held in memory.
   */
  private void readText(String name, InputStream in) throws IOException {
    long left = limits.maxTotalChars() - totalChars;
    boolean fileLimit = limits.maxFileChars() <= left;
    long limit = Math.min(limits.maxFileChars(), left);
    CharsetDecoder decoder =
        StandardCharsets.UTF_8
            .newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT)
            .onUnmappableCharacter(CodingErrorAction.REPORT);
    ByteBuffer bytes = ByteBuffer.allocate(CHUNK);
    CharBuffer chars = CharBuffer.allocate(CHUNK);
    StringBuilder text = new StringBuilder();
    long decodedBytes = 0;
    boolean eof = false;
    while (true) {
      if (!eof && bytes.hasRemaining()) {
        int n = in.read(bytes.array(), bytes.position(), bytes.remaining());
        if (n < 0) {
          eof = true;
        } else {
          bytes.position(bytes.position() + n);
        }
      }
      bytes.flip();
      int start = bytes.position();
      CoderResult result = decoder.decode(bytes, chars, eof);
      decodedBytes += bytes.position() - start;
      boolean done = eof && result.isUnderflow();
      if (done) {
        result = decoder.flush(chars);
      }
      bytes.compact();
      text.append(chars.flip());
      chars.clear();
      if (result.isError()) {
        diagnostics.add(notUtf8(name, text, decodedBytes));
        return;
      }
      // A byte order mark is legal UTF-8 but would shift every column of the first line.
      int bom = text.length() > 0 && text.charAt(0) == '\uFEFF' ? 1 : 0;
      if (text.length() - bom > limit) {
        diagnostics.add(tooLong(name, text, bom, limit, fileLimit));
        return;
      }
      if (done && result.isUnderflow()) {
        totalChars += text.length() - bom;
        sources.add(new Source(name, text.substring(bom)));
        return;
      }
    }
  }

  /** Points at the first character past the limit, as the loader's own size limit does. */
  private Diagnostic tooLong(
      String name, CharSequence text, int bom, long limit, boolean fileLimit) {
    Position at = position(text, bom, bom + (int) limit);
    String message;
    if (fileLimit) {
      message =
          "longer than "
              + limit
              + " characters, the limit for one input; split it into smaller files";
    } else {
      totalExceeded = true;
      message =
          "the inputs together are longer than "
              + limits.maxTotalChars()
              + " characters, the limit for one run; render fewer files at a time";
    }
    return new Diagnostic(Severity.ERROR, Code.LIMIT, name, at.line(), at.column(), "", message);
  }

  /** Points at the first bad byte, counting lines and columns in the characters before it. */
  private static Diagnostic notUtf8(String name, CharSequence decoded, long byteOffset) {
    int bom = decoded.length() > 0 && decoded.charAt(0) == '\uFEFF' ? 1 : 0;
    Position at = position(decoded, bom, decoded.length());
    return new Diagnostic(
        Severity.ERROR,
        Code.IO,
        name,
        at.line(),
        at.column(),
        "",
        "not valid UTF-8 (byte " + byteOffset + "); save the file as UTF-8");
  }

  /** The line and column of {@code text[end]}, counting from {@code text[start]}. */
  private static Position position(CharSequence text, int start, int end) {
    int line = 1;
    int column = 1;
    for (int i = start; i < end; i++) {
      if (text.charAt(i) == '\n') {
        line++;
        column = 1;
      } else {
        column++;
      }
    }
    return new Position(line, column);
  }

  /** What jobc did with an input that is no problem of it: why it was left out. */
  private static Diagnostic note(String name, String message) {
    return new Diagnostic(Severity.NOTE, Code.NOTE, name, -1, -1, "", message);
  }

  private static Diagnostic error(String name, String message) {
    return new Diagnostic(Severity.ERROR, Code.IO, name, -1, -1, "", message);
  }

  public static boolean isYaml(Path file) {
    String name = file.getFileName().toString();
    return name.endsWith(".yaml") || name.endsWith(".yml");
  }

  private static boolean isHidden(Path path) {
    Path name = path.getFileName();
    return name != null && name.toString().startsWith(".");
  }

  /** {@code sub/a.yaml} with forward slashes on every platform. */
  private static String relativeName(Path relative) {
    List<String> parts = new ArrayList<>();
    relative.forEach(p -> parts.add(p.toString()));
    return String.join("/", parts);
  }

  /** The argument as typed, without a trailing slash, then the relative name. */
  public static String join(String directory, String relative) {
    String base = directory;
    while (base.length() > 1 && base.endsWith("/")) {
      base = base.substring(0, base.length() - 1);
    }
    return base.endsWith("/") ? base + relative : base + "/" + relative;
  }
}
