package dev.jobc.frontend;

import dev.jobc.OutputObject;
import dev.jobc.diag.Code;
import dev.jobc.diag.Diagnostic;
import dev.jobc.diag.Severity;
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
   */
  public record Outcome(boolean ok, String report) {}

  /**
   * Makes {@code dir} hold exactly the files of {@code objects}, unless it holds something jobc did
   * not write or one of {@code inputs}.
   */
  public static Outcome write(
      List<OutputObject> objects, OutputDirectory dir, List<InputFiles.File> inputs) {
    StringBuilder report = new StringBuilder();
    Optional<SortedMap<String, String>> files = files(objects, dir, report);
    if (files.isEmpty()) {
      return new Outcome(false, report.toString());
    }
    try {
      Optional<String> refusal = dir.refusal(inputs);
      if (refusal.isPresent()) {
        return new Outcome(false, "jobc: error: " + refusal.get() + "\n");
      }
      dir.replace(files.get());
      return new Outcome(true, "");
    } catch (IOException e) {
      return new Outcome(false, "jobc: error: " + dir.name() + ": " + e.getMessage() + "\n");
    }
  }

  /** Compares {@code dir} with the files of {@code objects}; the report is a unified diff. */
  public static Outcome check(List<OutputObject> objects, OutputDirectory dir) {
    StringBuilder report = new StringBuilder();
    Optional<SortedMap<String, String>> rendered = files(objects, dir, report);
    if (rendered.isEmpty()) {
      return new Outcome(false, report.toString());
    }
    if (!dir.exists()) {
      return new Outcome(false, dir.name() + ": error: no such directory\n");
    }
    SortedMap<String, String> existing;
    try {
      existing = dir.read();
    } catch (IOException e) {
      return new Outcome(false, "jobc: error: " + dir.name() + ": " + e.getMessage() + "\n");
    }
    TreeSet<String> names = new TreeSet<>(existing.keySet());
    names.addAll(rendered.get().keySet());
    for (String name : names) {
      String before = existing.get(name);
      String after = rendered.get().get(name);
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
    return new Outcome(report.length() == 0, report.toString());
  }

  /** File name to text, or empty (after reporting why) when two objects want the same file. */
  private static Optional<SortedMap<String, String>> files(
      List<OutputObject> objects, OutputDirectory dir, StringBuilder report) {
    Map<String, OutputObject> byName = new LinkedHashMap<>();
    SortedMap<String, String> files = new TreeMap<>();
    List<Diagnostic> collisions = new ArrayList<>();
    for (OutputObject object : objects) {
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
    return collisions.isEmpty() ? Optional.of(files) : Optional.empty();
  }

  private static String describe(OutputObject o) {
    return o.kind() + " " + (o.namespace().isEmpty() ? "" : o.namespace() + "/") + o.name();
  }
}
