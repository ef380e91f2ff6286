package dev.jobc.golden;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jobc.diag.Diagnostic;
import dev.jobc.load.LoadResult;
import dev.jobc.load.YamlLimits;
import dev.jobc.load.YamlLoader;
import dev.jobc.model.Source;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * One directory of {@code golden/cases}: an input, its options, and the expectation it is checked
 * against. {@link #discover} enforces the case rules of DEVELOPERS.md.
 */
record GoldenCase(Path dir, Expectation expectation, boolean hasWarnings, String command) {

  /** A case of {@code jobc render}. */
  GoldenCase(Path dir, Expectation expectation, boolean hasWarnings) {
    this(dir, expectation, hasWarnings, RENDER);
  }

  /** The command golden/cases run; golden/migrate-cases run {@value #MIGRATE}. */
  static final String RENDER = "render";

  static final String MIGRATE = "migrate";

  static final String INPUT = "input.yaml";
  static final String OPTIONS = "options.yaml";
  static final String README = "README.md";
  static final String EXPECTED = "expected.yaml";
  static final String ERRORS = "expected-errors.txt";
  static final String WARNINGS = "expected-warnings.txt";

  private static final Set<String> ALLOWED =
      Set.of(INPUT, OPTIONS, README, EXPECTED, ERRORS, WARNINGS);

  // -o would write files into the case directory, which the rules above then reject; cases
  // compare stdout instead.
  private static final Set<String> FORBIDDEN_OPTIONS = Set.of("o", "output");

  /** What a case expects of {@code jobc render}. */
  enum Expectation {
    /** {@code expected.yaml}: exit 0, stdout compared. */
    SUCCESS,
    /** {@code expected-errors.txt}: exit 1, stderr compared. */
    ERROR,
    /**
     * No expectation yet; only allowed in update mode, which writes the one the exit code picks.
     */
    NEW
  }

  String name() {
    return dir.getFileName().toString();
  }

  /**
   * Every case under {@code root}, sorted by name.
   *
   * @param allowNew whether a case without an expectation is accepted (update mode)
   * @throws AssertionError listing every rule broken, or when there is no case at all
   */
  static List<GoldenCase> discover(Path root, boolean allowNew) {
    return discover(root, allowNew, RENDER);
  }

  /** As above, for cases of {@code jobc <command>}. */
  static List<GoldenCase> discover(Path root, boolean allowNew, String command) {
    if (!Files.isDirectory(root)) {
      throw new AssertionError("golden case directory does not exist: " + root);
    }
    List<String> problems = new ArrayList<>();
    List<GoldenCase> cases = new ArrayList<>();
    for (Path entry : sortedEntries(root)) {
      if (!Files.isDirectory(entry)) {
        problems.add(entry + ": bad file name: only case directories belong in " + root);
        continue;
      }
      GoldenCase c = inspect(entry, allowNew, command, problems);
      if (c != null) {
        cases.add(c);
      }
    }
    if (!problems.isEmpty()) {
      throw new AssertionError(
          "bad golden cases in " + root + ":\n  " + String.join("\n  ", problems));
    }
    if (cases.isEmpty()) {
      throw new AssertionError("No complete test cases found in " + root);
    }
    return List.copyOf(cases);
  }

  /** Checks one case directory, adding each broken rule to {@code problems}; null when broken. */
  private static GoldenCase inspect(
      Path dir, boolean allowNew, String command, List<String> problems) {
    int before = problems.size();
    Set<String> names = new TreeSet<>();
    for (Path file : sortedEntries(dir)) {
      String name = file.getFileName().toString();
      if (!ALLOWED.contains(name) || !Files.isRegularFile(file)) {
        problems.add(
            file
                + ": bad file name: a case holds only "
                + String.join(", ", List.of(INPUT, OPTIONS, README, EXPECTED, ERRORS, WARNINGS)));
      } else {
        names.add(name);
      }
    }
    if (!names.contains(INPUT)) {
      problems.add(dir + ": missing " + INPUT);
    }
    boolean success = names.contains(EXPECTED);
    boolean error = names.contains(ERRORS);
    if (success && error) {
      problems.add(dir + ": has both " + EXPECTED + " and " + ERRORS + "; keep exactly one");
    } else if (!success && !error && !allowNew) {
      problems.add(
          dir
              + ": has neither "
              + EXPECTED
              + " nor "
              + ERRORS
              + "; create one with -Dgolden.update=true -Dgolden.case="
              + dir.getFileName());
    }
    boolean warnings = names.contains(WARNINGS);
    if (warnings && !success) {
      problems.add(dir + ": " + WARNINGS + " only belongs next to " + EXPECTED);
    }
    if (names.contains(README)) {
      String text = read(dir.resolve(README));
      String body = text.endsWith("\n") ? text.substring(0, text.length() - 1) : text;
      if (body.isBlank() || body.contains("\n")) {
        problems.add(dir.resolve(README) + ": must be exactly one line saying why the case exists");
      }
    }
    if (problems.size() > before) {
      return null;
    }
    Expectation e = success ? Expectation.SUCCESS : error ? Expectation.ERROR : Expectation.NEW;
    return new GoldenCase(dir, e, warnings, command);
  }

  /**
   * The {@code jobc} arguments for this case: {@code render input.yaml} (or the case's command) and
   * then the options of {@code options.yaml}, in file order.
   */
  List<String> arguments() {
    List<String> args = new ArrayList<>(List.of(command, INPUT));
    Path options = dir.resolve(OPTIONS);
    if (Files.exists(options)) {
      args.addAll(options(options.toString(), read(options)));
    }
    return args;
  }

  /**
   * Maps an options file onto command-line options: {@code key: value} becomes {@code --key value},
   * {@code key: true} a bare {@code --key}, and a list repeats the option once per item.
   *
   * @throws AssertionError when the file is not such a map
   */
  static List<String> options(String name, String text) {
    LoadResult loaded = new YamlLoader(YamlLimits.defaults()).load(new Source(name, text));
    List<String> errors =
        loaded.diagnostics().stream().filter(Diagnostic::isError).map(Diagnostic::format).toList();
    if (!errors.isEmpty()) {
      throw new AssertionError(name + " does not load:\n" + String.join("\n", errors));
    }
    if (loaded.documents().isEmpty()) {
      return List.of();
    }
    if (loaded.documents().size() > 1 || !loaded.documents().get(0).root().isObject()) {
      throw new AssertionError(name + ": must be one YAML map of option name to value");
    }
    List<String> args = new ArrayList<>();
    for (Map.Entry<String, JsonNode> field : loaded.documents().get(0).root().properties()) {
      String key = field.getKey();
      if (key.startsWith("-") || key.isBlank()) {
        throw new AssertionError(name + ": write option names without dashes: " + key);
      }
      if (FORBIDDEN_OPTIONS.contains(key)) {
        throw new AssertionError(
            name + ": option " + key + " would write into the case; cases compare stdout");
      }
      JsonNode value = field.getValue();
      if (value.isArray()) {
        for (JsonNode item : value) {
          args.add("--" + key);
          args.add(scalar(name, key, item));
        }
      } else if (value.isBoolean()) {
        if (!value.booleanValue()) {
          throw new AssertionError(name + ": " + key + ": write a flag as true or leave it out");
        }
        args.add("--" + key);
      } else {
        args.add("--" + key);
        args.add(scalar(name, key, value));
      }
    }
    return args;
  }

  private static String scalar(String name, String key, JsonNode value) {
    if (!value.isValueNode() || value.isNull()) {
      throw new AssertionError(name + ": " + key + ": expected a scalar or a list of scalars");
    }
    return value.asText();
  }

  private static List<Path> sortedEntries(Path dir) {
    try (Stream<Path> entries = Files.list(dir)) {
      // Sort by file name as a String, not by Path, so the order is the same on every platform.
      return entries
          .sorted((x, y) -> x.getFileName().toString().compareTo(y.getFileName().toString()))
          .toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static String read(Path file) {
    try {
      return Files.readString(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
