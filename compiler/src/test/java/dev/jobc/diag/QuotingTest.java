package dev.jobc.diag;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class QuotingTest {
  @Test
  void quotesAsGoQuotesWithEscapesForHiddenCharacters() {
    assertThat(Quoting.quote("plain-name")).isEqualTo("\"plain-name\"");
    assertThat(Quoting.quote("say \"hi\" \\ bye")).isEqualTo("\"say \\\"hi\\\" \\\\ bye\"");
    assertThat(Quoting.quote("a\nb\r\tc\u0007\u0000\u001b\u007f"))
        .isEqualTo("\"a\\nb\\r\\tc\\a\\x00\\x1b\\x7f\"");
    assertThat(Quoting.quote("\u0085\u2028\u2029\u202e\u200b\ufeff"))
        .isEqualTo("\"\\u0085\\u2028\\u2029\\u202e\\u200b\\ufeff\"");
    // Printable non-ASCII text and surrogate pairs stay as they are; lone surrogates do not.
    assertThat(Quoting.quote("día 😀")).isEqualTo("\"día 😀\"");
    assertThat(Quoting.quote("x\ud800y\udc00")).isEqualTo("\"x\\ud800y\\udc00\"");
  }

  @Test
  void oneLineEscapesOnlyHiddenCharacters() {
    assertThat(Quoting.oneLine("name: \"x\" \\ y")).isEqualTo("name: \"x\" \\ y");
    assertThat(Quoting.oneLine("a\n/etc/passwd:1:1: error: b"))
        .isEqualTo("a\\n/etc/passwd:1:1: error: b")
        .doesNotContain("\n");
    String quoted = Quoting.quote("a\nb");
    assertThat(Quoting.oneLine(quoted)).isEqualTo(quoted);
  }

  @Test
  void fileNamesAreQuotedOnlyWhenTheyCouldBeMisread() {
    assertThat(Quoting.fileName("jobs/pi.yaml")).isEqualTo("jobs/pi.yaml");
    assertThat(Quoting.fileName("<stdin>")).isEqualTo("<stdin>");
    assertThat(Quoting.fileName("items[3]")).isEqualTo("items[3]");
    assertThat(Quoting.fileName("C:\\jobs\\pi.yaml")).isEqualTo("C:\\jobs\\pi.yaml");
    assertThat(Quoting.fileName("a\n/etc/passwd")).isEqualTo("\"a\\n/etc/passwd\"");
    assertThat(Quoting.fileName("x.yaml:1:1: error: y")).isEqualTo("\"x.yaml:1:1: error: y\"");
    assertThat(Quoting.fileName("say\"hi.yaml")).isEqualTo("\"say\\\"hi.yaml\"");
  }
}
