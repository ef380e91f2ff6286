package dev.jobc.render;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link YamlWriter#provablyPlain}, the writer's one-pass shortcut, only ever says "plain" where
 * the full rules ({@link YamlWriter#plainFitsByRules}) say so too: a wrong shortcut would change
 * the output, so it is checked against the rules over many strings made of the characters and words
 * that matter to YAML.
 */
class YamlWriterFastPathTest {

  /** Characters that decide quoting, and ones that do not. */
  private static final String ALPHABET = "aeZTy0189-_./:=@+, #~!&*?|>'\"%`{}[]\t\u00e9";

  /** Words and fragments with a meaning to some YAML reader. */
  private static final List<String> WORDS =
      List.of(
          "null",
          "Null",
          "NULL",
          "nULL",
          "~",
          "true",
          "True",
          "TRUE",
          "false",
          "False",
          "FALSE",
          "y",
          "Y",
          "yes",
          "Yes",
          "YES",
          "n",
          "N",
          "no",
          "No",
          "NO",
          "on",
          "On",
          "ON",
          "off",
          "Off",
          "OFF",
          "<<",
          "=",
          ".inf",
          "-.Inf",
          ".nan",
          "0x1F",
          "0o17",
          "0b1",
          "017",
          "1_000",
          "1e3",
          "1:20",
          "1:20.5",
          "2001-12-14T",
          "2001-1-1 ",
          "1Gi",
          "500m",
          "2001-12-14",
          "...",
          "---",
          "- ",
          ": ",
          " #",
          "mpi-worker",
          "/home");

  private static void assertProofHolds(String s) {
    if (YamlWriter.provablyPlain(s)) {
      assertThat(YamlWriter.plainFitsByRules(s)).as("<%s> proven plain", s).isTrue();
    }
    assertThat(YamlWriter.plainFits(s)).as("<%s>", s).isEqualTo(YamlWriter.plainFitsByRules(s));
  }

  @Test
  void everyShortStringOverTheAlphabetAgreesWithTheRules() {
    int proven = 0;
    List<String> strings = new ArrayList<>();
    strings.addAll(WORDS);
    for (char a : ALPHABET.toCharArray()) {
      strings.add("" + a);
      for (char b : ALPHABET.toCharArray()) {
        strings.add("" + a + b);
        for (char c : ALPHABET.toCharArray()) {
          strings.add("" + a + b + c);
        }
      }
    }
    for (String s : strings) {
      assertProofHolds(s);
      proven += YamlWriter.provablyPlain(s) ? 1 : 0;
    }
    // The comparison means something only if the shortcut decides many of them.
    assertThat(proven).isGreaterThan(1000);
  }

  @Test
  void randomStringsOfWordsAndCharactersAgreeWithTheRules() {
    Random random = new Random(14);
    int proven = 0;
    for (int n = 0; n < 200_000; n++) {
      StringBuilder s = new StringBuilder();
      int parts = 1 + random.nextInt(6);
      for (int p = 0; p < parts; p++) {
        if (random.nextInt(3) == 0) {
          s.append(WORDS.get(random.nextInt(WORDS.size())));
        } else {
          s.append(ALPHABET.charAt(random.nextInt(ALPHABET.length())));
        }
      }
      assertProofHolds(s.toString());
      proven += YamlWriter.provablyPlain(s.toString()) ? 1 : 0;
    }
    assertThat(proven).isGreaterThan(5000);
  }

  /**
   * Long strings (past the rules' switch to a character check, up to the longest the shortcut
   * takes): number characters, with or without one character outside them, after each start.
   */
  @Test
  void longStringsAgreeWithTheRules() {
    Random random = new Random(1014);
    String numberChars = "0123456789_:.+-eEoOxXabcdefABCDEF";
    int proven = 0;
    for (int n = 0; n < 20_000; n++) {
      int length = 250 + random.nextInt(760);
      StringBuilder s = new StringBuilder(length);
      s.append("-+1a/_".charAt(random.nextInt(6)));
      while (s.length() < length) {
        s.append(numberChars.charAt(random.nextInt(numberChars.length())));
      }
      if (random.nextBoolean()) {
        s.setCharAt(1 + random.nextInt(length - 2), "g =Z".charAt(random.nextInt(4)));
      }
      assertProofHolds(s.toString());
      proven += YamlWriter.provablyPlain(s.toString()) ? 1 : 0;
    }
    assertThat(proven).isGreaterThan(2000);
  }

  @ParameterizedTest(name = "[{index}] <{0}>")
  @ValueSource(
      strings = {
        "mpi-worker",
        "mpioperator/mpi-pi:openmpi",
        "/home/mpiuser/.sshd_config",
        "kubeflow.org/v2beta1",
        "OMPI_MCA_orte_keep_fqdn_hostnames",
        "1Gi",
        "500m",
        "-De",
        "--bind-to",
        "+x",
        "pi-worker-0.pi.default.svc slots=2",
        "Running"
      })
  void commonStringsTakeTheShortcut(String s) {
    assertThat(YamlWriter.provablyPlain(s)).isTrue();
    assertThat(YamlWriter.plainFitsByRules(s)).isTrue();
  }

  @ParameterizedTest(name = "[{index}] <{0}>")
  @ValueSource(
      strings = {
        "null",
        "True",
        "FALSE",
        "yes",
        "N",
        "On",
        "off",
        "a:",
        "a: b",
        "a ",
        "-",
        "--",
        "---x",
        "-_x",
        "-1x",
        "+.inf",
        "1e3",
        "0x1F",
        "1_000",
        "1:20",
        "2001-12-14",
        "2001-12-14T1",
        "2001-1-1 x",
        "2001-12-14x"
      })
  void wordsAndShapesTheShortcutCannotProveGoToTheRules(String s) {
    assertThat(YamlWriter.provablyPlain(s)).isFalse();
  }

  /** Canonical key order as documented: the Kubernetes leading keys, then the rest sorted. */
  @Test
  void canonicalKeyOrderRanksTheLeadingKeys() {
    List<String> keys =
        new ArrayList<>(
            List.of(
                "spec",
                "annotations",
                "labels",
                "namespace",
                "generateName",
                "name",
                "metadata",
                "kind",
                "apiVersion",
                "Zeta",
                "alpha"));
    keys.sort(YamlWriter::compareKeys);
    assertThat(keys)
        .containsExactly(
            "apiVersion",
            "kind",
            "metadata",
            "name",
            "generateName",
            "namespace",
            "labels",
            "annotations",
            "Zeta",
            "alpha",
            "spec");
  }
}
