package dev.jobc.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jobc.options.Option;
import dev.jobc.options.OptionTable;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The scripts of {@code bin/jobc completion bash|zsh} in the real shells. bash: the function the
 * script registers with {@code complete -F} is driven as bash's programmable completion drives it
 * (COMP_WORDS, COMP_CWORD, the command, word and previous word as arguments, then COMPREPLY), with
 * {@code compopt} recorded. zsh: an interactive zsh on a pseudo-terminal types each line and
 * presses a key bound to complete-word (zsh-complete.zsh), recording every match the completion
 * functions offer and the line after completion. Values come from the option table, so a new row
 * with a closed set of values is checked here without a change.
 */
class ShellCompletionIT {
  @TempDir Path tmp;

  private Path work;

  @BeforeAll
  static void tools() {
    ExternalCommand.require("bash");
    ExternalCommand.require("zsh");
  }

  @BeforeEach
  void workingDirectory() throws IOException {
    work = tmp.resolve("work");
    Files.createDirectories(work.resolve("jobs"));
    Files.createDirectories(work.resolve("rendered"));
    Files.writeString(work.resolve("jobs/pi.yaml"), "");
    Files.writeString(work.resolve("pi.yaml"), "");
  }

  @Test
  void bashCompletesCommandsPathsAndValues() throws IOException {
    List<String> subcommands = new ArrayList<>(JobcCommand.SUBCOMMANDS.keySet());
    Map<List<String>, List<String>> cases = new LinkedHashMap<>();
    cases.put(List.of("jobc", ""), subcommands);
    cases.put(List.of("jobc", "ren"), List.of("render"));
    cases.put(List.of("jobc", "mig"), List.of("migrate"));
    cases.put(List.of("jobc", "migrate", "j"), List.of("jobs"));
    cases.put(List.of("jobc", "render", "j"), List.of("jobs"));
    cases.put(List.of("jobc", "render", "-n", "training", "p"), List.of("pi.yaml"));
    cases.put(List.of("jobc", "render", "jobs/"), List.of("jobs/pi.yaml"));
    cases.put(List.of("jobc", "render", "-o", ""), List.of("jobs", "rendered"));
    cases.put(List.of("jobc", "render", "jobs/", "--check", "r"), List.of("rendered"));
    cases.put(List.of("jobc", "render", "--workers", "=", "p"), List.of("pods"));
    cases.put(List.of("jobc", "render", "--workers", "="), List.of("statefulset", "pods"));
    cases.put(List.of("jobc", "render", "--namespace", ""), List.of());
    cases.put(List.of("jobc", "render", "--ex"), List.of("--exclude"));
    cases.put(List.of("jobc", "completion", ""), List.of("bash", "zsh"));
    cases.put(List.of("jobc", "help", "sch"), List.of("schema"));
    cases.put(List.of("jobc", "schema", "kubeflow.org/v2"), List.of("kubeflow.org/v2beta1"));
    cases.put(List.of("jobc", "schema", "kubeflow.org/v2beta1", "MP"), List.of("MPIJob"));
    for (Option<?> option : OptionTable.ALL) {
      if (!option.allowedValues().isEmpty()) {
        cases.put(List.of("jobc", "render", "--" + option.name(), ""), option.allowedValues());
      }
    }

    Map<List<String>, Bash> got = bash(new ArrayList<>(cases.keySet()));

    cases.forEach(
        (words, expected) ->
            assertThat(got.get(words).reply()).as(String.join(" ", words)).isEqualTo(expected));
    // Paths: bash is told they are file names (a / after a directory, quoting).
    assertThat(got.get(List.of("jobc", "render", "j")).compopt()).containsExactly("-o filenames");
    assertThat(got.get(List.of("jobc", "render", "-o", "")).compopt())
        .containsExactly("-o filenames");
    assertThat(got.get(List.of("jobc", "render", "--workers", "=")).compopt()).isEmpty();
  }

  @Test
  void zshCompletesCommandsPathsAndValues() throws IOException {
    List<String> lines =
        new ArrayList<>(
            List.of(
                "jobc render j",
                "jobc render --workers ",
                "jobc render --workers=p",
                "jobc render -o ",
                "jobc render jobs/ --check r",
                "jobc comp",
                "jobc completion ",
                "jobc render --namespace ",
                "jobc schema "));
    for (Option<?> option : OptionTable.ALL) {
      String line = "jobc render --" + option.name() + " ";
      if (!option.allowedValues().isEmpty() && !lines.contains(line)) {
        lines.add(line);
      }
    }

    Map<String, Zsh> got = zsh(lines);

    assertThat(got.get("jobc render j").buffer()).isEqualTo("jobc render jobs/");
    assertThat(got.get("jobc render --workers ").matches()).containsOnly("statefulset", "pods");
    assertThat(got.get("jobc render --workers=p").buffer())
        .isEqualTo("jobc render --workers=pods ");
    assertThat(got.get("jobc render -o ").matches())
        .containsOnly("jobs", "rendered")
        .contains("jobs", "rendered");
    assertThat(got.get("jobc render jobs/ --check r").buffer())
        .isEqualTo("jobc render jobs/ --check rendered/");
    assertThat(got.get("jobc comp").buffer()).isEqualTo("jobc completion ");
    assertThat(got.get("jobc completion ").matches()).containsOnly("bash", "zsh");
    assertThat(got.get("jobc render --namespace ").matches()).isEmpty();
    assertThat(got.get("jobc schema ").matches()).contains("kubeflow.org/v2beta1");
    for (Option<?> option : OptionTable.ALL) {
      if (!option.allowedValues().isEmpty()) {
        assertThat(got.get("jobc render --" + option.name() + " ").matches())
            .as(option.name())
            .containsExactlyInAnyOrderElementsOf(option.allowedValues());
      }
    }
  }

  /** What bash's completion function made of one command line. */
  private record Bash(List<String> reply, List<String> compopt) {}

  /** Drives {@code _jobc} in one bash process, once per command line given as its words. */
  private Map<List<String>, Bash> bash(List<List<String>> lines) throws IOException {
    Path script = script("bash");
    StringBuilder test = new StringBuilder();
    test.append("compopt() { printf '%s\\n' \"$*\" >>\"$COMPOPT_LOG\"; }\n");
    test.append("source ").append(quote(script.toString())).append('\n');
    test.append("COMPOPT_LOG=").append(quote(tmp.resolve("compopt").toString())).append('\n');
    test.append(
        """
        # The function the script registered for jobc (complete -F FUNCTION ... jobc).
        completer=$(complete -p jobc | sed -n 's/.*-F \\([^ ]*\\).*/\\1/p')
        complete_words() {
          COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}
          : >"$COMPOPT_LOG"
          "$completer" jobc "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
          printf 'line\\n'
          printf 'reply:%s\\n' "${COMPREPLY[@]}"
          while IFS= read -r line; do printf 'compopt:%s\\n' "$line"; done <"$COMPOPT_LOG"
        }
        """);
    for (List<String> words : lines) {
      test.append("complete_words");
      words.forEach(w -> test.append(' ').append(quote(w)));
      test.append('\n');
    }
    ExternalCommand run =
        ExternalCommand.run(
            work, Map.of(), "", List.of("bash", "--norc", "--noprofile", "-c", test.toString()));
    assertThat(run.exitCode()).as(run.toString()).isZero();
    Map<List<String>, Bash> out = new LinkedHashMap<>();
    int i = -1;
    List<String> reply = null;
    List<String> compopt = null;
    for (String line : run.out().split("\n")) {
      if (line.equals("line")) {
        reply = new ArrayList<>();
        compopt = new ArrayList<>();
        out.put(lines.get(++i), new Bash(reply, compopt));
      } else if (line.startsWith("reply:")) {
        if (!line.equals("reply:")) { // printf prints one empty reply for an empty array
          Objects.requireNonNull(reply).add(line.substring("reply:".length()));
        }
      } else if (line.startsWith("compopt:")) {
        Objects.requireNonNull(compopt).add(line.substring("compopt:".length()));
      }
    }
    assertThat(out).as(run.toString()).hasSize(lines.size());
    return out;
  }

  /** What zsh's completion made of one typed line. */
  private record Zsh(List<String> matches, String buffer) {}

  private Map<String, Zsh> zsh(List<String> lines) throws IOException {
    Path script = script("zsh");
    Path driver = tmp.resolve("zsh-complete.zsh");
    try (InputStream in = getClass().getResourceAsStream("zsh-complete.zsh")) {
      Files.write(driver, Objects.requireNonNull(in, "zsh-complete.zsh").readAllBytes());
    }
    Path log = tmp.resolve("zsh.log");
    List<String> command =
        new ArrayList<>(
            List.of(
                "zsh",
                "-f",
                driver.toString(),
                script.toString(),
                work.toString(),
                log.toString()));
    command.addAll(lines);
    // A fresh HOME and no user configuration: what completes comes from the script alone.
    ExternalCommand run =
        ExternalCommand.run(
            work, Map.of("HOME", tmp.toString(), "ZDOTDIR", tmp.toString()), "", command);
    assertThat(run.exitCode()).as(run.toString()).isZero();
    Map<String, Zsh> out = new LinkedHashMap<>();
    String current = null;
    List<String> matches = new ArrayList<>();
    for (String line : Files.readString(log).split("\n")) {
      if (line.startsWith("line:")) {
        current = line.substring("line:".length());
        matches = new ArrayList<>();
      } else if (line.startsWith("match:")) {
        matches.add(line.substring("match:".length()));
      } else if (line.startsWith("buffer:")) {
        out.put(current, new Zsh(List.copyOf(matches), line.substring("buffer:".length())));
      }
    }
    assertThat(out.keySet()).as(Files.readString(log)).containsExactlyElementsOf(lines);
    return out;
  }

  /** The completion script for {@code shell}, as bin/jobc prints it. */
  private Path script(String shell) throws IOException {
    ExternalCommand run =
        ExternalCommand.run(
            work,
            Map.of("PATH", ExternalCommand.pathWithBin()),
            "",
            List.of("jobc", "completion", shell));
    assertThat(run.exitCode()).as(run.toString()).isZero();
    Path script = tmp.resolve("jobc." + shell);
    Files.writeString(script, run.out());
    return script;
  }

  private static String quote(String word) {
    return "'" + word.replace("'", "'\\''") + "'";
  }
}
