package dev.jobc.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jobc.options.CompileOptions;
import dev.jobc.options.Option;
import dev.jobc.options.OptionTable;
import dev.jobc.options.Transport;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** The option names of every channel: render flags, KRM functionConfig, Argo CD env and params. */
class ChannelOptionsTest {
  @Test
  void everyNamedOptionIsARenderFlag() {
    CommandLine render =
        JobcCommand.tree(new JobcCommand(), JobcCommand.SUBCOMMANDS).getSubcommands().get("render");
    for (String name : OptionTable.names()) {
      assertThat(render.getCommandSpec().findOption("--" + name))
          .as(name)
          .satisfies(o -> assertThat(o.longestName()).isEqualTo("--" + name));
    }
    // And the other way round: a new render flag must also reach KRM, Argo CD and Maven.
    for (var option : render.getCommandSpec().options()) {
      String name = option.longestName().replaceFirst("^--", "");
      // Not compile options: where the render goes, and which inputs are read.
      if (!java.util.Set.of(
              "output", "check", "fail-if-changed", "exclude", "allow-missing", "help", "version")
          .contains(name)) {
        assertThat(OptionTable.names()).as("render flag --" + name).contains(name);
      }
    }
  }

  @Test
  void renderFlagsAreParsedByTheTable() {
    CommandLine cli = JobcCommand.tree(new JobcCommand(), JobcCommand.SUBCOMMANDS);
    cli.parseArgs(
        "render",
        "--ssh-secret",
        "keys",
        "--gpus-per-node",
        "4",
        "--disable-flux-substitution",
        "-");
    CommandLine render = cli.getSubcommands().get("render");
    CompileOptions options = CompileFlags.options(render.getCommandSpec());
    assertThat(options.get(OptionTable.SSH_SECRET)).isEqualTo("keys");
    // ssh-secret implies the ssh transport when --transport is not given ...
    assertThat(options.get(OptionTable.TRANSPORT)).isEqualTo(Transport.SSH);
    assertThat(options.get(OptionTable.GPUS_PER_NODE)).isEqualTo(4);
    assertThat(options.get(OptionTable.DISABLE_FLUX_SUBSTITUTION)).isTrue();
    assertThat(options.get(OptionTable.KUBECTL_IMAGE))
        .isEqualTo(OptionTable.KUBECTL_IMAGE.defaultValue());

    // ... and an explicit --transport wins, in either order.
    cli = JobcCommand.tree(new JobcCommand(), JobcCommand.SUBCOMMANDS);
    cli.parseArgs("render", "--transport", "kubexec", "--ssh-secret", "keys", "-");
    options = CompileFlags.options(cli.getSubcommands().get("render").getCommandSpec());
    assertThat(options.get(OptionTable.TRANSPORT)).isEqualTo(Transport.KUBEXEC);

    cli = JobcCommand.tree(new JobcCommand(), JobcCommand.SUBCOMMANDS);
    cli.parseArgs("render", "--gpus-per-node", "0", "-");
    CommandLine bad = cli.getSubcommands().get("render");
    assertThatThrownBy(() -> CompileFlags.options(bad.getCommandSpec()))
        .hasMessage("gpus-per-node must be a whole number from 1 to 999999999, not \"0\"");
  }

  @Test
  void renderHelpShowsEachOptionOnceWithItsDefault() {
    String help =
        JobcCommand.tree(new JobcCommand(), JobcCommand.SUBCOMMANDS)
            .getSubcommands()
            .get("render")
            .getUsageMessage();
    assertThat(help).contains("--transport=kubexec|ssh").contains("Default: kubexec.");
    assertThat(help).doesNotContain("null");
    for (Option<?> option : OptionTable.ALL) {
      // One row in the option list, whatever picocli's layout: the row starts with the flag.
      String flags =
          (option.shortFlag() == null ? "" : option.shortFlag() + ", ") + "--" + option.name();
      assertThat(help.lines().filter(l -> l.strip().startsWith(flags)).count())
          .as(option.name())
          .isEqualTo(1);
    }
    assertThat(help).contains(" ${...}");
  }

  /**
   * Every help text wraps its option and parameter lists at spaces only: each word of each
   * description, a default such as docker.io/alpine/k8s:1.32.4 among them, is whole on one line
   * (picocli's own wrapping broke after a dot), and no line is longer than the help's width.
   */
  @Test
  void helpNeverBreaksAWord() {
    CommandLine jobc = JobcCommand.tree(new JobcCommand(), JobcCommand.SUBCOMMANDS);
    List<CommandLine> commands = new java.util.ArrayList<>(List.of(jobc));
    commands.addAll(jobc.getSubcommands().values());
    for (CommandLine command : commands) {
      String help = command.getUsageMessage();
      java.util.Set<String> words =
          help.lines()
              .flatMap(l -> java.util.Arrays.stream(l.strip().split(" +")))
              .collect(java.util.stream.Collectors.toSet());
      List<picocli.CommandLine.Model.ArgSpec> args =
          new java.util.ArrayList<>(command.getCommandSpec().options());
      args.addAll(command.getCommandSpec().positionalParameters());
      for (picocli.CommandLine.Model.ArgSpec arg : args) {
        for (String line : arg.description()) {
          for (String word : line.split(" +")) {
            assertThat(words).as(command.getCommandName() + ": " + line).contains(word);
          }
        }
      }
      assertThat(help.lines().mapToInt(String::length).max().orElse(0))
          .as(command.getCommandName())
          .isLessThanOrEqualTo(command.getCommandSpec().usageMessage().width());
    }
  }

  /**
   * The documentation's two option tables (render flags in docs/usage.md, Maven parameters in
   * docs/channels/maven.md; wherever they move in README.md or docs/) list every option of the
   * table once, with the table's default, so the documentation cannot fall behind a new row.
   */
  @Test
  void docTablesListEveryOptionWithItsDefault() {
    List<String> docs = DocPages.read().pages().stream().flatMap(p -> p.lines().stream()).toList();
    for (Option<?> option : OptionTable.ALL) {
      String shown =
          option.isFlag()
              ? "off"
              : option.defaultText() == null ? "none" : "`" + option.defaultText() + "`";
      List<String> flagRows =
          docs.stream().filter(l -> l.startsWith("| `--" + option.name())).toList();
      assertThat(flagRows).as("docs row for --" + option.name()).hasSize(1);
      assertThat(flagRows.get(0).split(" \\| ")[1]).as(option.name()).isEqualTo(shown);
      List<String> mavenRows =
          docs.stream()
              .filter(
                  l ->
                      l.startsWith(
                          "| `" + option.camelName() + "` | `jobc." + option.camelName() + "` | "))
              .toList();
      assertThat(mavenRows).as("docs Maven row for " + option.camelName()).hasSize(1);
      assertThat(mavenRows.get(0))
          .as(option.camelName())
          .endsWith("| " + (option.isFlag() ? "`false`" : shown) + " |");
    }
  }

  @Test
  void krmAndArgoCdHelpListEveryOption() {
    CommandLine jobc = JobcCommand.tree(new JobcCommand(), JobcCommand.SUBCOMMANDS);
    String krm = jobc.getSubcommands().get("krm").getUsageMessage();
    String argocd = jobc.getSubcommands().get("argocd").getUsageMessage();
    for (Option<?> option : OptionTable.ALL) {
      assertThat(krm).contains("  " + option.name() + ": ");
      assertThat(argocd).contains("  " + option.name() + " (" + option.envName() + "): ");
    }
    assertThat(krm).doesNotContain("null");
    assertThat(argocd).doesNotContain("null");
  }

  @Test
  void krmFunctionConfigAcceptsAConfigMapOrAJobcConfig() {
    JsonNode configMap =
        YamlStream.parse(
                "kind: ConfigMap\ndata:\n  namespace: ns\n  disable-flux-substitution: \"true\"\n")
            .get(0);
    CompileOptions options = KrmCommand.options(configMap);
    assertThat(options.get(OptionTable.NAMESPACE)).isEqualTo("ns");
    assertThat(options.get(OptionTable.DISABLE_FLUX_SUBSTITUTION)).isTrue();

    JsonNode typed =
        YamlStream.parse(
                "apiVersion: fn.jobc.dev/v1\nkind: JobcConfig\nmetadata:\n  name: x\n"
                    + "cluster-domain: cluster.local\n")
            .get(0);
    assertThat(KrmCommand.options(typed).get(OptionTable.CLUSTER_DOMAIN))
        .isEqualTo("cluster.local");

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
    assertThat(outcome.diagnostics())
        .extracting(d -> d.severity() + " " + d.code() + " " + d.path())
        .containsExactly(
            "ERROR REQUIRED spec.mpiReplicaSpecs", "ERROR UNKNOWN_FIELD spec.slotPerWorker");
    JsonNode result = outcome.resourceList().path("results").get(0);
    assertThat(result.path("severity").asText()).isEqualTo("error");
    assertThat(result.path("file").path("path").asText()).isEqualTo("jobs/pi.yaml");
    assertThat(result.path("resourceRef").path("kind").asText()).isEqualTo("MPIJob");
    assertThat(outcome.resourceList().path("items").get(0).path("metadata").path("name").asText())
        .isEqualTo("keep");
  }

  @Test
  void argoCdExcludeIsAnArrayParameter() {
    String json =
        "[{\"name\":\"exclude\",\"array\":[\"drafts\",\"**/test-*.yaml\"]},"
            + "{\"name\":\"namespace\",\"string\":\"ns\"}]";
    Map<String, String> env = Map.of("ARGOCD_APP_PARAMETERS", json, "PARAM_EXCLUDE_0", "ignored");
    assertThat(ArgoCdCommand.excludes(env)).containsExactly("drafts", "**/test-*.yaml");
    // The options next to it are read as before.
    assertThat(ArgoCdCommand.options(env).get(OptionTable.NAMESPACE)).isEqualTo("ns");
    // Without ARGOCD_APP_PARAMETERS, Argo CD's PARAM_EXCLUDE_<i>.
    Map<String, String> params =
        Map.of("PARAM_EXCLUDE_0", "a", "PARAM_EXCLUDE_1", "b", "PARAM_NAMESPACE", "ns");
    assertThat(ArgoCdCommand.excludes(params)).containsExactly("a", "b");
    assertThat(ArgoCdCommand.options(params).get(OptionTable.NAMESPACE)).isEqualTo("ns");
    assertThatThrownBy(
            () ->
                ArgoCdCommand.excludes(
                    Map.of("ARGOCD_APP_PARAMETERS", "[{\"name\":\"exclude\",\"map\":{}}]")))
        .hasMessageContaining("parameter exclude: expected an array of globs");
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
    assertThat(options.get(OptionTable.NAMESPACE)).isEqualTo("param");
    assertThat(options.get(OptionTable.CLUSTER_DOMAIN)).isEqualTo("cluster.local");

    assertThat(
            ArgoCdCommand.options(Map.of("ARGOCD_APP_NAMESPACE", "dest"))
                .get(OptionTable.NAMESPACE))
        .isEqualTo("dest");
    assertThat(ArgoCdCommand.options(Map.of("PARAM_NAMESPACE", "p")).get(OptionTable.NAMESPACE))
        .isEqualTo("p");
    assertThatThrownBy(
            () -> ArgoCdCommand.options(Map.of("ARGOCD_ENV_JOBC_DISABLE_FLUX_SUBSTITUTION", "yes")))
        .hasMessageContaining("ARGOCD_ENV_JOBC_DISABLE_FLUX_SUBSTITUTION")
        .hasMessageContaining("disable-flux-substitution must be true or false, not \"yes\"");
  }
}
