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
