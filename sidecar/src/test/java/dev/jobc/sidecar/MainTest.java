package dev.jobc.sidecar;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.jobc.ManifestCompiler;
import dev.jobc.conventions.DiscoverHosts;
import dev.jobc.conventions.MpiEra;
import dev.jobc.model.CompileResult;
import dev.jobc.model.Source;
import dev.jobc.options.CompileOptions;
import dev.jobc.options.OptionTable;
import dev.jobc.sidecar.base.Termination;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class MainTest {
  @Test
  void usageErrorsExitWithTwoAndHelpWithZero() {
    Termination t = new Termination();
    assertThat(Main.execute(t)).isEqualTo(2);
    assertThat(Main.execute(t, "nonsense")).isEqualTo(2);
    assertThat(Main.execute(t, "run", "--job", "pi")).isEqualTo(2);
    assertThat(Main.execute(t, "release", "--container", "c", "--namespace", "n", "--pod", "p"))
        .as("no workers named")
        .isEqualTo(2);
    assertThat(Main.execute(t, "--help")).isZero();
  }

  /** --version prints the version alone: the image check (SidecarImageIT) reads exactly that. */
  @Test
  void versionPrintsNoStartLine() {
    java.io.ByteArrayOutputStream captured = new java.io.ByteArrayOutputStream();
    java.io.PrintStream err = System.err;
    System.setErr(new java.io.PrintStream(captured, true, java.nio.charset.StandardCharsets.UTF_8));
    int code;
    try {
      code = Main.execute(new Termination(), "--version");
    } finally {
      System.setErr(err);
    }
    assertThat(code).isZero();
    assertThat(captured.toString(java.nio.charset.StandardCharsets.UTF_8)).isEmpty();
  }

  /**
   * The first line comes at once, before the command is even read, so a sidecar stuck on a hanging
   * API server is never silent; an error the command does not handle (a namespace the API server
   * refuses, a directory that cannot be written) is one line and exit code 1.
   */
  @Test
  void theFirstLineComesAtStartAndAnErrorIsOneLine(@org.junit.jupiter.api.io.TempDir Path tmp)
      throws Exception {
    java.nio.file.Files.writeString(tmp.resolve("hostfile"), "pi-worker-0 slots=1\n");
    java.io.ByteArrayOutputStream captured = new java.io.ByteArrayOutputStream();
    java.io.PrintStream err = System.err;
    System.setErr(new java.io.PrintStream(captured, true, java.nio.charset.StandardCharsets.UTF_8));
    int code;
    try {
      code =
          Main.execute(
              new Termination(),
              "run",
              "--job",
              "pi",
              "--namespace",
              "team",
              "--pod",
              "pi-launcher",
              "--launcher-container",
              "l",
              // A file where the output directory would be: copying the hostfile fails at once.
              "--config-dir",
              tmp.toString(),
              "--output-dir",
              "/dev/null/out");
    } finally {
      System.setErr(err);
    }
    String[] lines = captured.toString(java.nio.charset.StandardCharsets.UTF_8).split("\n");
    assertThat(lines[0])
        .endsWith(
            " jobc-sidecar: starting: run --job pi --namespace team --pod"
                + " pi-launcher --launcher-container l --config-dir "
                + tmp
                + " --output-dir /dev/null/out");
    assertThat(code).isEqualTo(1);
    assertThat(lines).noneMatch(l -> l.startsWith("\tat "));
    assertThat(lines[lines.length - 1])
        .contains(" jobc-sidecar: error: ")
        .contains("/dev/null/out");
  }

  @Test
  void valuesThatAreNotPlainHostWordsAreQuotedInTheScript() {
    assertThat(
            DiscoverHosts.script(
                List.of("pi-worker-0.pi.team.svc", "pi-worker-1:2", "$(reboot)", "a'b", "-n")))
        .isEqualTo(
            "#!/bin/sh\necho pi-worker-0.pi.team.svc\necho pi-worker-1:2\necho '$(reboot)'\n"
                + "echo 'a'\\''b'\necho '-n'\n");
  }

  /**
   * The sidecar's live discover_hosts.sh, with every initial worker Ready, is byte for byte the
   * compiler's static one: one format, in one place.
   */
  @Test
  void theLiveScriptEqualsTheCompilersStaticOne() throws Exception {
    for (String version : List.of("v1", "v2beta1")) {
      String input =
          """
          apiVersion: kubeflow.org/%s
          kind: MPIJob
          metadata: {name: pi, namespace: team}
          spec:
            slotsPerWorker: 2
            mpiReplicaSpecs:
              Launcher:
                replicas: 1
                template: {spec: {containers: [{name: l, image: i}]}}
              Worker:
                replicas: 12
                template: {spec: {containers: [{name: w, image: i}]}}
          """
              .formatted(version);
      CompileResult result =
          new ManifestCompiler()
              .compile(
                  List.of(new Source("pi.yaml", input)),
                  CompileOptions.defaults().with(OptionTable.CLUSTER_DOMAIN, "example.org"));
      String config =
          result.objects().stream()
              .filter(o -> o.kind().equals("ConfigMap"))
              .findFirst()
              .orElseThrow()
              .yaml();
      MpiEra era = MpiEra.of("kubeflow.org/" + version).orElseThrow();
      List<String> entries = new ArrayList<>();
      for (int i = 0; i < 12; i++) {
        entries.add(DiscoverHosts.entry(era, "pi", "team", "example.org", i, 2));
      }
      String live = DiscoverHosts.script(entries);
      String rendered =
          new ObjectMapper(new YAMLFactory())
              .readTree(config)
              .path("data")
              .path("discover_hosts.sh")
              .asText();
      assertThat(live).as(version).isEqualTo(rendered).contains("echo pi-worker-11");
    }
  }
}
