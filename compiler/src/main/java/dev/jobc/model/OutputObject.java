package dev.jobc.model;

import java.text.Normalizer;
import java.util.Locale;
import java.util.Objects;

/**
 * One rendered Kubernetes object: its identity, its canonical YAML text (one document, no {@code
 * ---} marker, ending in a newline), and where it came from ({@code origin}: the {@code
 * metadata.name} of the document that made it, for messages; null when unknown).
 */
public record OutputObject(
    String apiVersion, String kind, String namespace, String name, String yaml, Origin origin) {

  /** A place in an input: file as shown, 1-based line and column. */
  public record Origin(String file, int line, int column) {}

  public OutputObject {
    Objects.requireNonNull(apiVersion, "apiVersion");
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(yaml, "yaml");
    namespace = namespace == null ? "" : namespace;
  }

  public OutputObject(String apiVersion, String kind, String namespace, String name, String yaml) {
    this(apiVersion, kind, namespace, name, yaml, null);
  }

  /** File name used by {@code render -o DIR}: {@code <kind>-<name>.yaml} in lower case. */
  public String fileName() {
    return (kind + "-" + name + ".yaml").toLowerCase(Locale.ROOT);
  }

  /**
   * {@link #fileName} as file systems that ignore case and Unicode normalization see it (macOS's
   * APFS and HFS+, Windows' NTFS, where a rendered directory's Git checkout lands): two names with
   * the same key are one file there. Case folded (upper then lower case, as Unicode's full folding
   * maps {@code ß} to {@code ss}), in composed form (NFC: {@code é} and {@code e} with a combining
   * accent are one).
   */
  public static String fileKey(String fileName) {
    String composed = Normalizer.normalize(fileName, Normalizer.Form.NFC);
    return Normalizer.normalize(
        composed.toUpperCase(Locale.ROOT).toLowerCase(Locale.ROOT), Normalizer.Form.NFC);
  }
}
