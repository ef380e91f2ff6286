package dev.jobc.maven;

import dev.jobc.ManifestCompiler;
import dev.jobc.diag.Diagnostic;
import dev.jobc.diag.Severity;
import dev.jobc.io.InputFiles;
import dev.jobc.io.InputLimits;
import dev.jobc.io.InputSelection;
import dev.jobc.io.OutputDirectory;
import dev.jobc.io.Render;
import dev.jobc.io.RenderedDirectory;
import dev.jobc.model.Source;
import dev.jobc.options.CompileOptions;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * Renders a project's job specs into a directory, or checks that directory, the way {@code jobc
 * render -o} / {@code --check} do. No Maven types: the Mojos only map parameters and log.
 *
 * @param baseDirectory the project directory; file names in messages are relative to it
 * @param sourceDirectory the specs ({@code src/main/jobc})
 * @param outputDirectory the rendered files, one per object
 * @param stampFile where {@link #render} records what it rendered, to skip unchanged runs
 * @param selection what is read below {@code sourceDirectory}
 */
public record ProjectRender(
    Path baseDirectory,
    Path sourceDirectory,
    Path outputDirectory,
    Path stampFile,
    InputSelection selection,
    CompileOptions options) {

  /**
   * What a run did.
   *
   * @param ok false when there was any error; {@code report} then says why
   * @param upToDate true when nothing was done because nothing changed
   * @param warnings warning diagnostics, one line each
   * @param notes notes (files left out), one line each
   * @param report errors and diffs, as {@code jobc render} prints them
   * @param objects how many objects were rendered
   */
  public record Result(
      boolean ok,
      boolean upToDate,
      List<String> warnings,
      List<String> notes,
      String report,
      int objects) {}

  /** Makes {@code outputDirectory} hold the render, unless the stamp says it already does. */
  public Result render() {
    String stamp = stamp();
    if (stamp.equals(readStamp())) {
      return new Result(true, true, List.of(), List.of(), "", -1);
    }
    Render render = compile();
    if (!render.ok()) {
      return failed(render, "");
    }
    RenderedDirectory.Outcome outcome =
        RenderedDirectory.write(render.result().objects(), output(), render.inputs().paths());
    if (!outcome.ok()) {
      return failed(render, outcome.report());
    }
    writeStamp(stamp());
    return new Result(
        true,
        false,
        warnings(render, outcome.warnings()),
        notes(render),
        "",
        render.result().objects().size());
  }

  /** Compares {@code outputDirectory} with a fresh render; writes nothing. */
  public Result check() {
    Render render = compile();
    if (!render.ok()) {
      return failed(render, "");
    }
    RenderedDirectory.Outcome outcome =
        RenderedDirectory.check(render.result().objects(), output());
    return new Result(
        outcome.ok(),
        false,
        warnings(render, outcome.warnings()),
        notes(render),
        outcome.report(),
        render.result().objects().size());
  }

  private Render compile() {
    return Render.of(
        new ManifestCompiler(),
        List.of(display(sourceDirectory)),
        selection,
        baseDirectory,
        InputStream.nullInputStream(),
        options);
  }

  private OutputDirectory output() {
    return new OutputDirectory(display(outputDirectory), outputDirectory);
  }

  private static Result failed(Render render, String more) {
    StringBuilder report = new StringBuilder();
    for (Diagnostic d : render.diagnostics()) {
      if (d.isError()) {
        report.append(d.format()).append('\n');
      }
    }
    return new Result(false, false, warnings(render, List.of()), notes(render), report + more, 0);
  }

  /** The render's warnings, then {@code more} (the directory's: {@link RenderedDirectory}). */
  private static List<String> warnings(Render render, List<String> more) {
    List<String> out = new java.util.ArrayList<>(lines(render, Severity.WARNING));
    out.addAll(more);
    return out;
  }

  private static List<String> notes(Render render) {
    return lines(render, Severity.NOTE);
  }

  private static List<String> lines(Render render, Severity severity) {
    return render.diagnostics().stream()
        .filter(d -> d.severity() == severity)
        .map(Diagnostic::format)
        .toList();
  }

  /** A path as messages show it: relative to the project when inside it. */
  private String display(Path p) {
    Path base = baseDirectory.toAbsolutePath().normalize();
    Path abs = p.toAbsolutePath().normalize();
    return abs.startsWith(base) && !abs.equals(base)
        ? base.relativize(abs).toString().replace('\\', '/')
        : abs.toString();
  }

  /**
   * A digest of everything the output depends on (plugin version, options, every input) and of the
   * output as it is now, so a deleted or edited output file also makes the next run render.
   */
  private String stamp() {
    try {
      MessageDigest sha = MessageDigest.getInstance("SHA-256");
      update(sha, "jobc-maven-plugin " + version());
      update(sha, options.toString());
      update(sha, String.join("\n", selection.excludes()));
      List<Source> sources =
          InputFiles.read(
                  List.of(display(sourceDirectory)),
                  selection,
                  baseDirectory,
                  new ByteArrayInputStream(new byte[0]),
                  InputLimits.defaults())
              .sources();
      for (Source s : sources) {
        update(sha, s.name());
        update(sha, s.text());
      }
      for (Map.Entry<String, String> f : output().read().entrySet()) {
        update(sha, f.getKey());
        update(sha, f.getValue());
      }
      return HexFormat.of().formatHex(sha.digest());
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void update(MessageDigest sha, String s) {
    byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
    // Length-prefixed, so that ("ab", "c") and ("a", "bc") differ.
    sha.update(Integer.toString(bytes.length).getBytes(StandardCharsets.US_ASCII));
    sha.update((byte) ':');
    sha.update(bytes);
  }

  private String readStamp() {
    try {
      return Files.isRegularFile(stampFile) ? Files.readString(stampFile).strip() : "";
    } catch (IOException e) {
      return ""; // an unreadable stamp only costs a render
    }
  }

  private void writeStamp(String stamp) {
    try {
      Files.createDirectories(stampFile.toAbsolutePath().getParent());
      Files.writeString(stampFile, stamp + "\n");
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + stampFile, e);
    }
  }

  static String version() {
    Properties p = new Properties();
    try (InputStream in = ProjectRender.class.getResourceAsStream("plugin.properties")) {
      if (in == null) {
        throw new IllegalStateException("plugin.properties is missing from the jar");
      }
      p.load(in);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return p.getProperty("version");
  }
}
