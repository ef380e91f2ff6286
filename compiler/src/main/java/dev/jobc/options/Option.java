package dev.jobc.options;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * One compile option as every channel spells it: {@code jobc render --cluster-domain}, the Maven
 * parameter {@code clusterDomain} (property {@code jobc.clusterDomain}), the KRM {@code
 * functionConfig} key and Argo CD parameter {@code cluster-domain}, the Argo CD variable {@code
 * ARGOCD_ENV_JOBC_CLUSTER_DOMAIN} and, for per-job options, the annotation {@code
 * jobc.dev/cluster-domain}. Rows live in {@link OptionTable}; nothing else names an option.
 *
 * @param index position in {@link OptionTable#ALL}, which is also where {@link CompileOptions}
 *     keeps the value
 * @param name the option's name in kebab case
 * @param label what the value is, for help texts ({@code DOMAIN}, {@code kubexec|ssh}); {@code
 *     null} for a flag, which takes no value on the command line
 * @param type {@code Boolean.class} for a flag, else the value's type
 * @param defaultValue the value when no channel sets one; may be {@code null}
 * @param parser text to value; throws {@link IllegalArgumentException} with a message that names
 *     the option
 * @param perJob whether a job may set it with the annotation {@link #annotation()}
 * @param help one sentence or two for help texts; the default is appended by {@link #helpText()}
 * @param implied an option this one sets as well, unless the same channel sets that option itself
 *     ({@code ssh-secret} implies {@code transport: ssh}); {@code null} for none
 * @param shortFlag a one-letter command-line alias as kubectl and helm spell it ({@code -n} for the
 *     namespace), or {@code null}
 */
public record Option<T>(
    int index,
    String name,
    String label,
    Class<T> type,
    T defaultValue,
    Function<String, T> parser,
    boolean perJob,
    String help,
    Implication<?> implied,
    String shortFlag) {

  /** Another option's value that setting this one implies. */
  public record Implication<V>(Option<V> option, V value) {}

  /** The annotation prefix of per-job options. */
  public static final String ANNOTATION_PREFIX = "jobc.dev/";

  /**
   * The value of {@code text}.
   *
   * @throws IllegalArgumentException naming the option and what it accepts
   */
  public T parse(String text) {
    return parser.apply(text);
  }

  /** Takes no value on the command line: present means {@code true}. */
  public boolean isFlag() {
    return type == Boolean.class;
  }

  /** {@code jobc.dev/<name>} for a per-job option, else {@code null}. */
  public String annotation() {
    return perJob ? ANNOTATION_PREFIX + name : null;
  }

  /** {@code cluster-domain} → {@code clusterDomain}: the Maven parameter and property suffix. */
  public String camelName() {
    StringBuilder out = new StringBuilder(name.length());
    boolean upper = false;
    for (char c : name.toCharArray()) {
      if (c == '-') {
        upper = true;
      } else {
        out.append(upper ? Character.toUpperCase(c) : c);
        upper = false;
      }
    }
    return out.toString();
  }

  /** {@code cluster-domain} → {@code CLUSTER_DOMAIN}, for environment variable names. */
  public String envName() {
    return name.replace('-', '_').toUpperCase(Locale.ROOT);
  }

  /** The default as text ({@code kubexec}, {@code 8}), or {@code null} when there is none. */
  public String defaultText() {
    if (defaultValue == null) {
      return null;
    }
    return defaultValue instanceof Spelled s ? s.spelling() : defaultValue.toString();
  }

  /**
   * The values of an option that takes one of a closed set, as users write them ({@code kubexec},
   * {@code ssh}); empty when any text of the right form goes. Shell completion offers them.
   */
  public List<String> allowedValues() {
    if (!type.isEnum()) {
      return List.of();
    }
    return Arrays.stream(type.getEnumConstants())
        .map(c -> c instanceof Spelled s ? s.spelling() : c.toString())
        .toList();
  }

  /** {@link #help} with the default, for every channel's help and parameter descriptions. */
  public String helpText() {
    String text = defaultText();
    return text == null || isFlag() ? help : help + " Default: " + text + ".";
  }

  /** A value whose text form differs from {@code toString()}. */
  public interface Spelled {
    /** The value as users write it. */
    String spelling();
  }

  @Override
  public String toString() {
    return name;
  }
}
