package dev.jobc.render;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TemplatesTest {
  private final Templates templates = new Templates();

  @Test
  void hostfileFormatsPerImplementation() {
    var hosts =
        List.of(Map.of("host", "a.b.c.svc", "slots", 1000), Map.of("host", "d", "slots", 2));
    assertThat(templates.render("mpijob/hostfile.ftl", Map.of("hosts", hosts, "hydra", false)))
        .isEqualTo("a.b.c.svc slots=1000\nd slots=2\n");
    assertThat(templates.render("mpijob/hostfile.ftl", Map.of("hosts", hosts, "hydra", true)))
        .isEqualTo("a.b.c.svc:1000\nd:2\n");
  }

  @Test
  void emptyHostListGivesEmptyFile() {
    assertThat(templates.render("mpijob/hostfile.ftl", Map.of("hosts", List.of(), "hydra", false)))
        .isEmpty();
    assertThat(templates.render("mpijob/discover_hosts.sh.ftl", Map.of("hosts", List.of())))
        .isEqualTo("#!/bin/sh\n");
  }

  @Test
  void shellSyntaxStaysLiteralAndValuesAreQuoted() {
    String script =
        templates.render(
            "mpijob/kubexec.sh.ftl", Map.of("kubectl", "/opt/kube/kubectl", "container", "it's"));
    assertThat(script)
        .startsWith("#!/bin/sh\n")
        .contains("set -- $POD_NAME; printf '%s' \"$1\")")
        .doesNotContain("${") // Flux post-build substitution would replace it
        .contains("--container 'it'\\''s' -- /bin/sh -c \"$*\"")
        .endsWith("\n");
  }

  /**
   * DGL's kubexec.sh differs from dgl-operator's {@code buildConfigMap} script only in writing
   * {@code $POD_NAME} for {@code ${POD_NAME}}: the same unquoted expansion, so dglrun's {@code
   * launch.py} still passes {@code "<pod> -c <container>"} as one argument and gets it split. Run
   * with {@code sh} and a stand-in kubectl that prints its arguments.
   */
  @Test
  void dglKubexecSplitsThePodArgumentAsTheOperatorsDoes(@TempDir Path dir) throws Exception {
    Path kubectl = dir.resolve("kubectl");
    Files.writeString(kubectl, "#!/bin/sh\nfor a in \"$@\"; do printf '%s\\n' \"$a\"; done\n");
    kubectl.toFile().setExecutable(true);
    String script =
        templates.render("dgljob/kubexec.sh.ftl", Map.of("kubectl", kubectl.toString()));
    assertThat(script)
        .startsWith("#!/bin/sh\nset -x\nPOD_NAME=$1; shift\n")
        .doesNotContain("${")
        .doesNotEndWith("\n");
    Path file = dir.resolve("kubexec.sh");
    Files.writeString(file, script);
    Process p =
        new ProcessBuilder(
                "sh", file.toString(), "g-launcher -c watcher-loop-partitioner", "cd /w; ls -l")
            .redirectError(ProcessBuilder.Redirect.DISCARD)
            .start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor()).isZero();
    assertThat(out.split("\n"))
        .containsExactly(
            "exec",
            "g-launcher",
            "-c",
            "watcher-loop-partitioner",
            "--",
            "/bin/sh",
            "-c",
            "cd /w; ls -l");
  }

  @Test
  void goRuntimeSettingsReachKubectlButNotTheLaunchersOwnRanks() {
    String script =
        templates.render(
            "mpijob/kubexec.sh.ftl",
            Map.of("kubectl", "/opt/kube/kubectl", "launcher", "pi-launcher"));
    int local = script.indexOf("exec /bin/sh -c \"$*\"");
    int go = script.indexOf("export GOMAXPROCS=1 GOGC=25\n");
    int kubectl = script.indexOf("exec /opt/kube/kubectl exec");
    assertThat(local).isPositive();
    assertThat(go).isGreaterThan(local).isLessThan(kubectl);
  }

  @Test
  void aMissingVariableIsAnErrorNotAnEmptyString() {
    assertThatThrownBy(
            () ->
                templates.render(
                    "mpijob/hostfile.ftl",
                    Map.of("hosts", List.of(Map.of("host", "a", "slots", 1)))))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("hydra");
  }

  @Test
  void shellQuote() {
    assertThat(Templates.shellQuote("plain")).isEqualTo("'plain'");
    assertThat(Templates.shellQuote("$(rm -rf /)")).isEqualTo("'$(rm -rf /)'");
  }
}
