package dev.jobc.sidecar;

import dev.jobc.conventions.Naming;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.http.HttpClient;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

/**
 * Ends a replica without deleting anything jobc rendered (the run-time rule): its Job is suspended
 * ({@code spec.suspend: true}; the Job controller then stops the pod and keeps the Job), or its
 * bare Pod gets {@code spec.activeDeadlineSeconds: 1} (the kubelet then ends it, {@code
 * DeadlineExceeded}; a running pod's deadline may only be set or lowered). Each is a merge patch of
 * that one field under field manager {@code jobc-sidecar}, so that Argo CD's {@code
 * managedFieldsManagers} can tell it from the fields Git holds; the objects carry Flux's {@code
 * kustomize.toolkit.fluxcd.io/ssa: IfNotPresent}.
 */
final class ReplicaStops {
  private final KubernetesClient client;
  private final String namespace;
  private final boolean podCarrier;

  ReplicaStops(KubernetesClient client, String namespace, boolean podCarrier) {
    this.client = client;
    this.namespace = namespace;
    this.podCarrier = podCarrier;
  }

  /** Ends replica {@code name}; throws when the API refuses or cannot be reached. */
  void stop(String name) {
    String base = client.getMasterUrl().toString().replaceAll("/+$", "");
    String url =
        podCarrier
            ? base + "/api/v1/namespaces/" + namespace + "/pods/" + name
            : base + "/apis/batch/v1/namespaces/" + namespace + "/jobs/" + name;
    String body =
        podCarrier ? "{\"spec\":{\"activeDeadlineSeconds\":1}}" : "{\"spec\":{\"suspend\":true}}";
    url +=
        "?fieldManager=" + URLEncoder.encode(Naming.SIDECAR_FIELD_MANAGER, StandardCharsets.UTF_8);
    HttpClient http = client.getHttpClient();
    HttpRequest request =
        http.newHttpRequestBuilder()
            .uri(url)
            .method("PATCH", "application/merge-patch+json", body)
            .build();
    HttpResponse<String> response;
    try {
      response = http.sendAsync(request, String.class).get(30, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    } catch (Exception e) {
      throw new IllegalStateException("stopping " + name + " failed: " + e, e);
    }
    if (!response.isSuccessful()) {
      String text = response.body() == null ? "" : response.body();
      int nl = text.indexOf('\n');
      throw new IllegalStateException(
          "stopping "
              + name
              + " failed: HTTP "
              + response.code()
              + " "
              + (nl < 0 ? text : text.substring(0, nl)));
    }
  }
}
