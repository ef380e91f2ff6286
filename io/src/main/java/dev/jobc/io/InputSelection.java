package dev.jobc.io;

import dev.jobc.diag.Quoting;
import java.nio.file.FileSystems;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.PatternSyntaxException;

/**
 * Which files below an input directory are read: every {@code *.yaml}/{@code *.yml} file but hidden
 * ones, tool configuration ({@link ToolFiles}) and what the user's {@code --exclude} globs match;
 * and whether an input that does not exist is an error or an empty directory.
 *
 * <p>A glob is matched, in Java's glob syntax ({@code *} within a name, {@code **} across
 * directories, {@code ?}, {@code [a-z]}, {@code {a,b}}), against the path of each file and
 * directory below an input directory, relative to it ({@code kpt/quota.yaml}) and as messages show
 * it ({@code examples/kpt/quota.yaml}). A glob without a {@code /} matches a file or directory name
 * at any depth, as in {@code .gitignore}. An excluded directory is not read at all. Files named as
 * inputs themselves are always read.
 */
public final class InputSelection {
  /** Every file, and a missing input is an error. */
  public static final InputSelection ALL = new InputSelection(List.of(), false);

  private final List<String> excludes;
  private final List<Glob> globs = new ArrayList<>();
  private final boolean missingIsEmpty;

  /**
   * @param excludes the globs, as given
   * @param missingIsEmpty whether an input that does not exist is read as an empty directory
   *     ({@code jobc render --allow-missing}: git keeps no empty directory, so deleting the last
   *     job of {@code jobs/} deletes {@code jobs/})
   * @throws IllegalArgumentException naming a glob that is empty or not a glob
   */
  public InputSelection(List<String> excludes, boolean missingIsEmpty) {
    this.excludes = List.copyOf(excludes);
    this.missingIsEmpty = missingIsEmpty;
    for (String glob : this.excludes) {
      globs.add(Glob.of(glob));
    }
  }

  /** The globs, as given. */
  public List<String> excludes() {
    return excludes;
  }

  /** Whether an input that does not exist is read as an empty directory. */
  public boolean missingIsEmpty() {
    return missingIsEmpty;
  }

  /**
   * Whether a file or directory below an input directory is excluded: {@code relative} is its path
   * from that directory, {@code shown} the name messages give it.
   */
  boolean excluded(String relative, String shown) {
    Path path = Path.of(relative);
    Path name = path.getFileName();
    Path shownPath = Path.of(shown).normalize();
    for (Glob glob : globs) {
      boolean matched =
          glob.anyDepth()
              ? name != null && glob.matcher().matches(name)
              : glob.matcher().matches(path) || glob.matcher().matches(shownPath);
      if (matched) {
        return true;
      }
    }
    return false;
  }

  /** One compiled glob; {@code anyDepth} when it has no {@code /} and so matches a name. */
  private record Glob(PathMatcher matcher, boolean anyDepth) {
    static Glob of(String glob) {
      // ./kpt/ means kpt.
      String pattern = glob;
      while (pattern.startsWith("./")) {
        pattern = pattern.substring(2);
      }
      while (pattern.length() > 1 && pattern.endsWith("/")) {
        pattern = pattern.substring(0, pattern.length() - 1);
      }
      if (pattern.isEmpty()) {
        throw new IllegalArgumentException(
            "exclude " + Quoting.quote(glob) + ": the pattern is empty");
      }
      try {
        return new Glob(
            FileSystems.getDefault().getPathMatcher("glob:" + pattern), !pattern.contains("/"));
      } catch (PatternSyntaxException e) {
        throw new IllegalArgumentException(
            "exclude " + Quoting.quote(glob) + ": not a glob: " + e.getDescription(), e);
      }
    }
  }
}
