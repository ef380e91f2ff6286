package dev.jobc.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jobc.io.NamedOptions;
import dev.jobc.options.CompileOptions;
import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** The option names of every channel: render flags, KRM functionConfig, Argo CD env and params. */
class ChannelOptionsTest {
  @Test
  void everyNamedOptionIsARenderFlag() {
    CommandLine render = new CommandLine(new JobcCommand()).getSubcommands().get("render");
    for (String name : NamedOptions.NAMES) {
      assertThat(render.getCommandSpec().findOption("--" + name)).as(name).isNotNull();
    }
    // And the other way round: a new render flag must also reach KRM, Argo CD and Maven.
    for (var option : render.getCommandSpec().options()) {
      String name = option.longestName().replaceFirst("^--", "");
      if (!java.util.Set.of("output", "check", "fail-if-changed", "help", "version")
          .contains(name)) {
        assertThat(NamedOptions.NAMES).as("render flag --" + name).contains(name);
      }
    }
  }

  @Test
  void krmFunctionConfigAcceptsAConfigMapOrAJobcConfig() {
    JsonNode configMap =
        YamlStream.parse(
                "kind: ConfigMap\ndata:\n  namespace: ns\n  disable-flux-substitution: \"true\"\n")
            .get(0);
    CompileOptions options = KrmCommand.options(configMap);
    assertThat(options.namespace()).isEqualTo("ns");
    assertThat(options.disableFluxSubstitution()).isTrue();

    JsonNode typed =
        YamlStream.parse(
                "apiVersion: fn.jobc.dev/v1\nkind: JobcConfig\nmetadata:\n  name: x\n"
                    + "cluster-domain: cluster.local\n")
            .get(0);
    assertThat(KrmCommand.options(typed).clusterDomain()).isEqualTo("cluster.local");

    JsonNode typo = YamlStream.parse("kind: ConfigMap\ndata:\n  namespcae: ns\n").get(0);
    assertThatThrownBy(() -> KrmCommand.options(typo)).hasMessageContaining("namespcae");
  }

  @Test
  void krmReportsErrorsAsResultsAndKeepsOtherItems() {
    String list =
        """
        apiVersion: config.kubernetes.io/v1
        kind: ResourceList
        items:
        - apiVersion: v1
          kind: ConfigMap
          metadata:
            name: keep
        - apiVersion: kubeflow.org/v2beta1
          kind: MPIJob
          metadata:
            name: pi
            namespace: default
            annotations:
              internal.config.kubernetes.io/path: jobs/pi.yaml
          spec:
            slotPerWorker: 1
        """;
    KrmCommand.Outcome outcome = KrmCommand.run(list);
    assertThat(outcome.diagnostics()).anyMatch(d -> d.isError());
    JsonNode result = outcome.resourceList().path("results").get(0);
    assertThat(result.path("severity").asText()).isEqualTo("error");
    assertThat(result.path("file").path("path").asText()).isEqualTo("jobs/pi.yaml");
    assertThat(result.path("resourceRef").path("kind").asText()).isEqualTo("MPIJob");
    assertThat(outcome.resourceList().path("items").get(0).path("metadata").path("name").asText())
        .isEqualTo("keep");
  }

  @Test
  void argoCdOptionsWeakestFirst() {
    CompileOptions options =
        ArgoCdCommand.options(
            Map.of(
                "ARGOCD_APP_NAMESPACE", "dest",
                "ARGOCD_ENV_JOBC_NAMESPACE", "env",
                "ARGOCD_ENV_JOBC_CLUSTER_DOMAIN", "cluster.local",
                "ARGOCD_APP_PARAMETERS", "[{\"name\":\"namespace\",\"string\":\"param\"}]",
                "PARAM_NAMESPACE", "ignored-when-the-json-is-there"));
    assertThat(options.namespace()).isEqualTo("param");
    assertThat(options.clusterDomain()).isEqualTo("cluster.local");

    assertThat(ArgoCdCommand.options(Map.of("ARGOCD_APP_NAMESPACE", "dest")).namespace())
        .isEqualTo("dest");
    assertThat(ArgoCdCommand.options(Map.of("PARAM_NAMESPACE", "p")).namespace()).isEqualTo("p");
    assertThatThrownBy(
            () -> ArgoCdCommand.options(Map.of("ARGOCD_ENV_JOBC_DISABLE_FLUX_SUBSTITUTION", "yes")))
        .hasMessageContaining("ARGOCD_ENV_JOBC_DISABLE_FLUX_SUBSTITUTION")
        .hasMessageContaining("expected true or false");
  }
}
