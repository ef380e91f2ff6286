package dev.jobc.sidecar.base;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** Parses durations as Kubernetes tools write them: {@code 90s}, {@code 10m}, {@code 1h30m}. */
public final class Durations implements ITypeConverter<Duration> {
  private static final Pattern PART = Pattern.compile("(\\d{1,9})(ms|s|m|h)");

  @Override
  public Duration convert(String text) {
    return parse(text);
  }

  /** {@code 90s}, {@code 10m}, {@code 1h30m}: the way {@link #parse} reads it. */
  public static String format(Duration d) {
    StringBuilder out = new StringBuilder();
    if (d.toHours() > 0) {
      out.append(d.toHours()).append('h');
    }
    if (d.toMinutesPart() > 0) {
      out.append(d.toMinutesPart()).append('m');
    }
    if (d.toSecondsPart() > 0) {
      out.append(d.toSecondsPart()).append('s');
    }
    if (d.toMillisPart() > 0 || out.length() == 0) {
      out.append(d.toMillisPart()).append("ms");
    }
    return out.toString();
  }

  /** The duration {@code text} stands for; it must be positive. */
  public static Duration parse(String text) {
    Matcher m = PART.matcher(text);
    Duration total = Duration.ZERO;
    int end = 0;
    while (m.lookingAt()) {
      long n = Long.parseLong(m.group(1));
      total =
          total.plus(
              switch (m.group(2)) {
                case "ms" -> Duration.ofMillis(n);
                case "s" -> Duration.ofSeconds(n);
                case "m" -> Duration.ofMinutes(n);
                default -> Duration.ofHours(n);
              });
      end = m.end();
      m.region(end, text.length());
    }
    if (end == 0 || end != text.length() || total.isZero()) {
      throw new TypeConversionException(
          "'" + text + "' is not a duration (examples: 90s, 10m, 1h, 1h30m)");
    }
    return total;
  }
}
