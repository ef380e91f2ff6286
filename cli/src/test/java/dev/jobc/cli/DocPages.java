package dev.jobc.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The user documentation as the tests read it: README.md and every {@code docs/**.md} page, with
 * their fenced blocks, inline code, links and heading anchors. {@link DocSnippets} takes the
 * snippets the channel tests run from here, and {@code DocsTest} checks every block and link.
 */
record DocPages(Path root, List<Page> pages) {

  /** One Markdown page: its path relative to the repository root, and its lines. */
  record Page(Path path, List<String> lines) {
    /** The file name and 1-based line, for messages: {@code docs/usage.md:12}. */
    String at(int line) {
      return path + ":" + line;
    }
  }

  /**
   * A fenced block: its page and the line of its opening fence, the fence's info string ({@code
   * sh}, {@code yaml}; empty when none), the HTML comment on the line before it ({@code snippet:
   * kpt-eval}, {@code fragment}; null when there is none), and its body, ending in a newline.
   */
  record Block(Page page, int line, String lang, String marker, String body) {
    String at() {
      return page.at(line);
    }
  }

  /** Inline code ({@code `...`}) outside blocks, whitespace folded as Markdown renders it. */
  record Code(Page page, int line, String text) {}

  /** A link {@code [text](target)} outside code, at its page's line. */
  record Link(Page page, int line, String target) {}

  private static final Pattern MARKER = Pattern.compile("^<!--\\s*(.*?)\\s*-->$");
  private static final Pattern HEADING = Pattern.compile("^#{1,6} +(.*?)#*\\s*$");
  private static final Pattern INLINE_CODE = Pattern.compile("(`+)(.+?)\\1", Pattern.DOTALL);
  private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)\\)");

  /** The repository's README.md and docs/, in a fixed order. */
  static DocPages read() {
    return read(repositoryRoot());
  }

  /** The pages under {@code root}: README.md and every {@code *.md} below {@code docs/}. */
  static DocPages read(Path root) {
    List<Path> paths = new ArrayList<>();
    paths.add(Path.of("README.md"));
    Path docs = root.resolve("docs");
    if (Files.isDirectory(docs)) {
      try (Stream<Path> walk = Files.walk(docs)) {
        walk.filter(p -> p.getFileName().toString().endsWith(".md"))
            .map(root::relativize)
            .sorted()
            .forEach(paths::add);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    List<Page> pages = new ArrayList<>();
    for (Path path : paths) {
      try {
        pages.add(new Page(path, Files.readAllLines(root.resolve(path), StandardCharsets.UTF_8)));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return new DocPages(root, List.copyOf(pages));
  }

  /** The repository root: failsafe and surefire run in {@code cli/}, failsafe also says so. */
  static Path repositoryRoot() {
    return Path.of(System.getProperty("jobc.root", "..")).toAbsolutePath().normalize();
  }

  /** Every fenced block of every page, in page order. */
  List<Block> blocks() {
    List<Block> blocks = new ArrayList<>();
    for (Page page : pages) {
      List<String> lines = page.lines();
      for (int i = 0; i < lines.size(); i++) {
        String open = lines.get(i);
        if (!open.startsWith("```")) {
          continue;
        }
        int start = i;
        StringBuilder body = new StringBuilder();
        for (i++; i < lines.size() && !lines.get(i).startsWith("```"); i++) {
          body.append(lines.get(i)).append('\n');
        }
        if (i == lines.size()) {
          throw new AssertionError(page.at(start + 1) + ": unterminated fenced block");
        }
        String marker = null;
        if (start > 0) {
          Matcher m = MARKER.matcher(lines.get(start - 1).strip());
          marker = m.matches() ? m.group(1) : null;
        }
        blocks.add(new Block(page, start + 1, open.substring(3).strip(), marker, body.toString()));
      }
    }
    return blocks;
  }

  /** Inline code of every page. */
  List<Code> inlineCode() {
    List<Code> codes = new ArrayList<>();
    for (Page page : pages) {
      Prose prose = prose(page);
      Matcher m = INLINE_CODE.matcher(prose.text());
      while (m.find()) {
        codes.add(
            new Code(page, prose.line(m.start()), m.group(2).strip().replaceAll("\\s+", " ")));
      }
    }
    return codes;
  }

  /** Every link of every page, outside blocks and inline code. */
  List<Link> links() {
    List<Link> links = new ArrayList<>();
    for (Page page : pages) {
      Prose prose = prose(page);
      // Blank out inline code, keeping offsets, so a `](x)` in code is not a link.
      Matcher code = INLINE_CODE.matcher(prose.text());
      StringBuilder text = new StringBuilder(prose.text());
      while (code.find()) {
        for (int i = code.start(); i < code.end(); i++) {
          if (text.charAt(i) != '\n') {
            text.setCharAt(i, ' ');
          }
        }
      }
      Matcher m = LINK.matcher(text);
      while (m.find()) {
        links.add(new Link(page, prose.line(m.start()), m.group(1)));
      }
    }
    return links;
  }

  /**
   * The anchors of a Markdown file's headings as GitHub makes them: lower case, every character but
   * letters, digits, spaces, {@code -} and {@code _} dropped, spaces to {@code -}, and a repeated
   * anchor numbered {@code -1}, {@code -2}, ...
   */
  static Set<String> anchors(List<String> lines) {
    Set<String> anchors = new LinkedHashSet<>();
    boolean fenced = false;
    for (String line : lines) {
      if (line.startsWith("```")) {
        fenced = !fenced;
        continue;
      }
      Matcher m = HEADING.matcher(line);
      if (fenced || !m.matches()) {
        continue;
      }
      String text = m.group(1).replaceAll("\\[([^\\]]*)\\]\\([^)]*\\)", "$1");
      StringBuilder slug = new StringBuilder();
      for (int c : text.strip().toLowerCase(Locale.ROOT).codePoints().toArray()) {
        if (Character.isLetterOrDigit(c) || c == '-' || c == '_') {
          slug.appendCodePoint(c);
        } else if (c == ' ') {
          slug.append('-');
        }
      }
      String anchor = slug.toString();
      for (int n = 1; !anchors.add(anchor); n++) {
        anchor = slug + "-" + n;
      }
    }
    return anchors;
  }

  /** A page's text outside fenced blocks (blanked to empty lines), and where each line starts. */
  private record Prose(String text, int[] lineStarts) {
    int line(int offset) {
      int line = 0;
      while (line + 1 < lineStarts.length && lineStarts[line + 1] <= offset) {
        line++;
      }
      return line + 1;
    }
  }

  private static Prose prose(Page page) {
    StringBuilder text = new StringBuilder();
    int[] starts = new int[page.lines().size()];
    boolean fenced = false;
    for (int i = 0; i < page.lines().size(); i++) {
      starts[i] = text.length();
      String line = page.lines().get(i);
      boolean fence = line.startsWith("```");
      if (!fenced && !fence) {
        text.append(line);
      }
      text.append('\n');
      if (fence) {
        fenced = !fenced;
      }
    }
    return new Prose(text.toString(), starts);
  }
}
