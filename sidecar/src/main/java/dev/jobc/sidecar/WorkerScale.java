package dev.jobc.sidecar;

import dev.jobc.conventions.Naming;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.http.HttpClient;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The worker StatefulSet's {@code scale} subresource, the only part of it the sidecar touches: the
 * Role grants {@code get} and {@code patch} on {@code statefulsets/scale} for this one name and
 * nothing on the object itself.
 */
final class WorkerScale {
  private final KubernetesClient client;
  private final String namespace;

  WorkerScale(KubernetesClient client, String namespace) {
    this.client = client;
    this.namespace = namespace;
  }

  /** {@code GET .../statefulsets/<name>/scale}: the replicas asked for ({@code spec.replicas}). */
  int replicas(String name) {
    HttpResponse<String> response = send(name, url(name), "GET", null, null);
    Object spec = Serialization.unmarshal(response.body(), Map.class).get("spec");
    Object replicas = spec instanceof Map<?, ?> m ? m.get("replicas") : null;
    return replicas instanceof Number n ? n.intValue() : 0;
  }

  /**
   * {@code PATCH .../statefulsets/<name>/scale} with an apply patch. Server-side apply records
   * {@code jobc-sidecar} as the manager of {@code spec.replicas}, which is what Argo CD's {@code
   * managedFieldsManagers} matches; {@code force} takes the field over from the GitOps tool's
   * manager.
   */
  void scale(String name, int replicas) {
    scale(name, replicas, false);
  }

  /**
   * The same request with {@code dryRun=All}: the API server checks and answers it and changes
   * nothing. Sent at start, it loads and compiles what the real one needs.
   */
  void dryRun(String name, int replicas) {
    scale(name, replicas, true);
  }

  private void scale(String name, int replicas, boolean dryRun) {
    String body =
        "{\"apiVersion\":\"autoscaling/v1\",\"kind\":\"Scale\",\"metadata\":{\"name\":\""
            + name
            + "\",\"namespace\":\""
            + namespace
            + "\"},\"spec\":{\"replicas\":"
            + replicas
            + "}}";
    send(
        name,
        url(name)
            + "?fieldManager="
            + URLEncoder.encode(Naming.SIDECAR_FIELD_MANAGER, StandardCharsets.UTF_8)
            + "&force=true"
            + (dryRun ? "&dryRun=All" : ""),
        "PATCH",
        "application/apply-patch+yaml",
        body);
  }

  private String url(String name) {
    return client.getMasterUrl().toString().replaceAll("/+$", "")
        + "/apis/apps/v1/namespaces/"
        + namespace
        + "/statefulsets/"
        + name
        + "/scale";
  }

  private HttpResponse<String> send(
      String name, String url, String method, String contentType, String body) {
    HttpClient http = client.getHttpClient();
    HttpRequest.Builder b = http.newHttpRequestBuilder().uri(url);
    HttpRequest request = body == null ? b.build() : b.method(method, contentType, body).build();
    String what = "scale of StatefulSet " + name + " (" + method + ")";
    HttpResponse<String> response;
    try {
      response = http.sendAsync(request, String.class).get(30, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new KubernetesClientException(what + ": interrupted", e);
    } catch (Exception e) {
      throw new KubernetesClientException(what + " failed: " + e, e);
    }
    if (!response.isSuccessful()) {
      throw new KubernetesClientException(
          what + " failed: HTTP " + response.code() + " " + firstLine(response.body()),
          response.code(),
          null);
    }
    return response;
  }

  private static String firstLine(String s) {
    if (s == null) {
      return "";
    }
    int nl = s.indexOf('\n');
    return nl < 0 ? s : s.substring(0, nl);
  }
}
