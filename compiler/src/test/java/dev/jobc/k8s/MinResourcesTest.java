package dev.jobc.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jobc.model.ReplicaSpec;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.PodTemplateSpecBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirementsBuilder;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

/** {@link MinResources} against mpi-operator's podgroup_test.go, and {@link QuantitySum}. */
class MinResourcesTest {

  @ParameterizedTest(name = "{0}")
  @MethodSource("upstreamCases")
  void matchesUpstream(
      String name,
      ReplicaSpec launcher,
      ReplicaSpec worker,
      int minMember,
      Map<String, String> expected) {
    assertThat(MinResources.compute(launcher, worker, minMember))
        .containsExactlyEntriesOf(new TreeMap<>(expected));
  }

  static Stream<Arguments> upstreamCases() {
    return Stream.of(
        Arguments.of(
            "#35 schedulingPolicy is nil: 1 + 2 × 10 cpu, 2Gi + 2 × 20Gi",
            replicas(1, requests("1", "2Gi")),
            replicas(2, requests("10", "20Gi")),
            3,
            Map.of("cpu", "21", "memory", "42Gi")),
        Arguments.of(
            "#38 without priorityClass",
            replicas(1, requests("2", "1Gi")),
            replicas(2, requests("10", "32Gi")),
            3,
            Map.of("cpu", "22", "memory", "65Gi")),
        Arguments.of(
            "#38 without worker",
            replicas(1, requests("2", "1Gi")),
            null,
            1,
            Map.of("cpu", "2", "memory", "1Gi")),
        Arguments.of(
            "upstream 'without priorityClass', two worker containers, no cut",
            replicas(1, requests("2", "1Gi")),
            replicas(2, requests("10", "32Gi"), requests("50", "512Gi")),
            3,
            Map.of("cpu", "122", "memory", "1089Gi")),
        Arguments.of(
            "upstream 'with non-existence priorityClass': workers cut to minMember - 1",
            replicas(1, requests("2", "2Gi")),
            replicas(2, requests("5", "16Gi")),
            2,
            Map.of("cpu", "7", "memory", "18Gi")),
        Arguments.of(
            "upstream 'with existence priorityClass': launcher kept, 100 workers cut to 1",
            replicas(1, requests("2", "4Gi")),
            replicas(100, requests("20", "64Gi")),
            2,
            Map.of("cpu", "22", "memory", "68Gi")),
        Arguments.of(
            "#37 minAvailable 2 with 1000 workers",
            replicas(1, requests("1", "2Gi")),
            replicas(1000, requests("10", "20Gi")),
            2,
            Map.of("cpu", "11", "memory", "22Gi")),
        Arguments.of(
            "minMember 1 cuts every worker; their resources are left out",
            replicas(1, requests("2", "1Gi")),
            replicas(4, resources(Map.of("nvidia.com/gpu", "8"), Map.of())),
            1,
            Map.of("cpu", "2", "memory", "1Gi")),
        Arguments.of(
            "limits stand in for missing requests, per resource",
            replicas(1, resources(Map.of("cpu", "250m"), Map.of("cpu", "1", "memory", "1Gi"))),
            replicas(2, resources(Map.of(), Map.of("cpu", "1.5", "example.com/gpu", "2"))),
            3,
            Map.of("cpu", "3250m", "example.com/gpu", "4", "memory", "1Gi")),
        Arguments.of(
            "no resources anywhere",
            replicas(1, resources(Map.of(), Map.of())),
            replicas(2, resources(Map.of(), Map.of())),
            3,
            Map.of()));
  }

  @ParameterizedTest(name = "{0} × {1} + {2} × {3} = {4}")
  @CsvSource({
    // first addend's format wins (apimachinery Quantity.Add)
    "1, 1, 10, 2, 21",
    "2Gi, 1, 20Gi, 2, 42Gi",
    "1Gi, 1, 32Gi, 2, 65Gi",
    "1G, 1, 1Gi, 1, 2073741824",
    "1Gi, 1, 1G, 1, 2073741824",
    // binary SI falls back to decimal below 1024 and for fractions
    "512, 1, 0Gi, 1, 512",
    "1.5Gi, 1, 0, 1, 1536Mi",
    "0.5Ki, 1, 0, 1, 512",
    "1Ki, 1, 1, 1, 1025",
    "1Ei, 1024, 0, 1, 1024Ei",
    // decimal SI: exponent a multiple of 3, trailing zeros folded into the suffix
    "500m, 3, 0, 1, 1500m",
    "1.5, 1, 0, 1, 1500m",
    "1000, 1, 0, 1, 1k",
    "100, 1, 0, 1, 100",
    "0.1, 1, 0, 1, 100m",
    "2k, 1, 500, 1, 2500",
    "1E, 1000, 0, 1, 1000E",
    "1n, 1, 0, 1, 1n",
    "0.0000000001, 1, 0, 1, 1n",
    // decimal exponent
    "1e3, 1, 0, 1, 1e3",
    "1e3, 1, 1, 1, 1001",
    "12e6, 1, 0, 1, 12e6",
    // zero, and a zero first addend taking the next one's format
    "0, 1, 0, 1, 0",
    "0, 1, 1Gi, 3, 3Gi",
    "1Gi, 0, 2, 1, 2"
  })
  void sumsLikeApimachinery(String a, int times, String b, int timesB, String expected) {
    String sum =
        new QuantitySum().add(new Quantity(a), times).add(new Quantity(b), timesB).toString();
    assertThat(sum).isEqualTo(expected);
  }

  private static ReplicaSpec replicas(int count, ResourceRequirementsBuilder... containers) {
    var spec = new PodTemplateSpecBuilder().withNewSpec();
    int i = 0;
    for (ResourceRequirementsBuilder resources : containers) {
      spec.addToContainers(
          new ContainerBuilder().withName("c" + i++).withResources(resources.build()).build());
    }
    return new ReplicaSpec(count, spec.endSpec().build(), null);
  }

  private static ResourceRequirementsBuilder requests(String cpu, String memory) {
    return resources(Map.of("cpu", cpu, "memory", memory), Map.of());
  }

  private static ResourceRequirementsBuilder resources(
      Map<String, String> requests, Map<String, String> limits) {
    return new ResourceRequirementsBuilder()
        .withRequests(quantities(requests))
        .withLimits(quantities(limits));
  }

  private static Map<String, Quantity> quantities(Map<String, String> text) {
    Map<String, Quantity> out = new LinkedHashMap<>();
    text.forEach((k, v) -> out.put(k, new Quantity(v)));
    return out;
  }
}
