package dev.jobc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jobc.diag.Code;
import dev.jobc.diag.Diagnostic;
import dev.jobc.load.YamlLimits;
import dev.jobc.model.CompileResult;
import dev.jobc.model.Source;
import dev.jobc.options.CompileOptions;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The run's budgets, shared by its sources and jobs: where a budget runs out, and what is read or
 * written after it, does not depend on which thread got there first.
 */
class BudgetTest {
  private static final YamlLimits LIMITS = new YamlLimits(1_000_000, 100, 10_000, 100, 1_000, 100);

  /** A pass-through ConfigMap of {@code items} list items (about items + 6 nodes). */
  private static Source configMap(String name, int items) {
    StringBuilder text =
        new StringBuilder("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: " + name + "\n");
    text.append("data:\n  a: [");
    for (int i = 0; i < items; i++) {
      text.append(i == 0 ? "" : ",").append('x');
    }
    return new Source(name + ".yaml", text.append("]\n").toString());
  }

  @Test
  void theSourcesOfARunShareItsNodesAndWhatComesAfterTheOneThatRunsOutIsNotRead() {
    ManifestCompiler compiler = new ManifestCompiler(LIMITS, 5_000, Long.MAX_VALUE);
    List<Source> sources = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      sources.add(configMap("c" + i, 990)); // about 1,000 nodes each: the sixth passes 5,000
    }
    List<String> first = null;
    for (int run = 0; run < 20; run++) {
      CompileResult r = compiler.compile(sources, CompileOptions.defaults());
      List<String> shown = r.diagnostics().stream().map(Diagnostic::format).toList();
      assertThat(r.objects()).isEmpty();
      assertThat(r.diagnostics())
          .singleElement()
          .satisfies(
              d -> {
                assertThat(d.code()).isEqualTo(Code.LIMIT);
                assertThat(d.file()).isEqualTo("c5.yaml");
                // The run's limit, not what the sources before this one left of it.
                assertThat(d.message())
                    .isEqualTo(
                        "the inputs hold more than 5000 YAML nodes together (aliases expanded),"
                            + " the limit for one run; render fewer files at a time");
              });
      if (first == null) {
        first = shown;
      }
      assertThat(shown).isEqualTo(first);
    }
    // Under the budget, the same sources render.
    assertThat(
            new ManifestCompiler(LIMITS, 10_000, Long.MAX_VALUE)
                .compile(sources, CompileOptions.defaults())
                .objects())
        .hasSize(8);
  }

  @Test
  void aSourcePastItsOwnNodeLimitStopsThere() {
    CompileResult r =
        new ManifestCompiler(LIMITS, Long.MAX_VALUE, Long.MAX_VALUE)
            .compile(List.of(configMap("big", 20_000)), CompileOptions.defaults());
    assertThat(r.diagnostics())
        .extracting(Diagnostic::code, Diagnostic::message)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(
                Code.LIMIT,
                "more than 10000 YAML nodes in one source (aliases expanded); split it into"
                    + " smaller files"));
  }

  @Test
  void writtenObjectsShareTheRunsOutputBudget() {
    // Each document is small as YAML text but, nested, longer written out.
    List<Source> sources = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      sources.add(configMap("c" + i, 500)); // about 2,600 characters written out each
    }
    CompileResult r =
        new ManifestCompiler(LIMITS, Long.MAX_VALUE, 10_000)
            .compile(sources, CompileOptions.defaults());
    assertThat(r.objects()).isEmpty();
    assertThat(r.diagnostics())
        .singleElement()
        .satisfies(
            d -> {
              assertThat(d.code()).isEqualTo(Code.LIMIT);
              assertThat(d.file()).isEqualTo("c3.yaml");
              assertThat(d.message()).contains("the limit for one run");
            });
  }

  @Test
  void jobsAreRefusedFromTheirEstimateBeforeAnyIsBuilt() {
    String job =
        "apiVersion: kubeflow.org/v2beta1\nkind: MPIJob\nmetadata:\n  name: j%d\n  namespace: d\n"
            + "spec:\n  mpiReplicaSpecs:\n    Launcher:\n      replicas: 1\n      template:\n"
            + "        spec:\n          containers:\n          - name: l\n            image: i\n"
            + "    Worker:\n      replicas: 2\n      template:\n        spec:\n"
            + "          containers:\n          - name: w\n            image: i\n";
    List<Source> sources = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      sources.add(new Source("j" + i + ".yaml", job.formatted(i)));
    }
    CompileResult r =
        new ManifestCompiler(LIMITS, Long.MAX_VALUE, 60_000)
            .compile(sources, CompileOptions.defaults());
    assertThat(r.objects()).isEmpty();
    assertThat(r.diagnostics())
        .singleElement()
        .satisfies(
            d -> {
              assertThat(d.code()).isEqualTo(Code.LIMIT);
              assertThat(d.path()).isEqualTo("spec.mpiReplicaSpecs[Worker].replicas");
              assertThat(d.message()).contains("the jobs up to this one would render about");
            });
  }
}
