package dev.jobc.io;

import dev.jobc.diag.Code;
import dev.jobc.diag.Diagnostic;
import dev.jobc.diag.Quoting;
import dev.jobc.diag.Severity;
import dev.jobc.model.OutputObject;
import java.io.IOException;
import java.nio.file.InvalidPathException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Writes rendered objects into an {@link OutputDirectory}, one file per object ({@code jobc render
 * -o}, Maven {@code jobc:render}), or compares them with one ({@code --check}, {@code jobc:check}).
 */
public final class RenderedDirectory {
  private RenderedDirectory() {} // don't instantiate

  /**
   * What happened.
   *
   * @param ok whether the directory now holds the render ({@code write}) or already did ({@code
   *     check})
   * @param report what to show the user, one line per problem and then any unified diff; empty when
   *     {@code ok}
   * @param changes the files {@code write} added, changed or removed; empty when the directory
   *     already held the render
   * @param warnings one line per object of the directory's previous render that the API server
   *     would refuse to update to this one ({@link RefusedUpdates}), to print whatever {@code ok}
   * @param stale whether {@code check} found a directory that {@code write} would make current: it
   *     differs from the render, or is missing
   */
  public record Outcome(
      boolean ok,
      String report,
      List<OutputDirectory.Change> changes,
      List<String> warnings,
      boolean stale) {
    public Outcome {
      changes = List.copyOf(changes);
      warnings = List.copyOf(warnings);
    }

    private static Outcome failed(String report) {
      return new Outcome(false, report, List.of(), List.of(), false);
    }
  }

  /**
   * One warning line per object of the previous render ({@code before}) that the API server would
   * refuse to update to the new one ({@link RefusedUpdates}).
   */
  private static List<String> refused(
      OutputDirectory dir, SortedMap<String, String> before, SortedMap<String, String> after) {
    List<String> out = new ArrayList<>();
    for (RefusedUpdates.Refusal r : RefusedUpdates.between(before, after)) {
      out.add(dir.display(r.file()) + ": warning: " + r.message());
    }
    return out;
  }

  /**
   * Makes {@code dir} hold exactly the files of {@code objects}, unless it holds something jobc did
   * not write or one of {@code inputs}.
   */
  public static Outcome write(
      List<OutputObject> objects, OutputDirectory dir, List<InputFiles.File> inputs) {
    StringBuilder report = new StringBuilder();
    Optional<SortedMap<String, String>> files = files(objects, dir, report);
    if (files.isEmpty()) {
      return Outcome.failed(report.toString());
    }
    // What the directory held: a changed Job or Pod there may exist in a cluster. A directory
    // that cannot be read as jobc's says nothing here; replace refuses it with its reason.
    SortedMap<String, String> before;
    try {
      before = dir.contents().map(OutputDirectory.Contents::files).orElseGet(TreeMap::new);
    } catch (OutputDirectory.Refusal | IOException | InvalidPathException e) {
      before = new TreeMap<>();
    }
    List<String> warnings = refused(dir, before, files.get());
    try {
      return new Outcome(true, "", dir.replace(files.get(), inputs), warnings, false);
    } catch (OutputDirectory.Refusal r) {
      return Outcome.failed(
          "jobc: error: refusing to replace " + dir.name() + ": " + r.getMessage() + "\n");
    } catch (IOException e) {
      return Outcome.failed("jobc: error: " + dir.describe(e) + "\n");
    } catch (InvalidPathException e) {
      return Outcome.failed("jobc: error: " + dir.name() + ": " + unencodable(e) + "\n");
    }
  }

  /**
   * Compares {@code dir} with the files of {@code objects} and their record; the report is a
   * unified diff. A directory that {@code write} would refuse is refused here too.
   */
  public static Outcome check(List<OutputObject> objects, OutputDirectory dir) {
    StringBuilder report = new StringBuilder();
    Optional<SortedMap<String, String>> rendered = files(objects, dir, report);
    if (rendered.isEmpty()) {
      return Outcome.failed(report.toString());
    }
    Optional<OutputDirectory.Contents> contents;
    try {
      contents = dir.contents();
    } catch (OutputDirectory.Refusal r) {
      return Outcome.failed(
          "jobc: error: refusing to check " + dir.name() + ": " + r.getMessage() + "\n");
    } catch (IOException e) {
      return Outcome.failed("jobc: error: " + dir.describe(e) + "\n");
    } catch (InvalidPathException e) {
      return Outcome.failed("jobc: error: " + dir.name() + ": " + unencodable(e) + "\n");
    }
    if (contents.isEmpty()) {
      return new Outcome(
          false, dir.name() + ": error: no such directory\n", List.of(), List.of(), true);
    }
    if (contents.get().unfinished()) {
      return new Outcome(
          false,
          dir.name()
              + ": error: a render was stopped while it replaced the files ("
              + dir.display(OutputDirectory.SWAP)
              + " holds its journal), so the files are part old render, part new; run jobc"
              + " render -o "
              + dir.name()
              + " to finish it\n",
          List.of(),
          List.of(),
          true);
    }
    SortedMap<String, String> existing = contents.get().files();
    java.util.Set<String> notRead = contents.get().notRead();
    SortedMap<String, String> expected = OutputDirectory.withRecord(rendered.get());
    TreeSet<String> names = new TreeSet<>(existing.keySet());
    names.addAll(expected.keySet());
    for (String name : names) {
      if (notRead.contains(name)) {
        // A file longer than any jobc writes differs, and is not read whole to say how.
        report
            .append("--- ")
            .append(dir.display(name))
            .append("\n+++ ")
            .append(expected.containsKey(name) ? name + " (rendered)" : "/dev/null")
            .append("\n@@ longer than any file jobc writes: not compared line by line @@\n");
        continue;
      }
      String before = existing.get(name);
      String after = expected.get(name);
      String oldLabel = before == null ? "/dev/null" : dir.display(name);
      String newLabel = after == null ? "/dev/null" : name + " (rendered)";
      String diff =
          UnifiedDiff.diff(
              oldLabel, before == null ? "" : before, newLabel, after == null ? "" : after);
      if (diff.isEmpty() && (before == null) != (after == null)) {
        // An empty file on one side only: no line differs, but the set of files does.
        diff = "--- " + oldLabel + "\n+++ " + newLabel + "\n";
      }
      report.append(diff);
    }
    // The committed render is what a cluster was given: say which of its objects would refuse
    // this one.
    List<String> warnings = refused(dir, existing, rendered.get());
    return new Outcome(
        report.length() == 0, report.toString(), List.of(), warnings, report.length() > 0);
  }

  /**
   * Why a path cannot be named: this JVM encodes file names in a charset without the characters (a
   * {@code C} or {@code POSIX} locale: ASCII).
   */
  static String unencodable(InvalidPathException e) {
    return "a file name with characters this system's file name encoding ("
        + System.getProperty("sun.jnu.encoding")
        + ") cannot hold; run jobc in a UTF-8 locale (LC_ALL=C.UTF-8): "
        + printable(e.getInput());
  }

  /**
   * File name to text, or empty (after reporting why) when two objects want the same file: the same
   * name, or names that case- or normalization-insensitive file systems take for one ({@link
   * OutputObject#fileKey}: a rendered directory's Git checkout on macOS or Windows). Each clash is
   * reported at the later object's input, naming the earlier one's.
   */
  private static Optional<SortedMap<String, String>> files(
      List<OutputObject> objects, OutputDirectory dir, StringBuilder report) {
    Map<String, OutputObject> byKey = new LinkedHashMap<>();
    SortedMap<String, String> files = new TreeMap<>();
    List<Diagnostic> collisions = new ArrayList<>();
    for (OutputObject object : objects) {
      // Kinds and names come from the input: a kind "../../x/ConfigMap" must not write outside.
      Optional<String> problem = OutputDirectory.fileNameProblem(object.fileName());
      if (problem.isPresent()) {
        report
            .append("jobc: error: refusing to write ")
            .append(printable(describe(object)))
            .append(" into ")
            .append(dir.name())
            .append(": its file name \"")
            .append(printable(object.fileName()))
            .append("\" is not one plain file name: ")
            .append(problem.get())
            .append('\n');
        continue;
      }
      OutputObject previous = byKey.putIfAbsent(OutputObject.fileKey(object.fileName()), object);
      if (previous != null) {
        // Reported at the one that comes later in the input: renaming it is the usual fix.
        collisions.add(
            later(object, previous)
                ? collision(previous, object, dir)
                : collision(object, previous, dir));
      } else {
        files.put(object.fileName(), object.yaml());
      }
    }
    collisions.sort(Diagnostic.ORDER);
    for (Diagnostic d : collisions) {
      report.append(d.format()).append('\n');
    }
    return collisions.isEmpty() && report.length() == 0 ? Optional.of(files) : Optional.empty();
  }

  /** Whether {@code a} comes after {@code b} in the input (unknown origins last). */
  private static boolean later(OutputObject a, OutputObject b) {
    if (a.origin() == null || b.origin() == null) {
      return b.origin() != null || a.origin() == null;
    }
    int byFile = a.origin().file().compareTo(b.origin().file());
    if (byFile != 0) {
      return byFile > 0;
    }
    return a.origin().line() != b.origin().line()
        ? a.origin().line() > b.origin().line()
        : a.origin().column() > b.origin().column();
  }

  /** {@code later} would be written where {@code earlier} is, at {@code later}'s input. */
  private static Diagnostic collision(
      OutputObject earlier, OutputObject later, OutputDirectory dir) {
    boolean same = earlier.fileName().equals(later.fileName());
    String message =
        "Duplicate value: "
            + describe(later)
            + " and "
            + describe(earlier)
            + (earlier.origin() == null
                ? ""
                : " ("
                    + Quoting.fileName(earlier.origin().file())
                    + ":"
                    + earlier.origin().line()
                    + ")")
            + (same
                ? " would both be written to " + dir.display(later.fileName())
                : " would be written to "
                    + Quoting.quote(later.fileName())
                    + " and "
                    + Quoting.quote(earlier.fileName())
                    + ", one file on case- and normalization-insensitive file systems (macOS,"
                    + " Windows)")
            + "; give them distinct names";
    OutputObject.Origin at = later.origin();
    return at == null
        ? new Diagnostic(
            Severity.ERROR, Code.DUPLICATE, dir.display(later.fileName()), -1, -1, "", message)
        : new Diagnostic(
            Severity.ERROR,
            Code.DUPLICATE,
            at.file(),
            at.line(),
            at.column(),
            "metadata.name",
            message);
  }

  /**
   * {@code s} with control characters as {@code \\uXXXX}, so a message stays one printable line.
   */
  private static String printable(String s) {
    StringBuilder out = new StringBuilder(s.length());
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c < 0x20 || c == 0x7f) {
        out.append(String.format(java.util.Locale.ROOT, "\\u%04x", (int) c));
      } else {
        out.append(c);
      }
    }
    return out.toString();
  }

  private static String describe(OutputObject o) {
    return o.kind() + " " + (o.namespace().isEmpty() ? "" : o.namespace() + "/") + o.name();
  }
}
