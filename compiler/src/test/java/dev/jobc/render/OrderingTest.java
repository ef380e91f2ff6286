package dev.jobc.render;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jobc.model.OutputObject;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class OrderingTest {

  @Test
  void kindsInDependencyOrderThenOthersAlphabetically() {
    List<OutputObject> objects =
        new ArrayList<>(
            List.of(
                o("batch/v1", "Job", "a"),
                o("apps/v1", "Deployment", "a"),
                o("v1", "ConfigMap", "a"),
                o("v1", "ServiceAccount", "a"),
                o("apps/v1", "StatefulSet", "a"),
                o("v1", "Pod", "a"),
                o("v1", "Service", "a")));
    objects.sort(Ordering.ORDER);
    assertThat(objects)
        .extracting(OutputObject::kind)
        .containsExactly(
            "ServiceAccount", "ConfigMap", "Service", "StatefulSet", "Pod", "Job", "Deployment");
  }

  @Test
  void namesWithNumbersSortNaturally() {
    List<String> names =
        new ArrayList<>(
            List.of("pi-worker-10", "pi-worker-2", "pi-worker-1", "pi-worker-02", "pi"));
    names.sort(Ordering::natural);
    assertThat(names)
        .containsExactly("pi", "pi-worker-1", "pi-worker-02", "pi-worker-2", "pi-worker-10");
    assertThat(Ordering.natural("a-2", "a-2")).isZero();
    assertThat(Ordering.natural("a9", "a10")).isNegative();
    assertThat(Ordering.natural("a10", "a9")).isPositive();
  }

  private static OutputObject o(String apiVersion, String kind, String name) {
    return new OutputObject(apiVersion, kind, "default", name, "");
  }
}
