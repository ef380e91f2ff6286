package dev.jobc;

import dev.jobc.options.CompileOptions;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The compile options of a golden case, for tests that run its steps one by one. */
public final class CaseOptions {
  private CaseOptions() {}

  /** The case's options.yaml (one {@code name: value} per line), or the defaults. */
  public static CompileOptions of(Path caseDir) {
    Path file = caseDir.resolve("options.yaml");
    CompileOptions.Draft draft = CompileOptions.defaults().toDraft();
    if (Files.exists(file)) {
      try {
        for (String line : Files.readAllLines(file)) {
          int colon = line.indexOf(':');
          if (colon > 0 && !line.startsWith("#")) {
            String value = line.substring(colon + 1).strip();
            if (value.length() >= 2 && value.startsWith("\"") && value.endsWith("\"")) {
              value = value.substring(1, value.length() - 1);
            }
            draft.setText(line.substring(0, colon).strip(), value);
          }
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return draft.build();
  }
}
