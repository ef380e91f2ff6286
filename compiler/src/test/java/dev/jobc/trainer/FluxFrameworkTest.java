package dev.jobc.trainer;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The cases of kubeflow/trainer v2.3.0 plugins/flux/flux_test.go that are pure functions. */
class FluxFrameworkTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  private static JsonNode json(String text) throws Exception {
    return JSON.readTree(text);
  }

  @Test
  void rangesAreOneNumberOrFirstToLast() {
    // TestGenerateRange.
    assertThat(FluxFramework.range(1, 0)).isEqualTo("0");
    assertThat(FluxFramework.range(4, 0)).isEqualTo("0-3");
    assertThat(FluxFramework.range(3, 10)).isEqualTo("10-12");
  }

  @Test
  void theHostListNamesTheNodeJobsPods() {
    // TestGenerateHostlist, through the init script that writes it.
    Map<String, String> settings = FluxFramework.settings(JSON.missingNode(), JSON.missingNode());
    assertThat(FluxFramework.initScript("lammps-job", "ns", 1, settings))
        .contains("hosts=\"lammps-job-node-0-[0]\"\n");
    assertThat(FluxFramework.initScript("flux-cluster", "ns", 4, settings))
        .contains("hosts=\"flux-cluster-node-0-[0-3]\"\n")
        .contains("{ host=\"flux-cluster-node-0-[0-3]\"},\n")
        .contains("default_bind = \"tcp://eth0:%p\"\n")
        .contains("default_connect = \"tcp://%h.flux-cluster.ns.svc.cluster.local:%p\"\n")
        .contains("queue-policy = \"fcfs\"\n")
        .contains("mainHost=flux-cluster-0\n");
  }

  @Test
  void theEntrypointCountsTasksOverAllNodesAndGpusPerTask() {
    assertThat(FluxFramework.entrypointScript("j", 2, 4, 0))
        .contains("flux R encode --hosts=${hosts} --cores=0-3 > /tmp/R\n")
        .contains("mainHost=\"j-node-0-0\"\n")
        .contains("flags=\"-N 2 -n 8  \"\n");
    assertThat(FluxFramework.entrypointScript("j", 3, 1, 2))
        .contains("--cores=0 --gpu=0-1 > /tmp/R\n")
        .contains("flags=\"-N 3 -n 3 -g 2  \"\n");
  }

  @Test
  void formatReplacesEachVerbOnceAndNeverReadsItsArguments() {
    assertThat(FluxFramework.format("a%sb%sc", "%s", "%p")).isEqualTo("a%sb%pc");
  }

  @Test
  void theTrainJobsEnvWinsOverTheRuntimesAndAnEnvWithoutValueIsEmpty() throws Exception {
    // flux.go brokerSettingsFromEnvironment.
    Map<String, String> settings =
        FluxFramework.settings(
            json(
                "[{\"name\":\"FLUX_NETWORK_DEVICE\",\"value\":\"eth1\"},"
                    + "{\"name\":\"FLUX_QUEUE_POLICY\",\"value\":\"easy\"},"
                    + "{\"name\":\"FLUX_VIEW_IMAGE\",\"valueFrom\":{}},"
                    + "{\"name\":\"OTHER\",\"value\":\"x\"}]"),
            json(
                "[{\"name\":\"FLUX_QUEUE_POLICY\",\"value\":\"conservative\"},"
                    + "{\"name\":\"FLUX_VIEW_IMAGE\",\"valueFrom\":{}}]"));
    assertThat(settings)
        .containsExactlyInAnyOrderEntriesOf(
            Map.of(
                "FLUX_NETWORK_DEVICE", "eth1",
                "FLUX_QUEUE_POLICY", "conservative",
                "FLUX_VIEW_IMAGE", ""));
  }

  @Test
  void theOriginalCommandIsTheTrainJobsElseTheRuntimesWithTheTrainJobsArgs() throws Exception {
    // TestGetOriginalCommand.
    JsonNode runtime = json("[\"sleep\",\"infinity\"]");
    assertThat(
            FluxFramework.originalCommand(
                runtime,
                json("{\"command\":[\"python\"],\"args\":[\"train.py\",\"--epochs\",\"10\"]}")))
        .isEqualTo("python train.py --epochs 10");
    assertThat(
            FluxFramework.originalCommand(
                runtime, json("{\"command\":[\"  python  \"],\"args\":[\" script.py \"]}")))
        .isEqualTo("python    script.py");
    assertThat(FluxFramework.originalCommand(runtime, json("{\"args\":[\"60\"]}")))
        .isEqualTo("sleep infinity 60");
  }
}
