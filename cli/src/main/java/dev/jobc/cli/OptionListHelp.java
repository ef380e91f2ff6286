package dev.jobc.cli;

import dev.jobc.options.Option;
import dev.jobc.options.OptionTable;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.IModelTransformer;
import picocli.CommandLine.Model.CommandSpec;

/**
 * Lists every compile option in the help of the commands that take options as named values ({@code
 * jobc krm}: functionConfig keys, {@code jobc argocd}: variables and parameters), from the option
 * table, so their help cannot fall behind a new option.
 */
public final class OptionListHelp implements IModelTransformer {
  @Override
  public CommandSpec transform(CommandSpec spec) {
    List<String> footer = new ArrayList<>();
    footer.add("");
    footer.add(
        spec.name().equals("argocd")
            ? "Options (parameter NAME, variable ARGOCD_ENV_JOBC_<NAME>):"
            : "Options (functionConfig keys):");
    for (Option<?> option : OptionTable.ALL) {
      String name =
          spec.name().equals("argocd")
              ? option.name() + " (" + option.envName() + ")"
              : option.name();
      // picocli expands ${...} in help texts; $${ is its escape for a literal ${.
      footer.add("  " + name + ": " + option.helpText().replace("${", "$${"));
    }
    spec.usageMessage().footer(footer.toArray(String[]::new));
    return spec;
  }
}
