package dev.jobc.render;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jobc.load.GoYamlScalars;
import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Iterator;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Writes one tree as one YAML document in jobc's canonical style, by hand (no YAML library writes
 * jobc's output). Immutable and thread-safe. Generated objects go through {@link YamlStream}
 * instead, which writes the same bytes without a tree ({@code YamlStreamTest} holds the two
 * together); this class decides what those bytes are.
 *
 * <p>The layout is kubectl's (go-yaml's): 2-space indentation, list items at their key's column,
 * {@code {}} and {@code []} for empty containers, literal blocks for multi-line text. A string is
 * quoted exactly when a YAML 1.1 or 1.2 reader (SnakeYAML, PyYAML, go-yaml) could read it back as
 * something else, so the output means the same to every consumer. Output is independent of locale,
 * time zone and JDK version.
 */
public final class YamlWriter {

  /**
   * Canonical order: the keys of {@link #rank} first, in its order, then the others by {@link
   * String#compareTo}.
   */
  private static final Comparator<Map.Entry<String, ?>> CANONICAL =
      (a, b) -> compareKeys(a.getKey(), b.getKey());

  /**
   * Plain words that YAML 1.1 readers (go-yaml v2, PyYAML, SnakeYAML) take for a boolean or a merge
   * or value key; go-yaml v3's null, boolean and float words are {@link GoYamlScalars}'.
   */
  private static final Set<String> YAML11_WORDS =
      Set.of("y Y yes Yes YES n N no No NO on On ON off Off OFF << =".split(" "));

  // YAML 1.1 int and float (the union of SnakeYAML's and PyYAML's resolvers, with sexagesimals),
  // and the timestamps they resolve. Applied only to short strings that start like a number.
  private static final Pattern YAML11_INT =
      Pattern.compile(
          "[-+]?(?:0b[01_]+|0[0-7_]+|0|[1-9][0-9_]*|0x[0-9a-fA-F_]+"
              + "|[1-9][0-9_]*(?::[0-5]?[0-9])+)");
  private static final Pattern YAML11_FLOAT =
      Pattern.compile(
          "[-+]?(?:\\.[0-9_]+|[0-9_]+(?:\\.[0-9_]*)?)(?:[eE][-+]?[0-9]+)?"
              + "|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\\.[0-9_]*");
  private static final Pattern TIMESTAMP =
      Pattern.compile("[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}(?:[Tt \\t].*)?", Pattern.DOTALL);

  /** Longest implicit key YAML allows is 1024 chars; longer keys use the explicit "? " form. */
  private static final int MAX_IMPLICIT_KEY = 1000;

  /** Indentation is appended from here, 64 columns at a time. */
  private static final String SPACES = " ".repeat(64);

  /**
   * Strings longer than this skip {@link #provablyPlain} and take the rules. At most {@link
   * #MAX_IMPLICIT_KEY}: a proven key is written plain without the explicit form.
   */
  private static final int FAST_PATH_MAX_LENGTH = MAX_IMPLICIT_KEY;

  /** From this length on, the rules quote any string made only of number characters. */
  private static final int LONG_NUMERIC = 257;

  /** Every character of a number in any syntax {@link #looksNumeric} and go-yaml accept. */
  private static final String NUMBER_CHARS = "0123456789_:.+-eEoOxXabcdefABCDEF";

  // What provablyPlain makes of an ASCII character after the first: one table load per character.
  private static final byte OTHER = 0; // ends the proof
  private static final byte NUMBER_CHAR = 1; // of NUMBER_CHARS, but not ':'
  private static final byte CHAR = 2; // a letter or mark that no number holds
  private static final byte COLON = 3; // fine unless last
  private static final byte SPACE = 4; // fine unless last or after ':'
  private static final byte[] CHAR_CLASS = new byte[128];

  static {
    for (char c = 'a'; c <= 'z'; c++) {
      CHAR_CLASS[c] = CHAR;
      CHAR_CLASS[Character.toUpperCase(c)] = CHAR;
    }
    for (char c : "/=@,".toCharArray()) {
      CHAR_CLASS[c] = CHAR;
    }
    for (char c : NUMBER_CHARS.toCharArray()) {
      CHAR_CLASS[c] = NUMBER_CHAR;
    }
    CHAR_CLASS[':'] = COLON;
    CHAR_CLASS[' '] = SPACE;
  }

  /** What {@link #write} starts with: more than most generated objects need (growing copies). */
  private static final int INITIAL_CAPACITY = 4096;

  public YamlWriter() {}

  /**
   * One YAML document (no {@code ---}), ending in exactly one newline. With {@code canonicalOrder},
   * every mapping lists {@code apiVersion, kind, metadata, name, generateName, namespace, labels,
   * annotations} first and then its other keys by {@link String#compareTo}; otherwise keys keep the
   * tree's order.
   */
  public String write(JsonNode document, boolean canonicalOrder) {
    return write(document, canonicalOrder, Long.MAX_VALUE);
  }

  /**
   * As {@link #write(JsonNode, boolean)}, but stops once the text passes {@code maxChars}: the text
   * of a tree can be far longer than the tree's source (each line of block YAML repeats its
   * indentation), so output is bounded as it is written, not estimated.
   *
   * @throws TooLong when the document would be longer than {@code maxChars}
   */
  public String write(JsonNode document, boolean canonicalOrder, long maxChars) {
    Objects.requireNonNull(document, "document");
    StringBuilder out = new StringBuilder(INITIAL_CAPACITY);
    Emitter emitter = new Emitter(out, canonicalOrder);
    emitter.limit = maxChars;
    emitter.root(document);
    if (out.length() > maxChars) {
      throw new TooLong(maxChars);
    }
    return out.toString();
  }

  /** A document longer than the writer was allowed to write. */
  public static final class TooLong extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final long limit;

    TooLong(long limit) {
      super("longer than " + limit + " characters", null, false, false);
      this.limit = limit;
    }

    public long limit() {
      return limit;
    }
  }

  /**
   * The YAML document of a fabric8 object as {@link #write}{@code (tree, true)} writes the object's
   * tree, written straight from the object; null when it must be written from its tree (a class or
   * value the generated {@link Fabric8Yaml} does not cover exactly).
   */
  public String writeObject(Object object) {
    return Fabric8Yaml.yaml(object);
  }

  /** Keys that lead every mapping in canonical order, in this order (Kubernetes convention). */
  static int rank(String key) {
    return switch (key) {
      case "apiVersion" -> 0;
      case "kind" -> 1;
      case "metadata" -> 2;
      case "name" -> 3;
      case "generateName" -> 4;
      case "namespace" -> 5;
      case "labels" -> 6;
      case "annotations" -> 7;
      default -> 8;
    };
  }

  /** The canonical order of two keys. */
  static int compareKeys(String a, String b) {
    int ra = rank(a);
    int rb = rank(b);
    return ra != rb ? Integer.compare(ra, rb) : a.compareTo(b);
  }

  /** The writing of one document; {@link YamlStream} writes through it too. */
  static final class Emitter {
    private final StringBuilder out;
    private final boolean canonical;

    /** The longest text to write; checked at each line. */
    long limit = Long.MAX_VALUE;

    Emitter(StringBuilder out, boolean canonical) {
      this.out = out;
      this.canonical = canonical;
    }

    void root(JsonNode node) {
      if (node.isObject() && node.size() > 0) {
        mapping(node, 0, false, true);
      } else if (node.isArray() && node.size() > 0) {
        list(node, 0, false, true);
      } else {
        scalar(node, "", 2, true);
      }
    }

    /** Entries of a non-empty mapping at {@code indent}; the first one's indent may be written. */
    void mapping(JsonNode node, int indent, boolean firstWritten, boolean last) {
      Map.Entry<String, JsonNode>[] entries = entries(node);
      for (int i = 0; i < entries.length; i++) {
        if (i > 0 || !firstWritten) {
          pad(indent);
        }
        boolean explicit = key(entries[i].getKey());
        if (explicit) {
          out.append('\n');
          pad(indent);
        }
        out.append(':');
        afterKey(entries[i].getValue(), indent, explicit, last && i == entries.length - 1);
      }
    }

    void afterKey(JsonNode value, int indent, boolean explicit, boolean last) {
      if (value.isObject() && value.size() > 0) {
        out.append('\n');
        mapping(value, indent + 2, false, last);
      } else if (value.isArray() && value.size() > 0) {
        // kubectl puts list items at the key's column ("containers:\n- name: x").
        out.append('\n');
        list(value, explicit ? indent + 2 : indent, false, last);
      } else {
        scalar(value, " ", indent + 2, last);
      }
    }

    /** Items of a non-empty list at {@code indent}; the first one's indent may be written. */
    void list(JsonNode node, int indent, boolean firstWritten, boolean last) {
      int n = node.size();
      for (int i = 0; i < n; i++) {
        if (i > 0 || !firstWritten) {
          pad(indent);
        }
        out.append('-');
        JsonNode item = node.get(i);
        boolean lastItem = last && i == n - 1;
        if (item.isObject() && item.size() > 0) {
          out.append(' ');
          mapping(item, indent + 2, true, lastItem);
        } else if (item.isArray() && item.size() > 0) {
          out.append(' ');
          list(item, indent + 2, true, lastItem);
        } else {
          scalar(item, " ", indent + 2, lastItem);
        }
      }
    }

    /** A scalar or empty container after {@code lead}, then the line end. */
    void scalar(JsonNode node, String lead, int blockIndent, boolean last) {
      out.append(lead);
      if (node.isTextual() || node.isBinary()) {
        string(node.asText(), blockIndent, last);
        return;
      }
      if (node.isObject()) {
        out.append("{}");
      } else if (node.isArray()) {
        out.append("[]");
      } else if (node.isNull()) {
        out.append("null");
      } else if (node.isBoolean()) {
        out.append(node.booleanValue() ? "true" : "false");
      } else if (node.isInt() || node.isLong()) {
        out.append(node.longValue());
      } else if (node.isIntegralNumber()) {
        out.append(node.bigIntegerValue().toString());
      } else if (node.isNumber()) {
        out.append(formatDouble(node.doubleValue()));
      } else {
        throw new IllegalArgumentException(
            "cannot write a " + node.getNodeType() + " node as YAML");
      }
      out.append('\n');
    }

    void string(String s, int blockIndent, boolean last) {
      if (provablyPlain(s)) {
        // Most strings: one line (the proof admits no line break) and plain.
        out.append(s).append('\n');
      } else if (s.indexOf('\n') >= 0 && literalFits(s, last)) {
        literal(s, blockIndent);
      } else if (plainFitsByRules(s)) {
        out.append(s).append('\n');
      } else {
        doubleQuoted(s);
        out.append('\n');
      }
    }

    /**
     * A literal block whose chomping indicator keeps the text exact: {@code |-} without a final
     * newline, {@code |} with one, {@code |+} with more.
     */
    void literal(String s, int indent) {
      int end = s.length();
      while (end > 0 && s.charAt(end - 1) == '\n') {
        end--;
      }
      int trailing = s.length() - end;
      out.append(trailing == 0 ? "|-" : trailing == 1 ? "|" : "|+").append('\n');
      int start = 0;
      while (start <= end) {
        int nl = s.indexOf('\n', start);
        if (nl < 0 || nl > end) {
          nl = end;
        }
        if (nl > start) {
          pad(indent);
          out.append(s, start, nl);
        }
        out.append('\n');
        start = nl + 1;
      }
      for (int i = 1; i < trailing; i++) {
        out.append('\n');
      }
    }

    /**
     * Writes {@code key} plain or double-quoted; a written key longer than {@link
     * #MAX_IMPLICIT_KEY} gets the explicit "? " form, and true is returned.
     */
    boolean key(String key) {
      if (provablyPlain(key)) {
        // Shorter than MAX_IMPLICIT_KEY, one line, plain.
        out.append(key);
        return false;
      }
      int mark = out.length();
      if (key.indexOf('\n') < 0 && plainFitsByRules(key)) {
        out.append(key);
      } else {
        doubleQuoted(key);
      }
      if (out.length() - mark > MAX_IMPLICIT_KEY) {
        out.insert(mark, "? ");
        return true;
      }
      return false;
    }

    void doubleQuoted(String s) {
      out.append('"');
      for (int i = 0; i < s.length(); i++) {
        char c = s.charAt(i);
        switch (c) {
          case '"' -> out.append("\\\"");
          case '\\' -> out.append("\\\\");
          case '\n' -> out.append("\\n");
          case '\t' -> out.append("\\t");
          case '\r' -> out.append("\\r");
          case '\0' -> out.append("\\0");
          case '\u0085' -> out.append("\\N");
          case '\u2028' -> out.append("\\L");
          case '\u2029' -> out.append("\\P");
          default -> {
            if (Character.isHighSurrogate(c)
                && i + 1 < s.length()
                && Character.isLowSurrogate(s.charAt(i + 1))) {
              out.append(c).append(s.charAt(++i));
            } else if (printable(c)) {
              out.append(c);
            } else if (c <= 0xFF) {
              out.append(String.format(Locale.ROOT, "\\x%02X", (int) c));
            } else {
              out.append(String.format(Locale.ROOT, "\\u%04X", (int) c));
            }
          }
        }
      }
      out.append('"');
    }

    /** The entries of a mapping in writing order. */
    @SuppressWarnings({"unchecked", "rawtypes"}) // generic arrays cannot be created
    Map.Entry<String, JsonNode>[] entries(JsonNode node) {
      Map.Entry<String, JsonNode>[] entries = new Map.Entry[node.size()];
      Iterator<Map.Entry<String, JsonNode>> it = node.properties().iterator();
      for (int i = 0; i < entries.length; i++) {
        entries[i] = it.next();
      }
      if (canonical) {
        sortCanonically(entries);
      }
      return entries;
    }

    void pad(int indent) {
      if (out.length() > limit) {
        throw new TooLong(limit);
      }
      int left = indent;
      while (left > SPACES.length()) {
        out.append(SPACES);
        left -= SPACES.length();
      }
      out.append(SPACES, 0, left);
    }
  }

  // --- style decisions (package-private for tests) -----------------------------------------------

  /** Sorts entries in canonical key order, unless they are sorted already (most are). */
  static void sortCanonically(Map.Entry<String, ?>[] entries) {
    if (!inCanonicalOrder(entries)) {
      Arrays.sort(entries, CANONICAL);
    }
  }

  /** Whether the entries are sorted already (generated objects mostly are): no sort needed. */
  private static boolean inCanonicalOrder(Map.Entry<String, ?>[] entries) {
    for (int i = 1; i < entries.length; i++) {
      if (compareKeys(entries[i - 1].getKey(), entries[i].getKey()) > 0) {
        return false;
      }
    }
    return true;
  }

  /**
   * Whether a multi-line string can be a literal block and read back exactly: only printable
   * characters (tabs are fine), no trailing whitespace on a line (editors strip it, and go-yaml
   * refuses it), a first non-empty line that does not start with a space (it would set the
   * indentation), and no kept trailing blank lines at the very end of the document (the document
   * ends in exactly one newline).
   */
  static boolean literalFits(String s, boolean last) {
    boolean content = false;
    boolean lineStart = true;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '\n') {
        if (i > 0 && (s.charAt(i - 1) == ' ' || s.charAt(i - 1) == '\t')) {
          return false;
        }
        lineStart = true;
        continue;
      }
      if (c != '\t' && !printable(c) && !Character.isSurrogate(c)) {
        return false;
      }
      if (Character.isSurrogate(c) && !validSurrogate(s, i)) {
        return false;
      }
      if (lineStart && !content && c == ' ') {
        return false;
      }
      content = true;
      lineStart = false;
    }
    char lastChar = s.charAt(s.length() - 1);
    if (lastChar == ' ' || lastChar == '\t') {
      return false;
    }
    return content && !(last && s.endsWith("\n\n"));
  }

  /** Whether a one-line string can be written without quotes and read back as the same string. */
  static boolean plainFits(String s) {
    return provablyPlain(s) || plainFitsByRules(s);
  }

  /**
   * A one-pass proof that {@link #plainFitsByRules} holds, for the strings that make up most of
   * every output (names, paths, images, flags, quantities): a letter, {@code _}, {@code /}, digit,
   * or {@code -}, {@code --} or {@code +} and a letter first (no dot or indicator), then only ASCII
   * letters, digits and {@code -_./=@+,}, a {@code :} that is not last, or a space that is not last
   * and does not follow a {@code :}; not one of the words a YAML 1.1 or 1.2 reader takes for a null
   * or a boolean; and when it starts with a digit, a character that no number syntax allows and no
   * timestamp's start. False means "not proven": the rules decide.
   */
  static boolean provablyPlain(String s) {
    int n = s.length();
    if (n == 0 || n > FAST_PATH_MAX_LENGTH) {
      return false;
    }
    char first = s.charAt(0);
    boolean digitFirst = first >= '0' && first <= '9';
    if (first == '-' || first == '+') {
      // Command-line flags (-n, --bind-to): a letter right after the sign, or after "--", is in no
      // number syntax, and "-" is then neither a list item nor "---".
      int letter = first == '-' && n > 2 && s.charAt(1) == '-' ? 2 : 1;
      if (n <= letter || !isAsciiLetter(s.charAt(letter))) {
        return false;
      }
    } else if (!(isAsciiLetter(first) || first == '_' || first == '/' || digitFirst)) {
      return false;
    }
    // Starting with a digit, it must have a character outside every number syntax (YAML 1.1's
    // ints, floats and sexagesimals, go-yaml's ints and floats; see looksNumeric's long form).
    // A long string must have one whatever its start: looksNumeric's long form quotes the rest.
    boolean notNumber = !digitFirst;
    boolean outsideNumberChars = NUMBER_CHARS.indexOf(first) < 0;
    for (int i = 1; i < n; i++) {
      char c = s.charAt(i);
      switch (c < 128 ? CHAR_CLASS[c] : OTHER) {
        case NUMBER_CHAR -> {}
        case CHAR -> {
          notNumber = true;
          outsideNumberChars = true;
        }
        case COLON -> {
          if (i == n - 1) {
            return false;
          }
        }
        case SPACE -> {
          if (i == n - 1 || s.charAt(i - 1) == ':') {
            return false;
          }
          notNumber = true;
          outsideNumberChars = true;
        }
        default -> {
          return false;
        }
      }
    }
    if (n >= LONG_NUMERIC && !outsideNumberChars) {
      return false;
    }
    if (digitFirst) {
      // YAML 1.1 timestamps (2001-12-14, 2001-12-14T21:59:43Z) may hold any character after the
      // date.
      return notNumber && !(n > 4 && s.charAt(4) == '-' && allDigits(s, 4));
    }
    return n > 5 || !nullOrBooleanWord(s);
  }

  private static boolean allDigits(String s, int end) {
    for (int i = 0; i < end; i++) {
      if (s.charAt(i) < '0' || s.charAt(i) > '9') {
        return false;
      }
    }
    return true;
  }

  private static boolean isAsciiLetter(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
  }

  /**
   * go-yaml v3's null and boolean words and YAML 1.1's boolean words, as far as they are letters.
   */
  private static boolean nullOrBooleanWord(String s) {
    return switch (s) {
      case "null", "Null", "NULL", "true", "True", "TRUE", "false", "False", "FALSE" -> true;
      case "y", "Y", "yes", "Yes", "YES", "n", "N", "no", "No", "NO" -> true;
      case "on", "On", "ON", "off", "Off", "OFF" -> true;
      default -> false;
    };
  }

  /** {@link #plainFits} by the rules, for any string. */
  static boolean plainFitsByRules(String s) {
    // Quote what kubectl's reader would resolve to anything but a string, then YAML 1.1's extras.
    if (GoYamlScalars.resolve(s) != GoYamlScalars.Type.STRING
        || (s.length() <= 3 && YAML11_WORDS.contains(s))) {
      return false;
    }
    char first = s.charAt(0);
    if ("?:,[]{}#&*!|>'\"%@`".indexOf(first) >= 0) {
      return false;
    }
    if (first == '-' && (s.length() == 1 || s.charAt(1) == ' ' || s.startsWith("---"))) {
      return false;
    }
    if (s.startsWith("...")) {
      return false;
    }
    char lastChar = s.charAt(s.length() - 1);
    if (first == ' ' || lastChar == ' ' || lastChar == ':') {
      return false;
    }
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '\t' || !printable(c) || (Character.isSurrogate(c) && !validSurrogate(s, i))) {
        return false;
      }
      if (c == ':' && i + 1 < s.length() && s.charAt(i + 1) == ' ') {
        return false;
      }
      if (c == '#' && s.charAt(i - 1) == ' ') {
        return false;
      }
    }
    return !(GoYamlScalars.startsLikeNumber(s) && looksNumeric(s));
  }

  /**
   * Whether a YAML 1.1 reader resolves a plain scalar starting like a number to a non-string
   * (go-yaml v3's numbers are checked before, by {@link GoYamlScalars}).
   */
  private static boolean looksNumeric(String s) {
    if (s.length() > 256) {
      // Regexes with repeated groups recurse per repetition; long strings get a cheap, strict
      // check instead (quote anything made only of number characters).
      for (int i = 0; i < s.length(); i++) {
        if (NUMBER_CHARS.indexOf(s.charAt(i)) < 0) {
          return false;
        }
      }
      return true;
    }
    return YAML11_INT.matcher(s).matches()
        || YAML11_FLOAT.matcher(s).matches()
        || TIMESTAMP.matcher(s).matches();
  }

  /**
   * YAML's printable set minus line breaks: no C0/C1 controls, DEL, NEL, LS, PS, BOM or
   * non-characters. Surrogates are checked separately.
   */
  private static boolean printable(char c) {
    if (c < 0x20) {
      return false;
    }
    if (c < 0x7F) {
      return true;
    }
    if (c <= 0x9F) {
      return false;
    }
    return c != 0x2028 && c != 0x2029 && c != 0xFEFF && c != 0xFFFE && c != 0xFFFF;
  }

  private static boolean validSurrogate(String s, int i) {
    char c = s.charAt(i);
    if (Character.isHighSurrogate(c)) {
      return i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1));
    }
    return i > 0 && Character.isHighSurrogate(s.charAt(i - 1));
  }

  /**
   * The shortest decimal that reads back as {@code d}, spelled so that YAML 1.1 readers also see a
   * float (always a '.', signed exponent). Computed with BigDecimal rather than Double.toString,
   * whose digits differ between JDK 17 and 19+.
   */
  static String formatDouble(double d) {
    if (Double.isNaN(d)) {
      return ".nan";
    }
    if (Double.isInfinite(d)) {
      return d > 0 ? ".inf" : "-.inf";
    }
    if (d == 0) {
      return 1 / d < 0 ? "-0.0" : "0.0";
    }
    BigDecimal exact = new BigDecimal(d);
    BigDecimal r = exact;
    for (int p = 1; p <= 17; p++) {
      r = exact.round(new MathContext(p, RoundingMode.HALF_EVEN));
      if (r.doubleValue() == d) {
        break;
      }
    }
    r = r.stripTrailingZeros();
    String digits = r.unscaledValue().abs().toString();
    int exponent = digits.length() - 1 - r.scale();
    StringBuilder s = new StringBuilder(24);
    if (d < 0) {
      s.append('-');
    }
    if (exponent >= -5 && exponent < 16) {
      if (exponent >= 0) {
        int intLength = exponent + 1;
        if (digits.length() <= intLength) {
          s.append(digits).append("0".repeat(intLength - digits.length())).append(".0");
        } else {
          s.append(digits, 0, intLength).append('.').append(digits, intLength, digits.length());
        }
      } else {
        s.append("0.").append("0".repeat(-exponent - 1)).append(digits);
      }
    } else {
      s.append(digits.charAt(0)).append('.');
      s.append(digits.length() > 1 ? digits.substring(1) : "0");
      s.append(exponent < 0 ? "e-" : "e+").append(Math.abs(exponent));
    }
    return s.toString();
  }
}
