package dev.jobc.model;

import java.util.Objects;

/**
 * One input text and the name diagnostics call it by (a path as the user typed it, or {@code
 * <stdin>}).
 */
public record Source(String name, String text) {
  public Source {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(text, "text");
  }
}
