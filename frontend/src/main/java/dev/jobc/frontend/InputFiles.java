package dev.jobc.frontend;

import dev.jobc.Source;
import dev.jobc.diag.Code;
import dev.jobc.diag.Diagnostic;
import dev.jobc.diag.Severity;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;

/**
 * The inputs named on a command line, read as strict UTF-8: files, directories (every {@code
 * *.yaml} / {@code *.yml} below them, sorted by path) and {@code -} for standard input.
 *
 * <p>Reading never stops at the first problem: each unreadable input becomes an error diagnostic,
 * and the others are still read so that one run reports everything.
 */
public final class InputFiles {
  /** The name standard input goes by in diagnostics. */
  public static final String STDIN_NAME = "<stdin>";

  private final List<Source> sources = new ArrayList<>();
  private final List<File> files = new ArrayList<>();
  private final List<Diagnostic> diagnostics = new ArrayList<>();

  private InputFiles() {}

  /**
   * Reads every argument. Relative paths resolve against {@code workingDirectory}, while sources
   * are named by the argument as typed, so diagnostics point where the user pointed.
   */
  public static InputFiles read(List<String> arguments, Path workingDirectory, InputStream stdin) {
    InputFiles inputs = new InputFiles();
    for (String argument : arguments) {
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
   * One file that was read: its name as shown and its path resolved against the working directory.
   */
  public record File(String name, Path path) {}

  /** Files read, so that writers can refuse to clobber them. */
  public List<File> files() {
    return List.copyOf(files);
  }

  /** One error per input that could not be read. */
  public List<Diagnostic> diagnostics() {
    return List.copyOf(diagnostics);
  }

  private void readStdin(InputStream stdin) {
    try {
      decode(STDIN_NAME, stdin.readAllBytes());
    } catch (IOException e) {
      diagnostics.add(error(STDIN_NAME, describe(e)));
    }
  }

  private void readPath(String name, Path path) {
    if (Files.isDirectory(path)) {
      readDirectory(name, path);
    } else if (Files.exists(path)) {
      readFile(name, path);
    } else {
      diagnostics.add(error(name, "no such file or directory"));
    }
  }

  private void readDirectory(String name, Path directory) {
    List<String> found = new ArrayList<>();
    try {
      Files.walkFileTree(
          directory,
          new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
              // Hidden directories hold tool state (.git, .idea), never manifests; the directory
              // that was named explicitly is read even when it is hidden.
              return !dir.equals(directory) && isHidden(dir)
                  ? FileVisitResult.SKIP_SUBTREE
                  : FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
              // Symbolic links to files are read; links to directories are not followed (cycles).
              if (!isHidden(file) && isYaml(file) && Files.isRegularFile(file)) {
                found.add(relativeName(directory.relativize(file)));
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
              diagnostics.add(error(where, describe(e)));
              return FileVisitResult.CONTINUE;
            }
          });
    } catch (IOException e) {
      diagnostics.add(error(name, describe(e)));
      return;
    }
    if (found.isEmpty()) {
      diagnostics.add(
          new Diagnostic(
              Severity.WARNING, Code.NOTE, name, -1, -1, "", "no *.yaml or *.yml files found"));
    }
    // String order, not Path order, so the result is the same on every file system and platform.
    found.sort(String::compareTo);
    for (String relative : found) {
      readFile(join(name, relative), directory.resolve(relative));
    }
  }

  private void readFile(String name, Path path) {
    try {
      byte[] bytes = Files.readAllBytes(path);
      files.add(new File(name, path));
      decode(name, bytes);
    } catch (IOException e) {
      diagnostics.add(error(name, describe(e)));
    }
  }

  private void decode(String name, byte[] bytes) {
    CharsetDecoder decoder =
        StandardCharsets.UTF_8
            .newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT)
            .onUnmappableCharacter(CodingErrorAction.REPORT);
    ByteBuffer in = ByteBuffer.wrap(bytes);
    CharBuffer out = CharBuffer.allocate(bytes.length);
    CoderResult result = decoder.decode(in, out, true);
    if (!result.isError()) {
      result = decoder.flush(out);
    }
    if (result.isError()) {
      diagnostics.add(notUtf8(name, out.flip(), in.position()));
      return;
    }
    String text = out.flip().toString();
    // A byte order mark is legal UTF-8 but would shift every column of the first line.
    sources.add(new Source(name, text.startsWith("\uFEFF") ? text.substring(1) : text));
  }

  /** Points at the first bad byte, counting lines and columns in the characters before it. */
  private static Diagnostic notUtf8(String name, CharBuffer decoded, int byteOffset) {
    int line = 1;
    int column = 1;
    while (decoded.hasRemaining()) {
      if (decoded.get() == '\n') {
        line++;
        column = 1;
      } else {
        column++;
      }
    }
    return new Diagnostic(
        Severity.ERROR,
        Code.IO,
        name,
        line,
        column,
        "",
        "not valid UTF-8 (byte " + byteOffset + "); save the file as UTF-8");
  }

  private static Diagnostic error(String name, String message) {
    return new Diagnostic(Severity.ERROR, Code.IO, name, -1, -1, "", message);
  }

  private static String describe(IOException e) {
    if (e instanceof NoSuchFileException) {
      return "no such file or directory";
    }
    if (e instanceof AccessDeniedException) {
      return "permission denied";
    }
    return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
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
