package dev.jobc.validate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jobc.options.Dns;
import org.junit.jupiter.api.Test;

/** Values from apimachinery v0.32 {@code pkg/util/validation/validation_test.go}. */
class NameFormatsTest {
  @Test
  void portNames() {
    for (String good :
        new String[] {"telnet", "re-mail-ck", "pop3", "a", "a-1", "1-a", "a-1-b-2-c-3"}) {
      assertThat(NameFormats.portName(good)).as(good).isEmpty();
    }
    for (String bad :
        new String[] {"", "UPPER", "1", "a--b", "-a", "a-", "longerthan15characters", "a b", "é"}) {
      assertThat(NameFormats.portName(bad)).as(bad).isNotEmpty();
    }
  }

  @Test
  void portNumbers() {
    assertThat(NameFormats.portNumber(1)).isEmpty();
    assertThat(NameFormats.portNumber(65535)).isEmpty();
    assertThat(NameFormats.portNumber(0)).containsExactly("must be between 1 and 65535, inclusive");
    assertThat(NameFormats.portNumber(65536)).isNotEmpty();
  }

  @Test
  void qualifiedNames() {
    for (String good :
        new String[] {
          "simple",
          "now-with-dashes",
          "1-starts-with-num",
          "1234",
          "simple/simple",
          "now-with-dashes/simple",
          "now-with-dashes/now-with-dashes",
          "now.with.dots/simple",
          "1-num.2-num/3-num",
          "UpperCaseAreOK123",
          "example.com/Upper-Case",
          "a".repeat(63)
        }) {
      assertThat(NameFormats.qualifiedName(good)).as(good).isEmpty();
    }
    for (String bad :
        new String[] {
          "",
          "nospecialchars%^=@",
          "cantendwithadash-",
          "-cantstartwithadash-",
          "only/one/slash",
          "Example.com/abc",
          "example_com/abc",
          "example.com/",
          "/simple",
          "a".repeat(64),
          "a".repeat(254) + "/abc"
        }) {
      assertThat(NameFormats.qualifiedName(bad)).as(bad).isNotEmpty();
    }
  }

  @Test
  void labelValues() {
    assertThat(NameFormats.labelValue("")).isEmpty();
    assertThat(NameFormats.labelValue("1.2-3_x")).isEmpty();
    assertThat(NameFormats.labelValue("a".repeat(64)))
        .containsExactly("must be no more than 63 characters");
    assertThat(NameFormats.labelValue("a b")).hasSize(1);
  }

  @Test
  void relaxedEnvironmentVariableNames() {
    assertThat(NameFormats.envVarName("my.env-name")).isEmpty();
    assertThat(NameFormats.envVarName("1 2 $ ~")).isEmpty();
    assertThat(NameFormats.envVarName("")).isNotEmpty();
    assertThat(NameFormats.envVarName("A=B")).isNotEmpty();
    assertThat(NameFormats.envVarName("tab\t")).isNotEmpty();
    assertThat(NameFormats.envVarName("é")).isNotEmpty();
  }

  @Test
  void aSubdomainIsNoLabelBecauseOfItsDots() {
    assertThat(Dns.dns1123Label("a.b")).containsExactly("must not contain dots");
    assertThat(Dns.dns1123Label("A.b")).hasSize(1).first().asString().startsWith("a lowercase");
  }
}
