package dev.jobc.io;

import dev.jobc.options.Option;
import dev.jobc.options.OptionTable;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Writes the Maven plugin's option parameters as Java source, one annotated field per {@link
 * OptionTable} row, at the plugin's build time ({@code generate-sources}): Maven reads a goal's
 * parameters only from annotated fields and their Javadoc, so a new row becomes a new parameter
 * without a hand-written field. Every parameter is text, parsed by the table as every other channel
 * parses it, and has no Maven default: an unset parameter leaves the table default, and lets an
 * implied option ({@code sshSecret} → ssh transport) take effect.
 */
public final class MavenParameterSource {
  /** The generated class: {@code dev.jobc.maven.OptionParameters}. */
  public static final String PACKAGE = "dev.jobc.maven";

  public static final String CLASS = "OptionParameters";

  private MavenParameterSource() {}

  /** Writes the source below {@code args[0]} (a source root). */
  public static void main(String[] args) throws IOException {
    if (args.length != 1) {
      throw new IllegalArgumentException("usage: MavenParameterSource SOURCE_ROOT");
    }
    Path file = Path.of(args[0], PACKAGE.replace('.', '/'), CLASS + ".java");
    Files.createDirectories(file.getParent());
    String source = source();
    // Rewritten only when it changes, so an up-to-date build stays incremental.
    if (!Files.exists(file) || !Files.readString(file).equals(source)) {
      Files.writeString(file, source, StandardCharsets.UTF_8);
    }
  }

  /** The whole source file. */
  public static String source() {
    StringBuilder out = new StringBuilder();
    out.append(
            "// Generated from dev.jobc.options.OptionTable by dev.jobc.io.MavenParameterSource.\n")
        .append("package ")
        .append(PACKAGE)
        .append(";\n\n")
        .append("import java.util.LinkedHashMap;\n")
        .append("import java.util.Map;\n")
        .append("import org.apache.maven.plugin.AbstractMojo;\n")
        .append("import org.apache.maven.plugins.annotations.Parameter;\n\n")
        .append("/** The compile options as goal parameters: one per option of jobc render. */\n")
        .append("abstract class ")
        .append(CLASS)
        .append(" extends AbstractMojo {\n");
    for (Option<?> option : OptionTable.ALL) {
      out.append("  /** ")
          .append(javadoc(option.helpText()))
          .append(option.isFlag() ? " Set to true or false." : "")
          .append(" */\n")
          .append("  @Parameter(property = \"jobc.")
          .append(option.camelName())
          .append("\")\n")
          .append("  String ")
          .append(option.camelName())
          .append(";\n\n");
    }
    out.append(
            "  /** The options set (neither absent nor empty), by option name, in table order. */\n")
        .append("  final Map<String, String> optionValues() {\n")
        .append("    Map<String, String> out = new LinkedHashMap<>();\n");
    for (Option<?> option : OptionTable.ALL) {
      out.append("    if (")
          .append(option.camelName())
          .append(" != null && !")
          .append(option.camelName())
          .append(".isEmpty()) {\n")
          .append("      out.put(\"")
          .append(option.name())
          .append("\", ")
          .append(option.camelName())
          .append(");\n")
          .append("    }\n");
    }
    out.append("    return out;\n").append("  }\n").append("}\n");
    return out.toString();
  }

  /** Help text as Javadoc: HTML-escaped, no tags, no comment end. */
  static String javadoc(String text) {
    return text.replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace("@", "&#64;")
        .replace("*/", "*&#47;")
        .replace("\\", "&#92;");
  }
}
