package dev.jobc.cli;

import dev.jobc.options.CompileOptions;
import dev.jobc.options.Option;
import dev.jobc.options.OptionTable;
import picocli.CommandLine.IModelTransformer;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * The {@code jobc render} flags of the compile options: one {@code --<name>} per {@link
 * OptionTable} row, added when picocli builds the command, so a new row is a new flag.
 */
public final class CompileFlags implements IModelTransformer {
  @Override
  public CommandSpec transform(CommandSpec spec) {
    for (Option<?> option : OptionTable.ALL) {
      OptionSpec.Builder flag =
          option.shortFlag() == null
              ? OptionSpec.builder("--" + option.name())
              : OptionSpec.builder(option.shortFlag(), "--" + option.name());
      if (option.isFlag()) {
        flag.arity("0").type(boolean.class);
      } else {
        // Text, parsed by the table's own parser so every channel says the same on bad values.
        flag.arity("1").type(String.class).paramLabel(option.label());
        if (!option.allowedValues().isEmpty()) {
          // What shell completion offers (ShellCompletion); the table's parser still decides.
          flag.completionCandidates(option.allowedValues());
        }
      }
      // picocli expands ${...} in descriptions; $${ is its escape for a literal ${.
      spec.addOption(flag.description(option.helpText().replace("${", "$${")).build());
    }
    return spec;
  }

  /**
   * The options the flags on the command line ask for, over the defaults.
   *
   * @throws IllegalArgumentException naming the flag's option and what is wrong with its value
   */
  static CompileOptions options(CommandSpec spec) {
    CompileOptions.Draft draft = CompileOptions.defaults().toDraft();
    for (Option<?> option : OptionTable.ALL) {
      OptionSpec flag = spec.findOption("--" + option.name());
      if (!spec.commandLine().getParseResult().hasMatchedOption(flag)) {
        continue;
      }
      Object value = flag.getValue();
      draft.setText(option, String.valueOf(value));
    }
    return draft.build();
  }
}
