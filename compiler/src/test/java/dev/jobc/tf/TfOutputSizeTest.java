package dev.jobc.tf;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.jobc.bind.ObjectTrees;
import dev.jobc.options.CompileOptions;
import dev.jobc.options.OptionTable;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The arithmetic size of TF_CONFIG against the planner's TF_CONFIG itself. */
class TfOutputSizeTest {
  private static TfJobModel model(
      String name, String ns, String replicaSpecs, boolean dynamic, String domain) {
    String yaml =
        "apiVersion: kubeflow.org/v1\nkind: TFJob\nmetadata:\n  name: "
            + name
            + "\n  namespace: "
            + ns
            + "\nspec:\n"
            + (dynamic ? "  enableDynamicWorker: true\n" : "")
            + "  tfReplicaSpecs:\n"
            + replicaSpecs;
    try {
      TfJob job = ObjectTrees.bind(new YAMLMapper().readTree(yaml), TfJob.class);
      CompileOptions options =
          domain == null
              ? CompileOptions.defaults()
              : CompileOptions.defaults().with(OptionTable.CLUSTER_DOMAIN, domain);
      return TfJobDefaults.apply(job, options);
    } catch (java.io.IOException e) {
      throw new IllegalStateException(e);
    }
  }

  private static String type(String type, int replicas, Integer port) {
    return "    "
        + type
        + ":\n      replicas: "
        + replicas
        + "\n      template:\n        spec:\n          containers:\n"
        + "          - name: tensorflow\n            image: i\n"
        + (port == null
            ? ""
            : "            ports:\n            - name: tfjob-port\n              containerPort: "
                + port
                + "\n");
  }

  @Test
  void theLongestTfConfigIsWorkedOutExactlyForTheDenseFormAndAtLeastForTheSparse() {
    Random random = new Random(22);
    String[] types = {"Chief", "Evaluator", "Master", "PS", "Worker"};
    for (int n = 0; n < 60; n++) {
      StringBuilder specs = new StringBuilder();
      for (String t : types) {
        if (random.nextBoolean()) {
          int count = t.equals("Chief") || t.equals("Master") ? 1 : random.nextInt(130);
          specs.append(type(t, count, random.nextBoolean() ? null : 1 + random.nextInt(65535)));
        }
      }
      if (specs.length() == 0) {
        specs.append(type("Worker", 3, null));
      }
      boolean dynamic = random.nextInt(4) == 0;
      String domain = random.nextBoolean() ? null : "cluster.example";
      TfJobModel job =
          model("job" + random.nextInt(100), "ns-" + n, specs.toString(), dynamic, domain);
      if (TfJobValidator.validate(job).stream().anyMatch(f -> f.isError())) {
        continue;
      }
      long longest =
          TfJobPlanner.plan(job).replicas().stream()
              .mapToLong(r -> r.tfConfig() == null ? 0 : r.tfConfig().length())
              .max()
              .orElse(0);
      long computed = TfOutputSize.longestTfConfig(job);
      if (dynamic) {
        assertThat(computed).as(specs.toString()).isBetween(longest, longest + 64);
      } else {
        assertThat(computed).as(specs.toString()).isEqualTo(longest);
      }
    }
  }

  @Test
  void sumOfDigits() {
    long total = 0;
    for (int i = 0; i < 12_345; i++) {
      assertThat(TfOutputSize.sumOfDigits(i)).isEqualTo(total);
      total += Integer.toString(i).length();
    }
  }
}
