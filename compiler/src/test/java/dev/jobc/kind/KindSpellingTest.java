package dev.jobc.kind;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.jobc.ManifestCompiler;
import dev.jobc.diag.Code;
import dev.jobc.diag.Diagnostic;
import dev.jobc.model.CompileResult;
import dev.jobc.model.Source;
import dev.jobc.options.CompileOptions;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.Test;

/**
 * Near misses of every registered job kind are errors, and other kinds pass through. The kinds come
 * from {@link ManifestCompiler#acceptedKinds()}, so a new kind is covered without a change here;
 * the wording is pinned in the golden cases {@code input-error-kind-*}.
 */
class KindSpellingTest {
  private static final ManifestCompiler COMPILER = new ManifestCompiler();

  /** (apiVersion, kind) of every accepted input. */
  private static List<String[]> accepted() {
    return COMPILER.acceptedKinds().stream().map(s -> s.split(" ")).toList();
  }

  @Test
  void aMisspeltJobKindIsAnErrorAtTheKind() {
    for (String[] accepted : accepted()) {
      String apiVersion = accepted[0];
      String kind = accepted[1];
      List<String> misspellings =
          List.of(
              kind.toLowerCase(Locale.ROOT),
              kind.toUpperCase(Locale.ROOT),
              // MPIJob -> MPIjob, TFJob -> TFjob: the case of the "J".
              kind.replace("Job", "job"),
              kind + "s",
              kind.substring(0, kind.length() - 1));
      for (String misspelt : misspellings) {
        String doc = document(apiVersion, misspelt);
        assertThat(errors(doc)).as(doc).containsExactly(tuple(Code.NOT_SUPPORTED, "kind"));
        assertThat(messages(doc))
            .as(doc)
            .containsExactly(
                "Unsupported value: \"" + misspelt + "\": did you mean \"" + kind + "\"?");
      }
    }
  }

  @Test
  void aJobKindInAMisspeltOrMissingGroupIsAnErrorAtTheApiVersion() {
    for (String[] accepted : accepted()) {
      String apiVersion = accepted[0];
      String kind = accepted[1];
      int slash = apiVersion.indexOf('/');
      String group = apiVersion.substring(0, slash);
      String version = apiVersion.substring(slash + 1);
      String domain = group.substring(0, group.lastIndexOf('.'));
      String otherTld = group.endsWith(".com") ? "org" : "com";
      // kubeflow.com/v1, kubeflow/v1, v1
      for (String wrong :
          List.of(domain + "." + otherTld + "/" + version, domain + "/" + version, version)) {
        String doc = document(wrong, kind);
        assertThat(errors(doc)).as(doc).containsExactly(tuple(Code.NOT_SUPPORTED, "apiVersion"));
        assertThat(messages(doc))
            .as(doc)
            .containsExactly(
                "Unsupported value: \"" + wrong + "\": did you mean \"" + apiVersion + "\"?");
      }
    }
  }

  @Test
  void anUnknownKindOfAJobGroupIsAnError() {
    for (String[] accepted : accepted()) {
      String group = accepted[0].substring(0, accepted[0].indexOf('/'));
      String doc = document(group + "/v1", "Widget");
      assertThat(errors(doc)).as(doc).containsExactly(tuple(Code.NOT_SUPPORTED, "kind"));
    }
  }

  @Test
  void otherKindsPassThrough() {
    List<String> passing = new ArrayList<>();
    passing.add(document("batch/v1", "Job"));
    passing.add(document("v1", "ConfigMap"));
    // Other Kubeflow projects' kinds in kubeflow.org.
    passing.add(document("kubeflow.org/v1", "Notebook"));
    passing.add(document("kubeflow.org/v1", "Profile"));
    passing.add(document("kubeflow.org/v1beta1", "Experiment"));
    passing.add(document("kubeflow.org/v1alpha1", "PodDefault"));
    // Another operator's job kinds of the same names, in its own group (KubeDL).
    for (String[] accepted : accepted()) {
      passing.add(document("training.kubedl.io/v1alpha1", accepted[1]));
    }
    for (String doc : passing) {
      CompileResult result = compile(doc);
      assertThat(result.diagnostics()).as(doc).isEmpty();
      assertThat(result.objects()).as(doc).hasSize(1);
    }
  }

  private static String document(String apiVersion, String kind) {
    return "apiVersion: "
        + apiVersion
        + "\nkind: "
        + kind
        + "\nmetadata:\n  name: x\n  namespace: default\n";
  }

  private static CompileResult compile(String text) {
    return COMPILER.compile(List.of(new Source("in.yaml", text)), CompileOptions.defaults());
  }

  private static List<Tuple> errors(String text) {
    return compile(text).diagnostics().stream()
        .filter(Diagnostic::isError)
        .map(d -> tuple(d.code(), d.path()))
        .toList();
  }

  private static List<String> messages(String text) {
    return compile(text).diagnostics().stream().map(Diagnostic::message).toList();
  }
}
