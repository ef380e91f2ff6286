package dev.jobc.dgl;

import dev.jobc.k8s.Quantities;
import io.fabric8.kubernetes.api.model.Quantity;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.util.List;

/**
 * Sizes the memory-backed {@code /dev/shm} of DGL workers and partitioner: exactly half of the
 * worker container's memory limit, written in the limit's own unit family ({@code 20Gi} → {@code
 * 10Gi}, {@code 3Gi} → {@code 1536Mi}, {@code 4G} → {@code 2G}). dgl-operator truncates to whole
 * decimal GB instead ({@code 20Gi} → {@code 10G}, anything under 2 GB → {@code 0}).
 */
public final class ShmSize {
  private record Unit(String suffix, BigDecimal factor) {}

  private static final List<Unit> BINARY =
      List.of(
          new Unit("Ei", pow(1024, 6)),
          new Unit("Pi", pow(1024, 5)),
          new Unit("Ti", pow(1024, 4)),
          new Unit("Gi", pow(1024, 3)),
          new Unit("Mi", pow(1024, 2)),
          new Unit("Ki", pow(1024, 1)));
  private static final List<Unit> DECIMAL =
      List.of(
          new Unit("E", pow(1000, 6)),
          new Unit("P", pow(1000, 5)),
          new Unit("T", pow(1000, 4)),
          new Unit("G", pow(1000, 3)),
          new Unit("M", pow(1000, 2)),
          new Unit("k", pow(1000, 1)),
          new Unit("", BigDecimal.ONE));
  private static final List<Unit> FRACTIONS =
      List.of(
          new Unit("m", BigDecimal.ONE.movePointLeft(3)),
          new Unit("u", BigDecimal.ONE.movePointLeft(6)),
          new Unit("n", BigDecimal.ONE.movePointLeft(9)));

  private ShmSize() {}

  /**
   * Half of {@code limit} as a quantity string in the largest unit of the limit's family that keeps
   * it whole, or {@code null} when there is no limit or half of it is zero (then the emptyDir gets
   * no {@code sizeLimit}, and tmpfs is bounded by the pod's memory).
   */
  public static String half(Quantity limit) {
    if (limit == null) {
      return null;
    }
    BigDecimal amount = Quantities.value(limit);
    if (amount == null) {
      return null; // not a quantity: validation reports it
    }
    BigDecimal half = amount.divide(BigDecimal.valueOf(2));
    if (half.signum() <= 0) {
      return null;
    }
    String format = limit.getFormat() == null ? "" : limit.getFormat();
    if (format.endsWith("i")) {
      for (Unit u : BINARY) {
        String s = whole(half, u);
        if (s != null) {
          return s;
        }
      }
    }
    for (Unit u : DECIMAL) {
      String s = whole(half, u);
      if (s != null) {
        return s;
      }
    }
    for (Unit u : FRACTIONS) {
      String s = whole(half, u);
      if (s != null) {
        return s;
      }
    }
    // Below a nanobyte; Kubernetes rounds quantities up to the nearest nano unit too.
    return half.divide(BigDecimal.ONE.movePointLeft(9), 0, RoundingMode.CEILING) + "n";
  }

  private static String whole(BigDecimal value, Unit unit) {
    BigDecimal scaled = value.divide(unit.factor());
    if (scaled.signum() == 0 || scaled.stripTrailingZeros().scale() > 0) {
      return null;
    }
    BigInteger n = scaled.toBigIntegerExact();
    return n + unit.suffix();
  }

  private static BigDecimal pow(int base, int exponent) {
    return BigDecimal.valueOf(base).pow(exponent);
  }
}
