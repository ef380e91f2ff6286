package dev.jobc.cli;

import java.util.ArrayList;
import java.util.List;

/**
 * The simple commands of a shell script as the shell would split them into words, enough to find
 * the {@code jobc} command lines in the documentation: quotes removed ({@code '...'}, {@code
 * "..."}, backslashes), line continuations joined, comments dropped, commands split at {@code |},
 * {@code ||}, {@code &&}, {@code ;}, {@code &}, parentheses and new lines, redirections and their
 * targets left out, leading variable assignments left out. Expansions ({@code $VAR}, {@code
 * $(...)}) stay in their word as written; the commands inside {@code $(...)}, {@code <(...)} and
 * {@code >(...)} are commands too. Here-documents and {@code case} patterns are not understood;
 * {@code bash -n} checks the syntax.
 */
final class ShellWords {
  private final String script;
  private final List<List<String>> commands = new ArrayList<>();
  private List<String> command = new ArrayList<>();
  private StringBuilder word;
  private boolean redirect;
  private int at;

  private ShellWords(String script) {
    this.script = script;
  }

  /** The simple commands of {@code script}, each its words without assignments and redirections. */
  static List<List<String>> commands(String script) {
    ShellWords words = new ShellWords(script);
    words.scan();
    return words.commands;
  }

  private void scan() {
    while (at < script.length()) {
      char c = script.charAt(at);
      if (c == '\\') {
        if (at + 1 < script.length() && script.charAt(at + 1) != '\n') {
          append(script.charAt(at + 1));
        }
        at += 2;
      } else if (c == '\'') {
        int end = script.indexOf('\'', at + 1);
        end = end < 0 ? script.length() : end;
        append(script.substring(at + 1, end));
        at = end + 1;
      } else if (c == '"') {
        doubleQuoted();
      } else if ((c == '$' || c == '<' || c == '>') && next() == '(') {
        substitution(c == '$');
      } else if (c == '#' && word == null) {
        while (at < script.length() && script.charAt(at) != '\n') {
          at++;
        }
      } else if (c == ' ' || c == '\t') {
        endWord();
        at++;
      } else if (c == '\n' || c == ';' || c == '|' || c == '&' || c == '(' || c == ')') {
        if (c == '&' && next() == '>') { // &> and &>>: a redirection, not a separator
          endWord();
          redirect = true;
          at += script.startsWith("&>>", at) ? 3 : 2;
          continue;
        }
        endCommand();
        at++;
      } else if (c == '<' || c == '>') {
        // A word of digits right before is the redirected descriptor (2>), not an argument.
        if (word != null && word.chars().allMatch(Character::isDigit)) {
          word = null;
        }
        endWord();
        redirect = true;
        while (at < script.length() && "<>&|".indexOf(script.charAt(at)) >= 0) {
          at++;
        }
        // >&2: the descriptor is the target.
      } else {
        append(c);
        at++;
      }
    }
    endCommand();
  }

  private char next() {
    return at + 1 < script.length() ? script.charAt(at + 1) : 0;
  }

  private void doubleQuoted() {
    at++;
    append("");
    while (at < script.length() && script.charAt(at) != '"') {
      char c = script.charAt(at);
      if (c == '\\' && at + 1 < script.length() && "\"\\$`\n".indexOf(script.charAt(at + 1)) >= 0) {
        if (script.charAt(at + 1) != '\n') {
          append(script.charAt(at + 1));
        }
        at += 2;
      } else if (c == '$' && next() == '(') {
        substitution(true);
      } else {
        append(c);
        at++;
      }
    }
    at++;
  }

  /** {@code $(...)}, {@code <(...)} or {@code >(...)}: kept in the word, its commands scanned. */
  private void substitution(boolean inWord) {
    int open = at + 1;
    int depth = 0;
    int end = open;
    for (; end < script.length(); end++) {
      char c = script.charAt(end);
      if (c == '(') {
        depth++;
      } else if (c == ')' && --depth == 0) {
        break;
      }
    }
    commands.addAll(commands(script.substring(open + 1, Math.min(end, script.length()))));
    String text = script.substring(at, Math.min(end + 1, script.length()));
    at = end + 1;
    if (inWord) {
      append(text);
    } else { // a process substitution is a word of its own
      endWord();
      append(text);
      endWord();
    }
  }

  private void append(char c) {
    append(String.valueOf(c));
  }

  private void append(String s) {
    if (word == null) {
      word = new StringBuilder();
    }
    word.append(s);
  }

  private void endWord() {
    if (word == null) {
      return;
    }
    String w = word.toString();
    word = null;
    if (redirect) {
      redirect = false;
    } else if (!(command.isEmpty() && w.matches("[A-Za-z_][A-Za-z0-9_]*=.*"))) {
      command.add(w);
    }
  }

  private void endCommand() {
    endWord();
    redirect = false;
    if (!command.isEmpty()) {
      commands.add(List.copyOf(command));
    }
    command = new ArrayList<>();
  }
}
