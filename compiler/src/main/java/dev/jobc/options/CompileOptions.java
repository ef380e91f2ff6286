package dev.jobc.options;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.StringJoiner;

/**
 * Everything that steers a compilation besides the input text: one value per {@link OptionTable}
 * row. Immutable; change a copy through {@link #toDraft()}. The CLI flags, Maven parameters, KRM
 * and Argo CD parameters and per-job annotations ({@code jobc.dev/...}) each make one draft over
 * the options before them, in that order of precedence (an annotation wins).
 */
public final class CompileOptions {
  /** The Flux kustomize-controller annotation that turns off post-build substitution per object. */
  public static final String FLUX_SUBSTITUTE_ANNOTATION = "kustomize.toolkit.fluxcd.io/substitute";

  /**
   * Flux kustomize-controller's per-object server-side apply policy: {@code IfNotPresent} on a
   * worker StatefulSet the sidecar scales, so Flux creates it when missing and leaves it alone.
   */
  public static final String FLUX_SSA_ANNOTATION = "kustomize.toolkit.fluxcd.io/ssa";

  private static final CompileOptions DEFAULTS = defaultsOf();

  private final Object[] values;

  private CompileOptions(Object[] values) {
    this.values = values;
  }

  /** Every option at its table default. */
  public static CompileOptions defaults() {
    return DEFAULTS;
  }

  private static CompileOptions defaultsOf() {
    Object[] values = new Object[OptionTable.ALL.size()];
    for (Option<?> option : OptionTable.ALL) {
      values[option.index()] = option.defaultValue();
    }
    return new CompileOptions(values);
  }

  /** The value of {@code option}; {@code null} only where the option's default is. */
  public <T> T get(Option<T> option) {
    return option.type().cast(values[option.index()]);
  }

  /**
   * A job's namespace: {@code given} ({@code metadata.namespace}) unless empty, else the option.
   */
  public String namespace(String given) {
    return given == null || given.isEmpty() ? get(OptionTable.NAMESPACE) : given;
  }

  /** A copy with {@code option} set, and what it implies (see {@link Draft#build}). */
  public <T> CompileOptions with(Option<T> option, T value) {
    return toDraft().set(option, value).build();
  }

  /** A draft starting from these values, for one channel's settings. */
  public Draft toDraft() {
    return new Draft(values.clone());
  }

  /** The values by option name, for messages and tests. */
  public Map<String, Object> asMap() {
    Map<String, Object> out = new LinkedHashMap<>();
    for (Option<?> option : OptionTable.ALL) {
      out.put(option.name(), values[option.index()]);
    }
    return out;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof CompileOptions other && Arrays.equals(values, other.values);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(values);
  }

  @Override
  public String toString() {
    StringJoiner out = new StringJoiner(", ", "CompileOptions[", "]");
    asMap().forEach((k, v) -> out.add(k + "=" + v));
    return out.toString();
  }

  /**
   * One channel's settings over the options before it. An option this channel sets may imply
   * another ({@link Option#implied}); the implication holds only when this channel does not set
   * that other option itself, whatever the order of the settings.
   */
  public static final class Draft {
    private final Object[] values;
    private final boolean[] set;

    private Draft(Object[] values) {
      this.values = values;
      this.set = new boolean[values.length];
    }

    /** Sets {@code option} to an already valid value. */
    public <T> Draft set(Option<T> option, T value) {
      values[option.index()] = value;
      set[option.index()] = true;
      return this;
    }

    /**
     * Sets the option called {@code name} from its text form.
     *
     * @throws IllegalArgumentException for an unknown name or an invalid value, with a message that
     *     names both
     */
    public Draft setText(String name, String text) {
      return setText(OptionTable.byName(name), text);
    }

    /** Sets every {@code name → text} of {@code values}, in map order; see {@link #setText}. */
    public Draft setText(Map<String, String> values) {
      values.forEach(this::setText);
      return this;
    }

    /** Sets {@code option} from its text form; see {@link #setText(String, String)}. */
    public <T> Draft setText(Option<T> option, String text) {
      return set(option, option.parse(text));
    }

    /** The options, with the implications of what this draft set. */
    public CompileOptions build() {
      Object[] out = values.clone();
      for (Option<?> option : OptionTable.ALL) {
        Option.Implication<?> implied = option.implied();
        if (set[option.index()]
            && implied != null
            && out[option.index()] != null
            && !set[implied.option().index()]) {
          out[implied.option().index()] = implied.value();
        }
      }
      return new CompileOptions(out);
    }
  }
}
