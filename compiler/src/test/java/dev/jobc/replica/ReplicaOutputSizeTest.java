package dev.jobc.replica;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jobc.ManifestCompiler;
import dev.jobc.diag.Code;
import dev.jobc.diag.Diagnostic;
import dev.jobc.load.YamlLimits;
import dev.jobc.model.Budget;
import dev.jobc.model.CompileResult;
import dev.jobc.model.Source;
import dev.jobc.options.CompileOptions;
import dev.jobc.options.OptionTable;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The family's output estimate against what the jobs render: never below it (the run's output
 * budget is enforced on the estimate alone: a JAXJob of 1,000 workers rendered 65 MB past its 32
 * MiB when each sidecar's arguments named every other worker), and not far above it.
 */
class ReplicaOutputSizeTest {
  private static final String LONG_NAME = "a-job-name-as-long-as-its-services-allow-0123";

  private static String job(String kind, String specs, String name, String ns, String types) {
    return "apiVersion: kubeflow.org/v1\nkind: "
        + kind
        + "\nmetadata: {name: "
        + name
        + ", namespace: "
        + ns
        + "}\nspec:\n  runPolicy: {backoffLimit: 2}\n  "
        + specs
        + ":\n"
        + types;
  }

  private static String type(String type, int replicas, String container) {
    return "    "
        + type
        + ":\n      replicas: "
        + replicas
        + "\n      restartPolicy: OnFailure\n      template: {spec: {containers: [{name: "
        + container
        + ", image: registry.example/train:1}]}}\n";
  }

  private static long rendered(CompileResult r) {
    assertThat(r.diagnostics()).filteredOn(Diagnostic::isError).isEmpty();
    long chars = 0;
    for (var o : r.objects()) {
      chars += o.yaml().length();
    }
    return chars;
  }

  private static void estimateCovers(String yaml, CompileOptions options) {
    List<Source> in = List.of(new Source("job.yaml", yaml));
    long chars = rendered(new ManifestCompiler().compile(in, options));
    CompileResult justBelow =
        new ManifestCompiler(YamlLimits.defaults(), Budget.RUN_NODES, chars - 1)
            .compile(in, options);
    assertThat(justBelow.diagnostics())
        .as("a budget one below the %d characters rendered refuses the job", chars)
        .anySatisfy(
            d -> {
              assertThat(d.code()).isEqualTo(Code.LIMIT);
              assertThat(d.message()).startsWith("this job would render about");
            });
    long generous = chars + chars / 2;
    assertThat(
            rendered(
                new ManifestCompiler(YamlLimits.defaults(), Budget.RUN_NODES, generous)
                    .compile(in, options)))
        .as("the estimate is within half again of what is rendered")
        .isEqualTo(chars);
  }

  @Test
  void theEstimateCoversEveryKindAtEverySize() {
    CompileOptions defaults = CompileOptions.defaults();
    CompileOptions longImage =
        defaults.with(
            OptionTable.SIDECAR_IMAGE,
            "registry.example.com:5000/a/long/path/to/the/jobc-sidecar:0.1.0-with-a-long-tag");
    for (int n : new int[] {1, 7, 120}) {
      for (String name : new String[] {"j", LONG_NAME}) {
        for (CompileOptions options : List.of(defaults, longImage)) {
          estimateCovers(
              job("JAXJob", "jaxReplicaSpecs", name, "ns", type("Worker", n, "jax")), options);
          estimateCovers(
              job("PaddleJob", "paddleReplicaSpecs", name, "ns", type("Worker", n, "paddle")),
              options);
          estimateCovers(
              job(
                  "PyTorchJob",
                  "pytorchReplicaSpecs",
                  name,
                  "a-namespace",
                  type("Master", 1, "pytorch") + type("Worker", n, "pytorch")),
              options);
          estimateCovers(
              job(
                  "XGBoostJob",
                  "xgbReplicaSpecs",
                  name,
                  "ns",
                  type("Master", 1, "xgboost") + type("Worker", n, "xgboost")),
              options);
        }
      }
    }
  }
}
