package dev.jobc.diag;

/**
 * How values and file names appear in diagnostics, so that one diagnostic is always exactly one
 * line and no input can print text that looks like a diagnostic about something else.
 *
 * <p>Values are quoted as Go's {@code %q} quotes them, which is how Kubernetes' {@code field.Error}
 * prints a bad string value ({@code Invalid value: "a\nb"}): between double quotes, with {@code
 * \"}, {@code \\}, and escapes for every <em>hidden</em> character. Hidden characters are a fixed
 * set, the same on every JDK (Unicode categories move between versions, and output must not): the
 * C0 and C1 controls and DEL, unpaired surrogates, the line and paragraph separators, and the
 * invisible format characters that hide or reorder text (soft hyphen, zero width characters,
 * bidirectional controls, the byte order mark).
 */
public final class Quoting {
  private Quoting() {}

  /**
   * {@code value} between double quotes, with quotes, backslashes and hidden characters escaped.
   */
  public static String quote(String value) {
    StringBuilder out = new StringBuilder(value.length() + 2).append('"');
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (c == '"' || c == '\\') {
        out.append('\\').append(c);
      } else {
        appendVisible(out, value, i);
      }
    }
    return out.append('"').toString();
  }

  /**
   * {@code text} with its hidden characters escaped (quotes and backslashes are kept), so that it
   * prints on one line. Text without hidden characters, such as anything {@link #quote} made, comes
   * back unchanged.
   */
  public static String oneLine(String text) {
    int first = firstHidden(text);
    if (first < 0) {
      return text;
    }
    StringBuilder out = new StringBuilder(text.length() + 8).append(text, 0, first);
    for (int i = first; i < text.length(); i++) {
      appendVisible(out, text, i);
    }
    return out.toString();
  }

  /**
   * A file name as a diagnostic prints it: as it is, or {@linkplain #quote quoted} when it holds a
   * hidden character, a double quote, or a colon followed by a digit or a space (it could then be
   * read as a position, or as the start of another diagnostic).
   */
  public static String fileName(String name) {
    boolean plain = firstHidden(name) < 0 && name.indexOf('"') < 0;
    for (int i = name.indexOf(':'); plain && i >= 0; i = name.indexOf(':', i + 1)) {
      char next = i + 1 < name.length() ? name.charAt(i + 1) : 'x';
      plain = next != ' ' && (next < '0' || next > '9');
    }
    return plain ? name : quote(name);
  }

  /** True when {@code c}, at index {@code i} of {@code s}, is hidden (see the class comment). */
  static boolean hidden(String s, int i) {
    char c = s.charAt(i);
    if (c < 0x20 || (c >= 0x7f && c <= 0x9f)) {
      return true;
    }
    if (Character.isHighSurrogate(c)) {
      return i + 1 >= s.length() || !Character.isLowSurrogate(s.charAt(i + 1));
    }
    if (Character.isLowSurrogate(c)) {
      return i == 0 || !Character.isHighSurrogate(s.charAt(i - 1));
    }
    return c == 0x00ad
        || c == 0x061c
        || c == 0x180e
        || (c >= 0x200b && c <= 0x200f)
        || (c >= 0x2028 && c <= 0x202e)
        || (c >= 0x2060 && c <= 0x2064)
        || (c >= 0x2066 && c <= 0x206f)
        || c == 0xfeff
        || (c >= 0xfff9 && c <= 0xfffb);
  }

  private static int firstHidden(String s) {
    for (int i = 0; i < s.length(); i++) {
      if (hidden(s, i)) {
        return i;
      }
    }
    return -1;
  }

  /** Appends {@code s.charAt(i)}, escaped as Go escapes it when it is hidden. */
  private static void appendVisible(StringBuilder out, String s, int i) {
    char c = s.charAt(i);
    if (!hidden(s, i)) {
      out.append(c);
      return;
    }
    switch (c) {
      case 0x07 -> out.append("\\a");
      case '\b' -> out.append("\\b");
      case '\f' -> out.append("\\f");
      case '\n' -> out.append("\\n");
      case '\r' -> out.append("\\r");
      case '\t' -> out.append("\\t");
      case 0x0b -> out.append("\\v");
      default -> {
        String hex = Integer.toHexString(c);
        if (c < 0x80) {
          out.append("\\x").append(hex.length() < 2 ? "0" : "").append(hex);
        } else {
          out.append("\\u").append("0".repeat(4 - hex.length())).append(hex);
        }
      }
    }
  }
}
