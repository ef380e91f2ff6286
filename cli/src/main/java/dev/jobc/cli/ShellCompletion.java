package dev.jobc.cli;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import picocli.CommandLine;
import picocli.CommandLine.HelpCommand;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

/**
 * The bash and zsh completion scripts of {@code jobc}, written from picocli's model of the command
 * line, so that a new subcommand, option or option-table row completes without a change here.
 *
 * <p>What a value completes to comes from the model: the candidates of an option or parameter
 * ({@code --transport}'s values, which {@link CompileFlags} takes from the option table); files and
 * directories where the parameter label says a path goes ({@code PATH}, {@code FILE}: files and
 * directories; {@code DIR}: directories); nothing for other values (a namespace, an image).
 * picocli's own script (its {@code AutoComplete}) turns the shell's file completion off and
 * completes neither paths nor any String option's values, so {@code jobc render j⇥} and {@code -o
 * ⇥} offered nothing.
 */
final class ShellCompletion {
  /** Words that go into a script unquoted: no blank, quote, glob or expansion character. */
  private static final Pattern WORD = Pattern.compile("[A-Za-z0-9._/:@%+,-]+");

  private ShellCompletion() {}

  /** What the value of an option or positional parameter completes to. */
  private record Values(Kind kind, List<String> words) {
    enum Kind {
      NONE,
      FILES,
      DIRECTORIES,
      WORDS
    }

    static Values of(ArgSpec arg, List<String> subcommands) {
      if (arg.command().userObject() instanceof HelpCommand && !arg.isOption()) {
        return new Values(Kind.WORDS, subcommands);
      }
      if (arg.completionCandidates() != null) {
        List<String> words = new ArrayList<>();
        arg.completionCandidates().forEach(words::add);
        return new Values(Kind.WORDS, words);
      }
      return switch (arg.paramLabel()) {
        case "PATH", "FILE" -> new Values(Kind.FILES, List.of());
        case "DIR" -> new Values(Kind.DIRECTORIES, List.of());
        default -> new Values(Kind.NONE, List.of());
      };
    }
  }

  /** The bash script: a completion function, registered for {@code jobc}. */
  static String bash(CommandSpec root) {
    StringBuilder s = new StringBuilder();
    s.append(
        """
        # bash completion for jobc, written by `jobc completion bash` from jobc's command model.
        # Load it with: source <(jobc completion bash)

        # Sets COMPREPLY to the WORDS ($3) or the files or directories that start with CUR ($2).
        _jobc_reply() {
          local IFS
          case $1 in
            words) IFS=$' \\t\\n'; COMPREPLY=($(compgen -W "$3" -- "$2")) ;;
            files) compopt -o filenames 2>/dev/null; IFS=$'\\n'; COMPREPLY=($(compgen -f -- "$2")) ;;
            dirs) compopt -o filenames 2>/dev/null; IFS=$'\\n'; COMPREPLY=($(compgen -d -- "$2")) ;;
          esac
        }

        # The options of command $1 that take a value.
        _jobc_valued() {
          case $1 in
        """);
    Map<String, CommandSpec> commands = subcommands(root);
    for (Map.Entry<String, CommandSpec> c : commands.entrySet()) {
      List<String> valued = new ArrayList<>();
      for (OptionSpec o : visibleOptions(c.getValue())) {
        if (o.arity().max() > 0) {
          valued.addAll(List.of(o.names()));
        }
      }
      s.append("    ").append(c.getKey()).append(") echo '").append(words(valued)).append("' ;;\n");
    }
    s.append(
        """
          esac
        }

        _jobc() {
          COMPREPLY=()
          local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
          # bash splits --workers=pods at "=" (COMP_WORDBREAKS): complete the value of the option.
          if [[ $cur == = ]]; then
            cur=
          elif [[ $prev == = ]]; then
            prev=${COMP_WORDS[COMP_CWORD-2]}
          fi
          # The subcommand, and how many of its positional parameters come before the cursor.
          local cmd= n=0 i w
          for ((i = 1; i < COMP_CWORD; i++)); do
            w=${COMP_WORDS[i]}
            if [[ -z $cmd ]]; then
              [[ $w == -* ]] || cmd=$w
            elif [[ $w == = ]]; then
              ((i++))
            elif [[ $w == -* ]]; then
              [[ " $(_jobc_valued "$cmd") " == *" $w "* && ${COMP_WORDS[i+1]} != = ]] && ((i++))
            else
              ((n++))
            fi
          done
          case $cmd in
        """);
    s.append("    '')\n");
    s.append("      if [[ $cur == -* ]]; then _jobc_reply words \"$cur\" '")
        .append(words(optionNames(root)))
        .append("'\n");
    s.append("      else _jobc_reply words \"$cur\" '")
        .append(words(new ArrayList<>(commands.keySet())))
        .append("'; fi ;;\n");
    List<String> subcommandNames = new ArrayList<>(commands.keySet());
    for (Map.Entry<String, CommandSpec> c : commands.entrySet()) {
      CommandSpec spec = c.getValue();
      s.append("    ").append(c.getKey()).append(")\n");
      s.append("      case $prev in\n");
      for (OptionSpec o : visibleOptions(spec)) {
        if (o.arity().max() > 0) {
          s.append("        ")
              .append(String.join("|", o.names()))
              .append(") ")
              .append(bashReply(Values.of(o, subcommandNames)))
              .append("; return ;;\n");
        }
      }
      s.append("      esac\n");
      s.append("      if [[ $cur == -* ]]; then _jobc_reply words \"$cur\" '")
          .append(words(optionNames(spec)))
          .append("'; return; fi\n");
      s.append("      case $n in\n");
      for (PositionalParamSpec p : spec.positionalParameters()) {
        if (p.hidden()) {
          continue;
        }
        CommandLine.Range index = p.index();
        String pattern;
        if (index.isUnresolved() || index.max() == Integer.MAX_VALUE) {
          pattern = "*";
        } else {
          List<String> numbers = new ArrayList<>();
          for (int k = index.min(); k <= index.max(); k++) {
            numbers.add(Integer.toString(k));
          }
          pattern = String.join("|", numbers);
        }
        s.append("        ")
            .append(pattern)
            .append(") ")
            .append(bashReply(Values.of(p, subcommandNames)))
            .append(" ;;\n");
      }
      s.append("      esac ;;\n");
    }
    s.append(
        """
          esac
        }

        complete -F _jobc jobc
        """);
    return s.toString();
  }

  private static String bashReply(Values values) {
    return switch (values.kind()) {
      case NONE -> ":";
      case FILES -> "_jobc_reply files \"$cur\"";
      case DIRECTORIES -> "_jobc_reply dirs \"$cur\"";
      case WORDS -> "_jobc_reply words \"$cur\" '" + words(values.words()) + "'";
    };
  }

  /** The zsh script: a completion function for zsh's completion system, registered for jobc. */
  static String zsh(CommandSpec root) {
    Map<String, CommandSpec> commands = subcommands(root);
    List<String> subcommandNames = new ArrayList<>(commands.keySet());
    StringBuilder s = new StringBuilder();
    s.append(
        """
        #compdef jobc
        # zsh completion for jobc, written by `jobc completion zsh` from jobc's command model.
        # Load it with: source <(jobc completion zsh)   (it runs compinit when that has not run)

        _jobc() {
          local curcontext=$curcontext state line
          local -a commands=(
        """);
    for (Map.Entry<String, CommandSpec> c : commands.entrySet()) {
      s.append("    ")
          .append(quote(c.getKey() + ":" + firstLine(c.getValue().usageMessage().description())))
          .append('\n');
    }
    s.append("  )\n  _arguments -C \\\n");
    for (OptionSpec o : visibleOptions(root)) {
      s.append("    ").append(zshOption(o, root, subcommandNames)).append(" \\\n");
    }
    s.append(
        """
            '1: :->command' \\
            '*:: :->args' && return
          case $state in
            command) _describe -t commands 'jobc command' commands ;;
            args)
              case $line[1] in
        """);
    for (String name : commands.keySet()) {
      s.append("        ").append(name).append(") _jobc_").append(name).append(" ;;\n");
    }
    s.append("      esac ;;\n  esac\n}\n");
    for (Map.Entry<String, CommandSpec> c : commands.entrySet()) {
      CommandSpec spec = c.getValue();
      s.append("\n_jobc_").append(c.getKey()).append("() {\n  _arguments -s -S");
      for (OptionSpec o : visibleOptions(spec)) {
        s.append(" \\\n    ").append(zshOption(o, spec, subcommandNames));
      }
      for (PositionalParamSpec p : spec.positionalParameters()) {
        if (p.hidden()) {
          continue;
        }
        CommandLine.Range index = p.index();
        String position =
            index.isUnresolved() || index.max() == Integer.MAX_VALUE
                ? "*"
                : Integer.toString(index.min() + 1);
        s.append(" \\\n    ")
            .append(
                quote(
                    position
                        + ":"
                        + escape(p.paramLabel())
                        + ":"
                        + zshAction(Values.of(p, subcommandNames))));
      }
      s.append("\n}\n");
    }
    s.append(
        """

        if (( ! $+functions[compdef] )); then
          autoload -Uz compinit && compinit
        fi
        compdef _jobc jobc
        """);
    return s.toString();
  }

  /** One {@code _arguments} spec per name of {@code o}, sharing exclusions and help. */
  private static String zshOption(OptionSpec o, CommandSpec spec, List<String> subcommands) {
    List<String> exclusions = new ArrayList<>();
    if (o.usageHelp() || o.versionHelp()) {
      exclusions.add("- *"); // --help and --version end the command line
    } else if (!o.isMultiValue()) {
      exclusions.addAll(List.of(o.names()));
    }
    if (o.group() != null && o.group().exclusive()) {
      for (ArgSpec other : o.group().args()) {
        if (other instanceof OptionSpec os) {
          for (String n : os.names()) {
            if (!exclusions.contains(n)) {
              exclusions.add(n);
            }
          }
        }
      }
    }
    String help = "[" + escape(firstLine(o.description())) + "]";
    String value =
        o.arity().max() > 0
            ? ":" + escape(o.paramLabel()) + ":" + zshAction(Values.of(o, subcommands))
            : "";
    List<String> specs = new ArrayList<>();
    for (String name : o.names()) {
      String suffix = o.arity().max() == 0 ? "" : name.startsWith("--") ? "=" : "+";
      String prefix =
          (o.isMultiValue() ? "*" : "")
              + (exclusions.isEmpty() ? "" : "(" + String.join(" ", exclusions) + ")");
      specs.add(quote(prefix + name + suffix + help + value));
    }
    return String.join(" \\\n    ", specs);
  }

  private static String zshAction(Values values) {
    return switch (values.kind()) {
      case NONE -> " "; // a message, no completions
      case FILES -> "_files";
      case DIRECTORIES -> "_directories";
      case WORDS -> "(" + words(values.words()) + ")";
    };
  }

  /** The visible subcommands by name, in the order help lists them. */
  private static Map<String, CommandSpec> subcommands(CommandSpec root) {
    Map<String, CommandSpec> out = new LinkedHashMap<>();
    root.subcommands()
        .forEach(
            (name, cli) -> {
              if (!cli.getCommandSpec().usageMessage().hidden()
                  && cli.getCommandSpec().name().equals(name)) {
                out.put(name, cli.getCommandSpec());
              }
            });
    return out;
  }

  private static List<OptionSpec> visibleOptions(CommandSpec spec) {
    return spec.options().stream().filter(o -> !o.hidden()).toList();
  }

  private static List<String> optionNames(CommandSpec spec) {
    List<String> names = new ArrayList<>();
    visibleOptions(spec).forEach(o -> names.addAll(List.of(o.names())));
    return names;
  }

  /** Space-separated words, each checked to need no quoting in either shell. */
  private static String words(List<String> words) {
    for (String w : words) {
      if (!WORD.matcher(w).matches()) {
        throw new IllegalArgumentException("not a plain word for a completion script: " + w);
      }
    }
    return String.join(" ", words);
  }

  /** The first line of a description, for zsh's one-line help ({@code %n} is picocli's newline). */
  private static String firstLine(String[] description) {
    for (String paragraph : description) {
      for (String line : paragraph.split("%n")) {
        if (!line.isBlank()) {
          return line.strip();
        }
      }
    }
    return "";
  }

  /** Escapes what {@code _arguments} reads in a spec: brackets, colons and backslashes. */
  private static String escape(String text) {
    return text.replace("\\", "\\\\").replace("[", "\\[").replace("]", "\\]").replace(":", "\\:");
  }

  /** Single-quoted for the shell. */
  private static String quote(String text) {
    return "'" + text.replace("'", "'\\''") + "'";
  }
}
