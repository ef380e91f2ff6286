package dev.jobc.model;

import java.util.Locale;
import java.util.Objects;

/**
 * One rendered Kubernetes object: its identity and its canonical YAML text (one document, no {@code
 * ---} marker, ending in a newline).
 */
public record OutputObject(
    String apiVersion, String kind, String namespace, String name, String yaml) {
  public OutputObject {
    Objects.requireNonNull(apiVersion, "apiVersion");
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(yaml, "yaml");
    namespace = namespace == null ? "" : namespace;
  }

  /** File name used by {@code render -o DIR}: {@code <kind>-<name>.yaml} in lower case. */
  public String fileName() {
    return (kind + "-" + name + ".yaml").toLowerCase(Locale.ROOT);
  }
}
