package dev.jobc.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jobc.model.Budget;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A JAXJob and a workers-only PaddleJob, whose every worker carries the deciding sidecar, at 1,500
 * workers through {@code render}, {@code krm} and {@code argocd}, each run as a process: rendered
 * inside the run's output limit, and growing linearly with the workers. When each sidecar's
 * arguments named every other worker, 1,500 workers ended in exit 3 and 1,000 rendered 65 MB past
 * the 32 MiB limit, which the estimate did not see.
 */
class ThousandsOfReplicasIT {
  @TempDir Path tmp;

  private static String jax(int workers) {
    return "apiVersion: kubeflow.org/v1\nkind: JAXJob\nmetadata: {name: big, namespace: ml}\n"
        + "spec:\n  runPolicy: {backoffLimit: 0}\n  jaxReplicaSpecs:\n    Worker:\n"
        + "      replicas: "
        + workers
        + "\n      template: {spec: {containers: [{name: jax, image: registry.example/jax:1}]}}\n";
  }

  private static String paddle(int workers) {
    return "apiVersion: kubeflow.org/v1\nkind: PaddleJob\nmetadata: {name: big, namespace: ml}\n"
        + "spec:\n  runPolicy: {backoffLimit: 0}\n  paddleReplicaSpecs:\n    Worker:\n"
        + "      replicas: "
        + workers
        + "\n      template: {spec: {containers: [{name: paddle, image: registry.example/p:1}]}}\n";
  }

  private ExternalCommand jobc(Path dir, Map<String, String> env, String stdin, String... args) {
    Map<String, String> all = new HashMap<>(env);
    all.put("PATH", ExternalCommand.pathWithBin());
    all.put("TMPDIR", tmp.toString());
    return ExternalCommand.run(dir, all, stdin, List.of(args));
  }

  private long render(String job) throws IOException {
    Path input = Files.writeString(tmp.resolve("job.yaml"), job);
    ExternalCommand run = jobc(tmp, Map.of(), "", "jobc", "render", input.toString());
    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat((long) run.out().length()).isLessThanOrEqualTo(Budget.RUN_OUTPUT_CHARS);
    return run.out().length();
  }

  private void everyChannel(String job, String kind) throws IOException {
    render(job);

    Path app = Files.createDirectories(tmp.resolve("app-" + kind));
    Files.writeString(app.resolve("job.yaml"), job);
    ExternalCommand argocd = jobc(app, Map.of("ARGOCD_APP_NAMESPACE", "ml"), "", "jobc", "argocd");
    assertThat(argocd.exitCode()).as(argocd.err()).isZero();
    assertThat((long) argocd.out().length()).isLessThanOrEqualTo(Budget.RUN_OUTPUT_CHARS);
    assertThat(argocd.out()).contains("name: big-worker-1499\n");

    ObjectMapper json = new ObjectMapper();
    ObjectNode list = json.createObjectNode();
    list.put("apiVersion", "config.kubernetes.io/v1");
    list.put("kind", "ResourceList");
    list.putArray("items").add(YamlStream.parse(job).get(0));
    ExternalCommand krm = jobc(tmp, Map.of(), list.toString(), "jobc-krm");
    assertThat(krm.exitCode()).as(krm.err()).isZero();
    assertThat((long) krm.out().length()).isLessThanOrEqualTo(Budget.RUN_OUTPUT_CHARS);
    assertThat(krm.out()).contains("big-worker-1499");
  }

  @Test
  void aJaxJobOf1500WorkersRendersThroughEveryChannel() throws IOException {
    everyChannel(jax(1_500), "jax");
  }

  @Test
  void aPaddleJobOf1500WorkersRendersThroughEveryChannel() throws IOException {
    everyChannel(paddle(1_500), "paddle");
  }

  /** Each 500 more workers add the same bytes, within 1% (names grow by a digit, no more). */
  @Test
  void renderedBytesGrowLinearlyWithTheWorkers() throws IOException {
    long jax500 = render(jax(500));
    long jax1000 = render(jax(1_000));
    long jax1500 = render(jax(1_500));
    assertThat((double) (jax1500 - jax1000)).isCloseTo(jax1000 - jax500, withinPercent());
    long paddle500 = render(paddle(500));
    long paddle1000 = render(paddle(1_000));
    long paddle1500 = render(paddle(1_500));
    assertThat((double) (paddle1500 - paddle1000))
        .isCloseTo(paddle1000 - paddle500, withinPercent());
  }

  private static org.assertj.core.data.Percentage withinPercent() {
    return org.assertj.core.data.Percentage.withPercentage(1);
  }
}
