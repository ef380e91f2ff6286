package dev.jobc.golden;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.Quantity;
import java.math.BigDecimal;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The containers jobc adds never lower a pod's QoS class: Kubernetes' {@code ComputePodQOS}
 * (kubernetes {@code pkg/apis/core/v1/helper/qos/qos.go}) over init and regular containers, after
 * the API server's defaulting of a missing request to its limit.
 */
class QosClassTest {

  enum Qos {
    GUARANTEED,
    BURSTABLE,
    BEST_EFFORT
  }

  static Stream<RenderedPods> pods() {
    return PodSecurityRestrictedTest.pods();
  }

  @ParameterizedTest
  @MethodSource("pods")
  void jobcContainersKeepTheUsersQosClass(RenderedPods pod) {
    Qos all = qos(pod.containers(), c -> true);
    if (pod.containers().stream().allMatch(RenderedPods::addedByJobc)) {
      // A pod of jobc's alone (an MPIJob's scaler): requests equal limits.
      assertThat(all).as(pod.toString()).isEqualTo(Qos.GUARANTEED);
      return;
    }
    Qos users = qos(pod.containers(), c -> !RenderedPods.addedByJobc(c));
    // Containers with resources cannot keep a pod BestEffort; anything else must be kept.
    assertThat(all)
        .as(pod + " (user's containers alone: " + users + ")")
        .isEqualTo(users == Qos.BEST_EFFORT && all == Qos.BURSTABLE ? Qos.BURSTABLE : users);
  }

  /** The golden case written for this, and upstream's pi example (limits only on the launcher). */
  @Test
  void guaranteedLaunchersStayGuaranteed() {
    for (String name : List.of("mpijob-v2beta1-guaranteed-launcher", "mpijob-v2beta1-pi")) {
      RenderedPods launcher =
          RenderedPods.renderingCases().stream()
              .filter(d -> d.getFileName().toString().equals(name))
              .flatMap(d -> RenderedPods.of(d).stream())
              .filter(p -> p.object().equals("Job pi-launcher"))
              .findFirst()
              .orElseThrow();
      assertThat(qos(launcher.containers(), c -> true)).as(name).isEqualTo(Qos.GUARANTEED);
    }
  }

  /** The computation itself, on the cases of Kubernetes' own qos_test.go that it covers. */
  @Test
  void computesKubernetesQosClasses() throws Exception {
    assertThat(qos(containers("[{}]"), c -> true)).isEqualTo(Qos.BEST_EFFORT);
    assertThat(
            qos(
                containers("[{\"resources\":{\"limits\":{\"cpu\":\"1\",\"memory\":\"1Gi\"}}}]"),
                c -> true))
        .isEqualTo(Qos.GUARANTEED);
    assertThat(
            qos(
                containers(
                    "[{\"resources\":{\"requests\":{\"cpu\":\"10m\",\"memory\":\"1Gi\"},"
                        + "\"limits\":{\"cpu\":\"1\",\"memory\":\"1Gi\"}}}]"),
                c -> true))
        .isEqualTo(Qos.BURSTABLE);
    assertThat(qos(containers("[{\"resources\":{\"limits\":{\"cpu\":\"1\"}}}]"), c -> true))
        .isEqualTo(Qos.BURSTABLE);
    assertThat(
            qos(
                containers("[{\"resources\":{\"limits\":{\"cpu\":\"1\",\"memory\":\"1Gi\"}}},{}]"),
                c -> true))
        .isEqualTo(Qos.BURSTABLE);
    // Only cpu and memory count.
    assertThat(
            qos(
                containers(
                    "[{\"resources\":{\"limits\":{\"cpu\":\"1\",\"memory\":\"1Gi\","
                        + "\"nvidia.com/gpu\":\"1\"},\"requests\":{\"nvidia.com/gpu\":\"1\"}}}]"),
                c -> true))
        .isEqualTo(Qos.GUARANTEED);
  }

  private static List<JsonNode> containers(String json) throws Exception {
    List<JsonNode> out = new java.util.ArrayList<>();
    new ObjectMapper().readTree(json).forEach(out::add);
    return out;
  }

  /** {@code ComputePodQOS} over the containers {@code counted} selects. */
  static Qos qos(List<JsonNode> containers, Predicate<JsonNode> counted) {
    Map<String, BigDecimal> requests = new HashMap<>();
    Map<String, BigDecimal> limits = new HashMap<>();
    boolean guaranteed = true;
    for (JsonNode c : containers) {
      if (!counted.test(c)) {
        continue;
      }
      JsonNode resources = c.path("resources");
      Map<String, BigDecimal> own = positive(resources.path("requests"));
      Map<String, BigDecimal> ownLimits = positive(resources.path("limits"));
      // API server defaulting: a limit without a request requests the limit.
      ownLimits.forEach(own::putIfAbsent);
      own.forEach((k, v) -> requests.merge(k, v, BigDecimal::add));
      ownLimits.forEach((k, v) -> limits.merge(k, v, BigDecimal::add));
      if (!ownLimits.keySet().containsAll(Set.of("cpu", "memory"))) {
        guaranteed = false;
      }
    }
    if (requests.isEmpty() && limits.isEmpty()) {
      return Qos.BEST_EFFORT;
    }
    if (guaranteed) {
      for (var e : requests.entrySet()) {
        BigDecimal limit = limits.get(e.getKey());
        if (limit == null || limit.compareTo(e.getValue()) != 0) {
          guaranteed = false;
          break;
        }
      }
    }
    return guaranteed && new HashSet<>(requests.keySet()).size() == limits.size()
        ? Qos.GUARANTEED
        : Qos.BURSTABLE;
  }

  /** The positive cpu and memory quantities of a resource list. */
  private static Map<String, BigDecimal> positive(JsonNode list) {
    Map<String, BigDecimal> out = new HashMap<>();
    for (String name : List.of("cpu", "memory")) {
      JsonNode q = list.path(name);
      if (!q.isMissingNode() && !q.isNull()) {
        BigDecimal amount = Quantity.getAmountInBytes(new Quantity(q.asText()));
        if (amount.signum() > 0) {
          out.put(name, amount);
        }
      }
    }
    return out;
  }
}
