package dev.jobc.fuzz;

import dev.jobc.options.CompileOptions;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * What {@link CompileFuzzTest} compiles: YAML text whose first line may be a comment naming compile
 * options as {@code jobc render} spells them without the dashes,
 *
 * <pre>
 * # jobc-options: namespace=ml workers=pods
 * apiVersion: kubeflow.org/v2beta1
 * ...
 * </pre>
 *
 * <p>so that a seed carries its golden case's {@code options.yaml} and the fuzzer mutates options
 * and spec together. The line stays in the compiled text (it is a YAML comment), so positions in
 * diagnostics are those of the input file.
 *
 * @param options the options of the first line, applied to {@link CompileOptions#defaults()}
 * @param text the whole input, options line included
 */
record CompileInput(CompileOptions options, String text) {
  static final String OPTIONS_PREFIX = "# jobc-options:";

  /**
   * Decodes fuzzer bytes (malformed UTF-8 becomes U+FFFD, as the compiler only takes text).
   *
   * @throws IllegalArgumentException when the options line names an unknown option or an invalid
   *     value: a usage error, which front ends report before compiling
   */
  static CompileInput decode(byte[] bytes) {
    String text = new String(bytes, StandardCharsets.UTF_8);
    if (!text.startsWith(OPTIONS_PREFIX)) {
      return new CompileInput(CompileOptions.defaults(), text);
    }
    int end = text.indexOf('\n');
    String line = text.substring(OPTIONS_PREFIX.length(), end < 0 ? text.length() : end);
    Map<String, String> named = new LinkedHashMap<>();
    for (String option : line.strip().split(" +")) {
      if (option.isEmpty()) {
        continue;
      }
      int eq = option.indexOf('=');
      if (eq < 0) {
        throw new IllegalArgumentException("option without a value: " + option);
      }
      named.put(option.substring(0, eq), option.substring(eq + 1));
    }
    return new CompileInput(CompileOptions.defaults().toDraft().setText(named).build(), text);
  }

  /** The text of a seed: {@code yaml} behind an options line (none when there are no options). */
  static String encode(Map<String, String> options, String yaml) {
    if (options.isEmpty()) {
      return yaml;
    }
    return OPTIONS_PREFIX
        + " "
        + options.entrySet().stream()
            .map(e -> e.getKey() + "=" + e.getValue())
            .collect(Collectors.joining(" "))
        + "\n"
        + yaml;
  }
}
