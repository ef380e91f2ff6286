package dev.jobc.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jobc.diag.Diagnostic;
import dev.jobc.load.LoadResult;
import dev.jobc.load.YamlLimits;
import dev.jobc.load.YamlLoader;
import dev.jobc.model.Source;
import dev.jobc.options.Option;
import dev.jobc.options.OptionTable;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;

/**
 * README.md and docs/ cannot drift from jobc: every link and anchor resolves, every shell block
 * parses ({@code bash -n}), every {@code jobc} command line in a shell block or inline code parses
 * with the real command line (subcommand, options, option values by the option table) and, where it
 * only reads files of this repository, runs with exit code 0; every YAML block loads (unless marked
 * {@code <!-- fragment -->}), every XML block is well formed, and every copy of a snippet is the
 * same text. The last test shows each check failing on a broken page.
 */
class DocsTest {
  /** The languages a fenced block may name: each is checked, or is plain text by choice. */
  private static final Set<String> SHELL = Set.of("sh", "bash", "console");

  private static final Set<String> LANGUAGES =
      Set.of("sh", "bash", "console", "yaml", "xml", "text");

  /** The marker of a YAML block that is deliberately part of a larger document. */
  static final String FRAGMENT = "fragment";

  private static final Pattern SCHEME = Pattern.compile("^[A-Za-z][A-Za-z0-9+.-]*:");

  private static final Pattern DOCS_REFERENCE =
      Pattern.compile("\\b(docs/[A-Za-z0-9_/-]+\\.md)(?:#([a-z0-9_-]+))?");

  @TempDir Path tmp;

  @Test
  void everyRelativeLinkAndAnchorResolves() {
    assertThat(links(DocPages.read())).isEmpty();
  }

  @Test
  void everyBlockNamesALanguageAndEveryShellBlockParses() {
    assertThat(blocks(DocPages.read())).isEmpty();
  }

  @Test
  void everyYamlBlockLoadsAndEveryXmlBlockIsWellFormed() {
    assertThat(data(DocPages.read())).isEmpty();
  }

  @Test
  void everySnippetHasOneText() {
    assertThat(snippets(DocPages.read())).isEmpty();
  }

  /**
   * Messages and comments in the sources that send a reader to a page of docs/ name a page and
   * heading that exist (a diagnostic says "(docs/mpijob.md#ssh-transport)").
   */
  @Test
  void everyDocsReferenceInTheSourcesResolves() throws IOException {
    Path root = DocPages.repositoryRoot();
    List<String> problems = new ArrayList<>();
    int found = 0;
    List<Path> files = new ArrayList<>();
    try (Stream<Path> modules = Files.list(root)) {
      for (Path sources :
          modules.map(m -> m.resolve("src/main/java")).filter(Files::isDirectory).toList()) {
        try (Stream<Path> walk = Files.walk(sources)) {
          walk.filter(p -> p.toString().endsWith(".java")).forEach(files::add);
        }
      }
    }
    for (Path file : files) {
      Matcher m = DOCS_REFERENCE.matcher(Files.readString(file));
      while (m.find()) {
        found++;
        Path page = root.resolve(m.group(1));
        String anchor = m.group(2);
        if (!Files.isRegularFile(page)) {
          problems.add(root.relativize(file) + ": " + m.group() + ": no such page");
        } else if (anchor != null && !DocPages.anchors(Files.readAllLines(page)).contains(anchor)) {
          problems.add(root.relativize(file) + ": " + m.group() + ": no such heading");
        }
      }
    }
    assertThat(found).as("references to docs/ in the sources").isPositive();
    assertThat(problems).isEmpty();
  }

  /** The README's first command is among those checked and run, so the search finds commands. */
  @Test
  void everyJobcCommandLineParsesAndRunsWhereItIsSafe() {
    List<String> checked = new ArrayList<>();
    assertThat(commands(DocPages.read(), checked)).isEmpty();
    assertThat(checked)
        .contains("run: render examples/pi.yaml", "parse: render jobs/ -o rendered/")
        .anyMatch(c -> c.startsWith("parse: render jobs/ --disable-flux-substitution"));
  }

  /** Each check fails on a page broken in its way, naming the page and line. */
  @Test
  void eachCheckFailsOnABrokenPage() throws IOException {
    Files.createDirectories(tmp.resolve("docs"));
    Files.writeString(tmp.resolve("a.yaml"), "");
    Files.writeString(tmp.resolve("bad.yaml"), "kind: [\n");
    Files.writeString(
        tmp.resolve("README.md"),
        String.join(
            "\n",
            "# Title",
            "",
            "[ok](docs/page.md#a-section) [ok](#title) [gone](docs/gone.md) [bad](#no-such)",
            "[bad](docs/page.md#nope) [web](https://example.com/x#y) `[code](nowhere.md)`",
            "",
            "```sh",
            "jobc render a.yaml --namspace training",
            "jobc rendr a.yaml",
            "jobc render a.yaml --workers pod",
            "X=1 bin/jobc render jobs/ -n 'Not A Namespace' | kubectl apply -f -",
            "jobc render bad.yaml",
            "```",
            "",
            "Inline: `jobc render --gpus-per-node eight`.",
            "",
            "```sh",
            "if then fi",
            "```",
            "",
            "```",
            "no language",
            "```",
            "",
            "<!-- snippet: s -->",
            "```yaml",
            "a: 1",
            "```",
            ""));
    Files.writeString(
        tmp.resolve("docs/page.md"),
        String.join(
            "\n",
            "# Page",
            "",
            "## A section",
            "",
            "```yaml",
            "a: [1",
            "```",
            "",
            "<!-- fragment -->",
            "```yaml",
            "  - indented: list",
            "    of: fragment",
            "```",
            "",
            "```xml",
            "<plugin><a></plugin>",
            "```",
            "",
            "<!-- snippet: s -->",
            "```yaml",
            "a: 2",
            "```",
            "",
            "<!-- snippet: lost -->",
            "text",
            ""));
    DocPages docs = DocPages.read(tmp);

    assertThat(links(docs))
        .containsExactlyInAnyOrder(
            "README.md:3: docs/gone.md: no such file",
            "README.md:3: #no-such: no such heading in README.md",
            "README.md:4: docs/page.md#nope: no such heading in docs/page.md");
    assertThat(blocks(docs))
        .hasSize(2)
        .anySatisfy(p -> assertThat(p).startsWith("README.md:16: bash -n: "))
        .contains("README.md:20: a fenced block names no language of " + LANGUAGES);
    assertThat(data(docs))
        .hasSize(2)
        .anySatisfy(p -> assertThat(p).startsWith("docs/page.md:5: YAML: "))
        .anySatisfy(p -> assertThat(p).startsWith("docs/page.md:15: XML: "));
    assertThat(snippets(docs))
        .hasSize(2)
        .anySatisfy(p -> assertThat(p).contains("snippet s differs between README.md:25"))
        .contains("docs/page.md:24: <!-- snippet: lost --> is not followed by a fenced block");
    List<String> checked = new ArrayList<>();
    List<String> problems = commands(docs, checked);
    assertThat(problems).hasSize(6);
    assertThat(problems.get(0))
        .startsWith("README.md:6: jobc render a.yaml --namspace training: ")
        .contains("Unknown option: '--namspace'");
    assertThat(problems.get(1)).startsWith("README.md:6: jobc rendr a.yaml: ").contains("rendr");
    assertThat(problems.get(2))
        .startsWith("README.md:6: jobc render a.yaml --workers pod: ")
        .contains("workers");
    assertThat(problems.get(3)).startsWith("README.md:6: jobc render jobs/ -n Not A Namespace: ");
    assertThat(problems.get(4)).startsWith("README.md:6: jobc render bad.yaml: exits 1: ");
    assertThat(problems.get(5))
        .startsWith("README.md:14: jobc render --gpus-per-node eight: ")
        .contains("gpus-per-node");
  }

  // The checks: each returns its problems, one line each, "page:line: what".

  static List<String> links(DocPages docs) {
    List<String> problems = new ArrayList<>();
    for (DocPages.Link link : docs.links()) {
      String target = link.target();
      if (SCHEME.matcher(target).find()) {
        continue;
      }
      int hash = target.indexOf('#');
      String file = hash < 0 ? target : target.substring(0, hash);
      String anchor = hash < 0 ? "" : target.substring(hash + 1);
      Path page = link.page().path();
      Path resolved = file.isEmpty() ? page : page.resolveSibling(file).normalize();
      String at = link.page().at(link.line()) + ": " + target + ": ";
      if (resolved.startsWith("..") || !Files.exists(docs.root().resolve(resolved))) {
        problems.add(at + "no such file");
      } else if (!anchor.isEmpty()) {
        List<String> lines;
        try {
          lines = Files.readAllLines(docs.root().resolve(resolved), StandardCharsets.UTF_8);
        } catch (IOException e) {
          problems.add(at + "not a Markdown file with headings (" + e + ")");
          continue;
        }
        if (!resolved.toString().endsWith(".md") || !DocPages.anchors(lines).contains(anchor)) {
          problems.add(at + "no such heading in " + resolved);
        }
      }
    }
    return problems;
  }

  static List<String> blocks(DocPages docs) {
    List<String> problems = new ArrayList<>();
    for (DocPages.Block block : docs.blocks()) {
      if (!LANGUAGES.contains(block.lang())) {
        problems.add(block.at() + ": a fenced block names no language of " + LANGUAGES);
      } else if (SHELL.contains(block.lang())) {
        ExternalCommand bash =
            ExternalCommand.run(docs.root(), Map.of(), script(block), List.of("bash", "-n"));
        if (bash.exitCode() != 0) {
          problems.add(block.at() + ": bash -n: " + bash.err().strip());
        }
      }
    }
    return problems;
  }

  static List<String> data(DocPages docs) {
    List<String> problems = new ArrayList<>();
    YamlLoader yaml = new YamlLoader(YamlLimits.defaults());
    for (DocPages.Block block : docs.blocks()) {
      if (block.lang().equals("yaml") && !FRAGMENT.equals(block.marker())) {
        LoadResult loaded = yaml.load(new Source(block.at(), block.body()));
        if (!loaded.ok()) {
          problems.add(
              block.at()
                  + ": YAML: "
                  + loaded.diagnostics().stream().map(Diagnostic::format).toList());
        }
      } else if (block.lang().equals("xml")) {
        try {
          javax.xml.parsers.DocumentBuilder xml =
              DocumentBuilderFactory.newInstance().newDocumentBuilder();
          xml.setErrorHandler(new org.xml.sax.helpers.DefaultHandler());
          xml.parse(new ByteArrayInputStream(block.body().getBytes(StandardCharsets.UTF_8)));
        } catch (Exception e) {
          problems.add(block.at() + ": XML: " + e.getMessage());
        }
      }
    }
    return problems;
  }

  static List<String> snippets(DocPages docs) {
    List<String> problems = new ArrayList<>();
    for (String name : DocSnippets.all(docs).keySet()) {
      try {
        DocSnippets.get(docs, name);
      } catch (AssertionError e) {
        problems.add(e.getMessage());
      }
    }
    for (DocPages.Page page : docs.pages()) {
      List<String> lines = page.lines();
      for (int i = 0; i < lines.size(); i++) {
        if (lines.get(i).strip().startsWith("<!-- snippet:")
            && (i + 1 == lines.size() || !lines.get(i + 1).startsWith("```"))) {
          problems.add(
              page.at(i + 1) + ": " + lines.get(i).strip() + " is not followed by a fenced block");
        }
      }
    }
    return problems;
  }

  /**
   * The {@code jobc} command lines of shell blocks (parsed, and run where safe) and of inline code
   * (parsed). {@code checked} receives {@code "run: ARGS"} or {@code "parse: ARGS"} for each.
   */
  static List<String> commands(DocPages docs, List<String> checked) {
    List<String> problems = new ArrayList<>();
    for (DocPages.Block block : docs.blocks()) {
      if (SHELL.contains(block.lang())) {
        for (List<String> command : ShellWords.commands(script(block))) {
          if (isJobc(command)) {
            check(docs.root(), command, true, block.at(), problems, checked);
          }
        }
      }
    }
    for (DocPages.Code code : docs.inlineCode()) {
      if (code.text().startsWith("jobc ") || code.text().startsWith("bin/jobc ")) {
        for (List<String> command : ShellWords.commands(code.text())) {
          if (isJobc(command)) {
            check(docs.root(), command, false, code.page().at(code.line()), problems, checked);
          }
        }
      }
    }
    return problems;
  }

  private static boolean isJobc(List<String> command) {
    return command.get(0).equals("jobc") || command.get(0).endsWith("/jobc");
  }

  /** A block's shell text: a {@code console} block's commands are its lines after {@code $ }. */
  private static String script(DocPages.Block block) {
    if (!block.lang().equals("console")) {
      return block.body();
    }
    StringBuilder script = new StringBuilder();
    boolean continued = false;
    for (String line : block.body().split("\n", -1)) {
      if (line.startsWith("$ ") || continued) {
        String command = line.startsWith("$ ") && !continued ? line.substring(2) : line;
        script.append(command).append('\n');
        continued = command.endsWith("\\");
      }
    }
    return script.toString();
  }

  private static void check(
      Path root,
      List<String> command,
      boolean mayRun,
      String at,
      List<String> problems,
      List<String> checked) {
    List<String> args = command.subList(1, command.size());
    String shown = "jobc " + String.join(" ", args);
    String problem = parse(root, args);
    boolean run = problem == null && mayRun && safe(root, args);
    if (run) {
      Run result = Run.in(root, args.toArray(String[]::new));
      if (result.exitCode() != 0) {
        problem = "exits " + result.exitCode() + ": " + result.err().strip();
      }
    }
    checked.add((run ? "run: " : "parse: ") + String.join(" ", args));
    if (problem != null) {
      problems.add(at + ": " + shown + ": " + problem);
    }
  }

  /** Why the real command line refuses {@code args}, or null. */
  private static String parse(Path root, List<String> args) {
    PrintWriter sink = new PrintWriter(new StringWriter());
    CommandLine cli =
        Main.commandLine(new JobcCommand(root, InputStream.nullInputStream()), sink, sink);
    ParseResult parsed;
    try {
      parsed = cli.parseArgs(args.toArray(String[]::new));
    } catch (ParameterException e) {
      return e.getMessage();
    }
    for (ParseResult r = parsed; r != null; r = r.subcommand()) {
      for (OptionSpec spec : r.matchedOptions()) {
        String name = spec.longestName().replaceFirst("^--", "");
        if (!OptionTable.names().contains(name)) {
          continue;
        }
        Option<?> option = OptionTable.byName(name);
        for (String value : spec.stringValues()) {
          if (option.isFlag() || value.contains("$")) { // an expansion: the shell's value
            continue;
          }
          try {
            option.parse(value);
          } catch (IllegalArgumentException e) {
            return e.getMessage();
          }
        }
      }
    }
    return null;
  }

  /**
   * Whether running {@code args} only reads this repository and prints: {@code render} or {@code
   * migrate} of files that exist here, without {@code -o} or {@code --check}; {@code schema} of one
   * kind; {@code version}, {@code completion}, help.
   */
  private static boolean safe(Path root, List<String> args) {
    PrintWriter sink = new PrintWriter(new StringWriter());
    ParseResult parsed =
        Main.commandLine(new JobcCommand(root, InputStream.nullInputStream()), sink, sink)
            .parseArgs(args.toArray(String[]::new));
    ParseResult sub = parsed.subcommand();
    if (sub == null) {
      return parsed.isUsageHelpRequested() || parsed.isVersionHelpRequested();
    }
    return switch (sub.commandSpec().name()) {
      case "version", "completion" -> true;
      case "schema" -> !sub.hasMatchedOption("--all");
      case "render", "migrate" ->
          !sub.hasMatchedOption("--output")
              && !sub.hasMatchedOption("--check")
              && !sub.matchedPositionals().isEmpty()
              && sub.matchedPositionals().stream()
                  .map(PositionalParamSpec::stringValues)
                  .flatMap(List::stream)
                  .allMatch(
                      p ->
                          !p.equals("-")
                              && !Path.of(p).isAbsolute()
                              && root.resolve(p).normalize().startsWith(root)
                              && Files.exists(root.resolve(p)));
      default -> false;
    };
  }
}
