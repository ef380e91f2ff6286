package dev.jobc;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jobc.diag.FieldPath;
import dev.jobc.options.CompileOptions;
import org.junit.jupiter.api.Test;

class FluxSubstitutionTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void anOddRunOfDollarsBeforeABraceSubstitutesAnEvenOneIsEscaped() {
    assertThat(FluxSubstitution.substitutes("mpirun -n ${WORKERS}")).isTrue();
    assertThat(FluxSubstitution.substitutes("echo $${HOME}")).isFalse();
    assertThat(FluxSubstitution.substitutes("echo $$${HOME}")).isTrue();
    assertThat(FluxSubstitution.substitutes("echo $$$${HOME}")).isFalse();
    assertThat(FluxSubstitution.substitutes("$${A} then ${B}")).isTrue();
    assertThat(FluxSubstitution.substitutes("echo $HOME {} $ {x}")).isFalse();
  }

  @Test
  void objectsOptOutWithFluxsLabelOrAnnotation() throws Exception {
    String key = CompileOptions.FLUX_SUBSTITUTE_ANNOTATION;
    ObjectNode annotated = JSON.createObjectNode();
    annotated.putObject("metadata").putObject("annotations").put(key, "disabled");
    ObjectNode labelled = JSON.createObjectNode();
    labelled.putObject("metadata").putObject("labels").put(key, "disabled");
    ObjectNode other = JSON.createObjectNode();
    other.putObject("metadata").putObject("annotations").put(key, "enabled");
    assertThat(FluxSubstitution.disabled(annotated)).isTrue();
    assertThat(FluxSubstitution.disabled(labelled)).isTrue();
    assertThat(FluxSubstitution.disabled(other)).isFalse();
    assertThat(FluxSubstitution.disabled(JSON.createObjectNode())).isFalse();
  }

  @Test
  void fieldsAreTheValuesAndKeysThatWouldChange() throws Exception {
    ObjectNode o =
        (ObjectNode)
            JSON.readTree(
                "{\"data\": {\"a\": \"${X}\", \"b\": \"$${Y}\", \"${K}\": \"v\"},"
                    + " \"args\": [\"ok\", \"${Z}\"]}");
    assertThat(FluxSubstitution.fields(o))
        .extracting(FieldPath::toString)
        .containsExactly("data[a]", "data[${K}]", "args[1]");
  }

  /**
   * The shortcut (find "${" first) decides as the plain scan does: every string of up to seven
   * characters over '$', '{', '}' and 'a'.
   */
  @Test
  void theShortcutDecidesAsTheFullScan() {
    char[] alphabet = {'$', '{', '}', 'a'};
    int checked = 0;
    for (int length = 0; length <= 7; length++) {
      int count = 1 << (2 * length);
      for (int n = 0; n < count; n++) {
        StringBuilder text = new StringBuilder();
        for (int i = 0, rest = n; i < length; i++, rest >>= 2) {
          text.append(alphabet[rest & 3]);
        }
        String s = text.toString();
        assertThat(FluxSubstitution.substitutes(s)).as(s).isEqualTo(fullScan(s));
        checked++;
      }
    }
    assertThat(checked).isEqualTo(21845);
  }

  /** A '{' after an odd run of '$' (an even run is Flux's escape). */
  private static boolean fullScan(String text) {
    int dollars = 0;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '{' && dollars % 2 == 1) {
        return true;
      }
      dollars = c == '$' ? dollars + 1 : 0;
    }
    return false;
  }
}
