package dev.jobc.dgl;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Quantity;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Half the memory limit, exactly, in the limit's unit family (dgl-operator `47bff27`
 * `controllers/dgljob_controller.go` `buildWorkerOrPartitionerPod`, and more).
 */
class ShmSizeTest {

  @ParameterizedTest(name = "{0} → {1}")
  @CsvSource({
    "20Gi, 10Gi", // operator: 10G
    "16Gi, 8Gi", // operator: 8G
    "64Gi, 32Gi", // operator: 34G
    "3Gi, 1536Mi", // operator: 1G
    "1Gi, 512Mi", // operator: 0
    "500Mi, 250Mi", // operator: 0
    "1.5Gi, 768Mi",
    "5Ki, 2560",
    "1Ki, 512",
    "4G, 2G", // operator: 2G
    "3M, 1500k",
    "1G, 500M",
    "1e3, 500",
    "1, 500m",
    "3, 1500m",
    "1m, 500u"
  })
  void halvesExactly(String limit, String half) {
    assertThat(ShmSize.half(new Quantity(limit))).isEqualTo(half);
  }

  @ParameterizedTest(name = "{0} → no sizeLimit")
  @CsvSource({"0", "0Gi"})
  void zeroGivesNoLimit(String limit) {
    assertThat(ShmSize.half(new Quantity(limit))).isNull();
  }

  @org.junit.jupiter.api.Test
  void noLimitGivesNoLimit() {
    assertThat(ShmSize.half(null)).isNull();
  }
}
