package dev.jobc.io;

import dev.jobc.diag.Code;
import dev.jobc.diag.Diagnostic;
import dev.jobc.diag.Severity;
import dev.jobc.model.OutputObject;
import java.io.IOException;
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
      before = dir.contents().orElseGet(TreeMap::new);
    } catch (OutputDirectory.Refusal | IOException e) {
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
    Optional<SortedMap<String, String>> contents;
    try {
      contents = dir.contents();
    } catch (OutputDirectory.Refusal r) {
      return Outcome.failed(
          "jobc: error: refusing to check " + dir.name() + ": " + r.getMessage() + "\n");
    } catch (IOException e) {
      return Outcome.failed("jobc: error: " + dir.describe(e) + "\n");
    }
    if (contents.isEmpty()) {
      return new Outcome(
          false, dir.name() + ": error: no such directory\n", List.of(), List.of(), true);
    }
    SortedMap<String, String> existing = contents.get();
    SortedMap<String, String> expected = OutputDirectory.withRecord(rendered.get());
    TreeSet<String> names = new TreeSet<>(existing.keySet());
    names.addAll(expected.keySet());
    for (String name : names) {
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

  /** File name to text, or empty (after reporting why) when two objects want the same file. */
  private static Optional<SortedMap<String, String>> files(
      List<OutputObject> objects, OutputDirectory dir, StringBuilder report) {
    Map<String, OutputObject> byName = new LinkedHashMap<>();
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
      OutputObject previous = byName.putIfAbsent(object.fileName(), object);
      if (previous != null) {
        collisions.add(
            new Diagnostic(
                Severity.ERROR,
                Code.DUPLICATE,
                dir.display(object.fileName()),
                -1,
                -1,
                "",
                "both "
                    + describe(previous)
                    + " and "
                    + describe(object)
                    + " would be written to this file; give them distinct names"));
      } else {
        files.put(object.fileName(), object.yaml());
      }
    }
    for (Diagnostic d : collisions) {
      report.append(d.format()).append('\n');
    }
    return collisions.isEmpty() && report.length() == 0 ? Optional.of(files) : Optional.empty();
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
