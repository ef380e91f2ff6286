package dev.jobc.sidecar.base;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jobc.sidecar.ApiStandIn;
import dev.jobc.sidecar.SidecarBench;
import dev.jobc.sidecar.client.ApiException;
import dev.jobc.sidecar.client.PodJson;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** What the watch keeps of a pod, and which errors it outlives. */
class PodWatchTest {
  /**
   * An OutOfMemoryError (or any Error) in the watch leaves the process in no state to go on: it
   * ends, and kubelet restarts the container. It was retried like an API error.
   */
  @Test
  void apiErrorsAreRetriedErrorsAreNot() {
    assertThat(PodWatch.retries(new ApiException(503, "HTTP 503"))).isTrue();
    assertThat(PodWatch.retries(new IOException("connection reset"))).isTrue();
    assertThat(PodWatch.retries(new OutOfMemoryError("Java heap space"))).isFalse();
    assertThat(PodWatch.retries(new StackOverflowError())).isFalse();
  }

  /**
   * The store keeps what the sidecar reads (Pods, JobOutcome, JobEvents, the tfjob sidecar) and
   * nothing else: a realistic worker's managed fields, spec and statuses would fill the heap.
   */
  @Test
  void theStoreKeepsWhatTheSidecarReadsOnly() throws IOException {
    Pod full = SidecarBench.realistic(ApiStandIn.worker("pi", 3, true, "10.0.0.3"));
    full.getMetadata().setResourceVersion("42");
    full.getMetadata()
        .getOwnerReferences()
        .add(
            new io.fabric8.kubernetes.api.model.OwnerReferenceBuilder()
                .withApiVersion("batch/v1")
                .withKind("Job")
                .withName("pi-launcher")
                .withUid("u")
                .build());
    Pod kept = PodJson.pod(Serialization.asJson(full).getBytes(StandardCharsets.UTF_8));
    assertThat(kept.getMetadata().getName()).isEqualTo("pi-worker-3");
    assertThat(kept.getMetadata().getNamespace()).isEqualTo("team");
    assertThat(kept.getMetadata().getResourceVersion()).isEqualTo("42");
    assertThat(kept.getMetadata().getLabels()).isEqualTo(full.getMetadata().getLabels());
    assertThat(kept.getMetadata().getOwnerReferences())
        .singleElement()
        .satisfies(r -> assertThat(r.getKind()).isEqualTo("Job"));
    assertThat(kept.getMetadata().getManagedFields()).isEmpty();
    assertThat(kept.getMetadata().getAnnotations()).isEmpty();
    assertThat(kept.getSpec().getRestartPolicy()).isEqualTo("Always");
    assertThat(kept.getSpec().getTerminationGracePeriodSeconds()).isEqualTo(30L);
    assertThat(kept.getSpec().getContainers()).isEmpty();
    assertThat(kept.getSpec().getVolumes()).isEmpty();
    assertThat(Pods.ready(kept)).isTrue();
    assertThat(Pods.running(kept)).isTrue();
    assertThat(Pods.phase(kept)).isEqualTo("Running");
    assertThat(Pods.ip(kept)).isEqualTo("10.0.0.3");
    assertThat(kept.getStatus().getConditions()).hasSize(1);
    assertThat(Pods.container(kept, "worker").getRestartCount()).isZero();
    assertThat(kept.getStatus().getHostIP()).isNull();
    assertThat(kept.getStatus().getContainerStatuses().get(0).getImage()).isNull();
  }
}
