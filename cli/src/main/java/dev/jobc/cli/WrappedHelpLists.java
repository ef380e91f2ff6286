package dev.jobc.cli;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Help;
import picocli.CommandLine.Help.Column;
import picocli.CommandLine.Help.Layout;
import picocli.CommandLine.IHelpSectionRenderer;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

/**
 * The option and parameter lists of a command's help, laid out as picocli lays them out but with
 * each description wrapped at spaces only. picocli wraps with {@code java.text.BreakIterator}'s
 * line rules, which break after a dot: the default image {@code docker.io/alpine/k8s:1.32.4} was
 * split into {@code docker.} and {@code io/alpine/k8s:1.32.4}, {@code metadata.namespace} likewise.
 * Here the lines come pre-wrapped to the description column, so picocli has nothing left to break.
 */
final class WrappedHelpLists implements IHelpSectionRenderer {
  /** picocli's hanging indent for the wrapped lines of a description. */
  private static final int HANGING_INDENT = 2;

  private final boolean options;

  private WrappedHelpLists(boolean options) {
    this.options = options;
  }

  /** Puts the two lists into {@code cli}'s help, and its subcommands'. */
  static void install(CommandLine cli) {
    cli.getHelpSectionMap()
        .put(
            CommandLine.Model.UsageMessageSpec.SECTION_KEY_OPTION_LIST, new WrappedHelpLists(true));
    cli.getHelpSectionMap()
        .put(
            CommandLine.Model.UsageMessageSpec.SECTION_KEY_PARAMETER_LIST,
            new WrappedHelpLists(false));
  }

  @Override
  public String render(Help help) {
    Layout layout = help.createDefaultLayout();
    Column[] columns = layout.textTable().columns();
    Column description = columns[columns.length - 1];
    int width = description.width - description.indent;
    if (options) {
      List<OptionSpec> shown = new ArrayList<>();
      for (OptionSpec o : help.commandSpec().options()) {
        if (!o.hidden()) {
          shown.add(o);
        }
      }
      Comparator<OptionSpec> order = help.createDefaultOptionSort();
      if (order != null) {
        shown.sort(order);
      }
      for (OptionSpec o : shown) {
        // The names as shown: --help's and --version's are variables until the command resolves
        // them, and the copy belongs to no command.
        layout.addOption(
            o.toBuilder().names(o.names()).description(wrap(o, width)).build(),
            help.parameterLabelRenderer());
      }
    } else {
      for (PositionalParamSpec p : help.commandSpec().positionalParameters()) {
        if (!p.hidden()) {
          layout.addPositionalParameter(
              p.toBuilder().description(wrap(p, width)).build(), help.parameterLabelRenderer());
        }
      }
    }
    return layout.toString();
  }

  /**
   * The description of {@code arg}, each paragraph wrapped at spaces to {@code width} characters,
   * its later lines indented as picocli indents them.
   */
  static String[] wrap(ArgSpec arg, int width) {
    List<String> lines = new ArrayList<>();
    for (String paragraph : arg.description()) {
      StringBuilder line = new StringBuilder();
      for (String word : paragraph.split(" ")) {
        if (line.length() > 0 && line.length() + 1 + word.length() > width) {
          lines.add(line.toString());
          line.setLength(0);
          line.append(" ".repeat(HANGING_INDENT));
        }
        if (line.length() > 0 && !line.toString().isBlank()) {
          line.append(' ');
        }
        line.append(word);
      }
      lines.add(line.toString());
    }
    // arg.description() is already interpolated, and the copy, which belongs to no command, is
    // not interpolated again: a literal ${...} stays as it is.
    return lines.toArray(String[]::new);
  }
}
