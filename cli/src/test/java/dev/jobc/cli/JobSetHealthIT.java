package dev.jobc.cli;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The JobSet health checks jobc ships, over JobSet status samples as kubernetes-sigs/jobset v0.12.0
 * writes them (test resources {@code jobset-status/}): deploy/argocd's Lua run by the real Lua 5.1
 * the way Argo CD runs a script from argocd-cm ({@code argocd-health.lua}), and the docs' Flux
 * {@code healthCheckExprs} evaluated as kustomize-controller does ({@link FluxHealthExprs}).
 */
class JobSetHealthIT {
  private static final Path LUA = ExternalCommand.root().resolve("deploy/argocd/jobset-health.lua");

  @TempDir static Path tmp;
  private static Path harness;

  @BeforeAll
  static void harness() throws IOException {
    ExternalCommand.require("lua5.1");
    harness = tmp.resolve("argocd-health.lua");
    Files.writeString(harness, resource("argocd-health.lua"));
  }

  /** Each sample: Argo CD's health status and message, and kstatus's status in Flux. */
  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          no-status             | Progressing | Waiting for the JobSet controller
          running               | Progressing | Jobs ready: worker 1/1, launcher 1/1
          suspended             | Suspended   | jobset is suspended
          completed             | Healthy     | jobset completed successfully
          failed                | Degraded    | jobset failed due to one or more job failures \
          (first failed job: pi-launcher-0)
          restarting            | Progressing | Restarting (restarts: 1): applying RestartJobSet \
          failure policy action (first failed job: pi-worker-0)
          restarted             | Progressing | Jobs ready: worker 1/1, launcher 1/1 (restarts: 2)
          failed-after-restarts | Degraded    | jobset failed due to reaching max number of \
          restarts (first failed job: pi-worker-0)
          """)
  void argoCdHealth(String sample, String status, String message) throws IOException {
    ExternalCommand run = argoCd(LUA, sample(sample));
    assertThat(run.exitCode()).as(run.toString()).isZero();
    assertThat(run.out()).isEqualTo(status + "\n" + message + "\n");
  }

  /**
   * The harness holds a script to what Argo CD gives it: no string library or string methods, a
   * table to return, one of Argo CD's health codes (else Unknown), a string message.
   */
  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '`',
      textBlock =
          """
          return {status = string.format("%s", "Healthy")}              | 1 | attempt to index global 'string'
          return {status = ("Healthy"):lower()}                          | 1 | attempt to index a string value
          return "Healthy"                                               | 1 | expect table output from Lua script, not string
          return {status = "Healthy", message = 1}                       | 1 | message is a number, not a string
          return {status = obj.status.nothing.here}                      | 1 | attempt to index field 'nothing'
          return {status = "Fine"}                                       | 0 | Unknown
          return {status = "Healthy", message = obj.metadata.name .. ""} | 0 | Healthy
          """)
  void harnessRunsAScriptAsArgoCdDoes(String script, int exit, String expected) throws IOException {
    Path file = tmp.resolve("script.lua");
    Files.writeString(file, script + "\n");
    ExternalCommand run = argoCd(file, sample("running"));
    assertThat(run.exitCode()).as(run.toString()).isEqualTo(exit);
    assertThat(exit == 0 ? run.out() : run.err()).as(run.toString()).contains(expected);
  }

  /**
   * deploy/argocd's health check of Jobs: Argo CD's own (gitops-engine {@code
   * pkg/health/health_job.go}), except that a Job the sidecar suspended to end a replica is
   * Healthy. With the built-in check, a TFJob whose chief succeeded and whose other replicas the
   * sidecar ended left the Application Suspended for ever.
   */
  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          running            | {}                                                                    | | Progressing |
          complete           | {"conditions":[{"type":"Complete","status":"True","message":"done"}]} | | Healthy     | done
          failed             | {"conditions":[{"type":"Failed","status":"True","message":"BackoffLimitExceeded"}]} | | Degraded | BackoffLimitExceeded
          suspended in Git   | {"conditions":[{"type":"Suspended","status":"True","message":"Job suspended"}]} | | Suspended | Job suspended
          ended by a replica | {"conditions":[{"type":"Suspended","status":"True","message":"Job suspended"}]} | dist-chief-0 | Healthy | ended by jobc-sidecar for dist-chief-0
          resumed            | {"conditions":[{"type":"Suspended","status":"False","message":"Job resumed"}]} | | Healthy | Job resumed
          """)
  void argoCdJobHealth(String name, String status, String stoppedBy, String health, String message)
      throws IOException {
    String annotations =
        stoppedBy == null ? "" : ",\"annotations\":{\"jobc.dev/stopped-by\":\"" + stoppedBy + "\"}";
    JsonNode job =
        YamlStream.parse(
                "{\"apiVersion\":\"batch/v1\",\"kind\":\"Job\",\"metadata\":{\"name\":\"dist-worker-0\""
                    + annotations
                    + "},\"status\":"
                    + status
                    + "}")
            .get(0);
    ExternalCommand run =
        argoCd(ExternalCommand.root().resolve("deploy/argocd/job-health.lua"), job);
    assertThat(run.exitCode()).as(run.toString()).isZero();
    assertThat(run.out()).isEqualTo(health + "\n" + (message == null ? "" : message) + "\n");
  }

  /** The Flux recipe of docs/jobset.md on the same samples. */
  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          no-status             | Unknown
          running               | InProgress
          suspended             | InProgress
          completed             | Current
          failed                | Failed
          restarting            | InProgress
          restarted             | InProgress
          failed-after-restarts | Failed
          """)
  void fluxHealthCheckExprs(String sample, String status) {
    assertThat(fluxExprs().evaluate(sample(sample)).status()).isEqualTo(status);
  }

  @Test
  void fluxNamesTheSamplesKindAndEveryExpressionParses() {
    JsonNode kustomization = YamlStream.parse(DocSnippets.get("flux-jobset-health")).get(0);
    assertThat(kustomization.path("kind").asText()).isEqualTo("Kustomization");
    assertThat(kustomization.path("spec").path("wait").asBoolean()).isTrue();
    JsonNode jobSet = sample("running");
    FluxHealthExprs exprs = fluxExprs();
    assertThat(exprs.apiVersion()).isEqualTo(jobSet.path("apiVersion").asText());
    assertThat(exprs.kind()).isEqualTo(jobSet.path("kind").asText());
  }

  /** Without status yet, every expression fails to evaluate: Flux reads the object again. */
  @Test
  void fluxCannotEvaluateBeforeTheFirstStatus() {
    FluxHealthExprs.Result result = fluxExprs().evaluate(sample("no-status"));
    assertThat(result.status()).isEqualTo("Unknown");
    assertThat(result.error()).isNotBlank();
  }

  /**
   * The docs' kubectl commands: the real kubectl accepts every one (it checks its arguments, {@code
   * --for} included, before it calls the API server, here at a closed port), and each condition
   * they wait for is one the samples of a finished JobSet hold True.
   */
  @Test
  void kubectlCommandsOfTheDocs() throws IOException {
    ExternalCommand.require("kubectl");
    int port;
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = socket.getLocalPort();
    }
    Path kubeconfig = tmp.resolve("kubeconfig");
    Files.writeString(
        kubeconfig,
        """
        apiVersion: v1
        kind: Config
        clusters:
        - name: closed
          cluster:
            server: http://127.0.0.1:%d
        contexts:
        - name: closed
          context:
            cluster: closed
        current-context: closed
        """
            .formatted(port));
    Set<String> finished = new TreeSet<>();
    for (String sample : List.of("completed", "failed")) {
      for (JsonNode c : sample(sample).path("status").path("conditions")) {
        if (c.path("status").asText().equals("True")) {
          finished.add(c.path("type").asText());
        }
      }
    }
    List<String> waitedFor = new ArrayList<>();
    int kubectl = 0;
    for (String snippet : List.of("jobset-kubectl-wait", "jobset-kubectl-wait-either")) {
      for (List<String> command : ShellWords.commands(DocSnippets.get(snippet))) {
        if (!command.get(0).equals("kubectl")) {
          continue;
        }
        kubectl++;
        ExternalCommand run =
            ExternalCommand.run(tmp, Map.of("KUBECONFIG", kubeconfig.toString()), "", command);
        assertThat(run.err()).as(command + "\n" + run).contains("refused").doesNotContain("error:");
        command.stream()
            .filter(w -> w.startsWith("--for=condition="))
            .forEach(w -> waitedFor.add(w.substring("--for=condition=".length())));
      }
    }
    assertThat(kubectl).isEqualTo(4);
    assertThat(finished).containsExactly("Completed", "Failed");
    assertThat(waitedFor).containsExactlyInAnyOrderElementsOf(finished);
  }

  private static FluxHealthExprs fluxExprs() {
    JsonNode kustomization = YamlStream.parse(DocSnippets.get("flux-jobset-health")).get(0);
    List<FluxHealthExprs> found = new ArrayList<>();
    for (JsonNode e : kustomization.path("spec").path("healthCheckExprs")) {
      if (e.path("kind").asText().equals("JobSet")) {
        found.add(FluxHealthExprs.of(e));
      }
    }
    assertThat(found).as("healthCheckExprs for kind JobSet").hasSize(1);
    return found.get(0);
  }

  private static ExternalCommand argoCd(Path script, JsonNode object) throws IOException {
    Path objectFile = tmp.resolve("object.lua");
    Files.writeString(objectFile, "return " + luaLiteral(object) + "\n");
    return ExternalCommand.run(
        tmp,
        Map.of(),
        "",
        List.of("lua5.1", harness.toString(), script.toString(), objectFile.toString()));
  }

  private static JsonNode sample(String name) {
    List<JsonNode> docs = YamlStream.parse(resource("jobset-status/" + name + ".yaml"));
    assertThat(docs).hasSize(1);
    return docs.get(0);
  }

  private static String resource(String name) {
    try (InputStream in = JobSetHealthIT.class.getResourceAsStream(name)) {
      if (in == null) {
        throw new AssertionError("no test resource " + name);
      }
      return new String(in.readAllBytes(), UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * The value as Argo CD's decodeValue gives it to Lua: objects and arrays as tables (arrays from
   * index 1), numbers as numbers, a null field absent.
   */
  static String luaLiteral(JsonNode node) {
    StringBuilder out = new StringBuilder();
    if (node.isObject()) {
      out.append('{');
      for (Map.Entry<String, JsonNode> field : node.properties()) {
        if (!field.getValue().isNull()) {
          out.append('[').append(luaString(field.getKey())).append("]=");
          out.append(luaLiteral(field.getValue())).append(',');
        }
      }
      return out.append('}').toString();
    }
    if (node.isArray()) {
      out.append('{');
      for (JsonNode item : node) {
        if (item.isNull()) {
          throw new AssertionError("a null in a list: a Lua table would end there");
        }
        out.append(luaLiteral(item)).append(',');
      }
      return out.append('}').toString();
    }
    if (node.isTextual()) {
      return luaString(node.asText());
    }
    if (node.isIntegralNumber()) {
      return node.bigIntegerValue().toString();
    }
    if (node.isNumber()) {
      return Double.toString(node.doubleValue());
    }
    if (node.isBoolean()) {
      return Boolean.toString(node.booleanValue());
    }
    throw new AssertionError("no Lua value for " + node.getNodeType());
  }

  /** A Lua string literal of the text's UTF-8 bytes: printable ASCII as is, others {@code \ddd}. */
  private static String luaString(String text) {
    StringBuilder out = new StringBuilder("\"");
    for (byte b : text.getBytes(UTF_8)) {
      int c = b & 0xff;
      if (c == '"' || c == '\\') {
        out.append('\\').append((char) c);
      } else if (c >= 0x20 && c < 0x7f) {
        out.append((char) c);
      } else {
        out.append(String.format("\\%03d", c));
      }
    }
    return out.append('"').toString();
  }
}
