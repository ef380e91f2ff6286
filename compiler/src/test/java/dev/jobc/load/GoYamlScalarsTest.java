package dev.jobc.load;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jobc.load.GoYamlScalars.Type;
import java.math.BigInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class GoYamlScalarsTest {

  /** Plain scalars and what go-yaml v3 (resolve.go) resolves them to. */
  static Stream<Arguments> plainScalars() {
    return Stream.of(
        Arguments.of("~", Type.NULL),
        Arguments.of("null", Type.NULL),
        Arguments.of("Null", Type.NULL),
        Arguments.of("NULL", Type.NULL),
        Arguments.of("", Type.NULL),
        Arguments.of("nULL", Type.STRING),
        Arguments.of("true", Type.BOOL),
        Arguments.of("True", Type.BOOL),
        Arguments.of("TRUE", Type.BOOL),
        Arguments.of("false", Type.BOOL),
        Arguments.of("tRUE", Type.STRING),
        // YAML 1.1 booleans are strings in YAML 1.2 and go-yaml v3.
        Arguments.of("yes", Type.STRING),
        Arguments.of("on", Type.STRING),
        Arguments.of("n", Type.STRING),
        Arguments.of("0x1F", Type.INT),
        Arguments.of("0o17", Type.INT),
        Arguments.of("017", Type.INT),
        Arguments.of("0b101", Type.INT),
        Arguments.of("1_000", Type.INT),
        Arguments.of("+1", Type.INT),
        Arguments.of("-0", Type.INT),
        Arguments.of("08", Type.FLOAT),
        Arguments.of("1e3", Type.FLOAT),
        Arguments.of(".5", Type.FLOAT),
        Arguments.of("1.", Type.FLOAT),
        Arguments.of("-1.5E-3", Type.FLOAT),
        Arguments.of(".inf", Type.NON_FINITE),
        Arguments.of("-.Inf", Type.NON_FINITE),
        Arguments.of("+.INF", Type.NON_FINITE),
        Arguments.of(".nan", Type.NON_FINITE),
        Arguments.of(".NaN", Type.NON_FINITE),
        Arguments.of(".inF", Type.STRING),
        Arguments.of("0x", Type.STRING),
        Arguments.of("0xG", Type.STRING),
        Arguments.of("1e", Type.STRING),
        Arguments.of(".", Type.STRING),
        Arguments.of("+", Type.STRING),
        Arguments.of("1.2.3", Type.STRING),
        Arguments.of("12:30", Type.STRING),
        Arguments.of("2024-01-01", Type.STRING),
        Arguments.of("\u0661", Type.STRING),
        Arguments.of("<<", Type.STRING),
        Arguments.of("hello", Type.STRING));
  }

  @ParameterizedTest(name = "{0} -> {1}")
  @MethodSource("plainScalars")
  void resolvesPlainScalarsLikeGoYamlV3(String text, Type expected) {
    assertThat(GoYamlScalars.resolve(text)).isEqualTo(expected);
  }

  static Stream<Arguments> integers() {
    return Stream.of(
        Arguments.of("0x1F", 31),
        Arguments.of("-0x1F", -31),
        Arguments.of("0o17", 15),
        Arguments.of("017", 15),
        Arguments.of("0b101", 5),
        Arguments.of("1000", 1000),
        Arguments.of("+1", 1),
        Arguments.of("0", 0));
  }

  @ParameterizedTest(name = "{0} = {1}")
  @MethodSource("integers")
  void integerLiteralsHaveGoParseIntValues(String text, long expected) {
    assertThat(GoYamlScalars.integer(text).value()).isEqualTo(BigInteger.valueOf(expected));
  }

  @Test
  void integerLiteralsKeepSignRadixAndDigits() {
    assertThat(GoYamlScalars.integer("-0o755"))
        .isEqualTo(new GoYamlScalars.IntegerLiteral(true, 8, "755"));
    assertThat(GoYamlScalars.integer("08")).isNull();
    assertThat(GoYamlScalars.integer("1.0")).isNull();
  }

  @Test
  void underscoresAreRemovedBeforeNumbersAreRead() {
    assertThat(GoYamlScalars.withoutUnderscores("1_000_000")).isEqualTo("1000000");
    assertThat(GoYamlScalars.withoutUnderscores("abc")).isSameAs("abc");
    assertThat(GoYamlScalars.isFloat(GoYamlScalars.withoutUnderscores("1_0.5"))).isTrue();
  }

  @Test
  void booleansTellTrueFromFalse() {
    assertThat(GoYamlScalars.isTrue("True")).isTrue();
    assertThat(GoYamlScalars.isTrue("FALSE")).isFalse();
    assertThat(GoYamlScalars.isBoolean("FALSE")).isTrue();
  }

  @Test
  void decimalDigitsCountsOnlyDigits() {
    assertThat(GoYamlScalars.decimalDigits("-12.5e+10")).isEqualTo(5);
  }
}
