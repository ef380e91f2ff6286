package dev.jobc.diag;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class DiagnosticTest {
  private static Diagnostic error(String file, String path, String message) {
    return new Diagnostic(Severity.ERROR, Code.INVALID, file, 3, 5, path, message);
  }

  @Test
  void formatsAsCompilersDo() {
    assertThat(error("jobs/pi.yaml", "spec.slotsPerWorker", "Invalid value: 0: must be 1").format())
        .isEqualTo("jobs/pi.yaml:3:5: error: spec.slotsPerWorker: Invalid value: 0: must be 1");
    assertThat(new Diagnostic(Severity.WARNING, Code.NOTE, "<stdin>", -1, -1, "", "x").format())
        .isEqualTo("<stdin>: warning: x");
  }

  @Test
  void noFileNamePathOrMessageCanBreakTheLineOrForgeAnotherDiagnostic() {
    String forged = "\n/etc/passwd:1:1: error: forged";
    Diagnostic d =
        error(
            "jobs/pi.yaml" + forged,
            "metadata.annotations[a" + forged + "]",
            "Invalid value: x" + forged + "\r\u2028\u0085");
    assertThat(d.format())
        .hasLineCount(1)
        .doesNotContain("\n", "\r", "\u2028", "\u0085")
        .startsWith("\"jobs/pi.yaml\\n/etc/passwd:1:1: error: forged\":3:5: error: ")
        .contains("metadata.annotations[a\\n/etc/passwd:1:1: error: forged]: ")
        .endsWith("Invalid value: x\\n/etc/passwd:1:1: error: forged\\r\\u2028\\u0085");
  }
}
