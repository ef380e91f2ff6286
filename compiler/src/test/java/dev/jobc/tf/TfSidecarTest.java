package dev.jobc.tf;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jobc.ManifestCompiler;
import dev.jobc.diag.Diagnostic;
import dev.jobc.model.Budget;
import dev.jobc.model.CompileResult;
import dev.jobc.model.OutputObject;
import dev.jobc.model.Source;
import dev.jobc.options.CompileOptions;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The deciding sidecar of a TFJob with {@code successPolicy: AllWorkers}, beside every Worker: its
 * arguments give each type's count, not every other replica's name, so that a job of thousands of
 * Workers renders inside the run's output limit (with every name, 1,500 Workers put about 1,500 ×
 * 1,500 names in the output, past the limit).
 */
class TfSidecarTest {
  private static String job(int workers) {
    return "apiVersion: kubeflow.org/v1\nkind: TFJob\nmetadata: {name: big, namespace: ml}\n"
        + "spec:\n  successPolicy: AllWorkers\n  enableDynamicWorker: true\n"
        + "  runPolicy: {backoffLimit: 0}\n  tfReplicaSpecs:\n"
        + "    PS:\n      replicas: 2\n"
        + "      template: {spec: {containers: [{name: tensorflow, image: registry.example/tf:1}]}}\n"
        + "    Worker:\n      replicas: "
        + workers
        + "\n      template: {spec: {containers: [{name: tensorflow, image: registry.example/tf:1}]}}\n";
  }

  private static CompileResult compile(int workers) {
    CompileResult r =
        new ManifestCompiler()
            .compile(List.of(new Source("job.yaml", job(workers))), CompileOptions.defaults());
    assertThat(r.diagnostics()).filteredOn(Diagnostic::isError).isEmpty();
    return r;
  }

  /** The YAML of the Job named {@code name}. */
  private static String object(CompileResult r, String name) {
    return r.objects().stream()
        .filter(o -> o.kind().equals("Job") && o.name().equals(name))
        .map(OutputObject::yaml)
        .findFirst()
        .orElseThrow();
  }

  @Test
  void aTfJobOf1500WorkersRendersInsideTheOutputLimit() {
    CompileResult r = compile(1_500);
    long chars = r.objects().stream().mapToLong(o -> o.yaml().length()).sum();
    assertThat(chars).isLessThanOrEqualTo(Budget.RUN_OUTPUT_CHARS);
    assertThat(object(r, "big-worker-1499"))
        .contains("- --replicas\n")
        .contains("- Worker=1500\n")
        .contains("- PS=2\n")
        .doesNotContain("big-worker-1498");
  }

  /** The sidecar's arguments in a Job's YAML: the list that starts with its command. */
  private static List<String> sidecarArgs(String yaml) {
    List<String> lines = yaml.lines().toList();
    int start =
        lines.indexOf(lines.stream().filter(l -> l.endsWith("- tfjob")).findFirst().orElseThrow());
    String indent = lines.get(start).substring(0, lines.get(start).indexOf('-'));
    List<String> out = new java.util.ArrayList<>();
    for (int i = start; i < lines.size() && lines.get(i).startsWith(indent + "- "); i++) {
      out.add(lines.get(i).substring(indent.length() + 2));
    }
    return out;
  }

  @Test
  void aWorkersSidecarArgumentsDoNotGrowWithTheWorkers() {
    List<String> few = sidecarArgs(object(compile(10), "big-worker-3"));
    List<String> many = sidecarArgs(object(compile(1_000), "big-worker-3"));
    assertThat(few).contains("--self", "Worker:big-worker-3", "Worker=10", "PS=2");
    assertThat(many)
        .as("at 10 and at 1,000 Workers the arguments differ in the Worker count alone")
        .isEqualTo(few.stream().map(a -> a.equals("Worker=10") ? "Worker=1000" : a).toList());
  }
}
