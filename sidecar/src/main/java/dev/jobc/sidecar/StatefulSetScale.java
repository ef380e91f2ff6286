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
 * Sets a StatefulSet's replicas through its {@code scale} subresource with an apply patch ({@code
 * PATCH .../statefulsets/<name>/scale}). Server-side apply records {@code jobc-sidecar} as the
 * manager of {@code spec.replicas}, which is what Argo CD's {@code managedFieldsManagers} matches;
 * {@code force} takes the field over from the GitOps tool's manager. Only the scale subresource is
 * touched, so a Role grants {@code patch} on {@code statefulsets/scale} for one name and nothing on
 * the StatefulSet itself.
 */
final class StatefulSetScale {
  private StatefulSetScale() {}

  static void apply(KubernetesClient client, String namespace, String name, int replicas) {
    String url =
        client.getMasterUrl().toString().replaceAll("/+$", "")
            + "/apis/apps/v1/namespaces/"
            + namespace
            + "/statefulsets/"
            + name
            + "/scale?fieldManager="
            + URLEncoder.encode(Naming.SIDECAR_FIELD_MANAGER, StandardCharsets.UTF_8)
            + "&force=true";
    String body =
        "{\"apiVersion\":\"autoscaling/v1\",\"kind\":\"Scale\",\"metadata\":{\"name\":\""
            + name
            + "\",\"namespace\":\""
            + namespace
            + "\"},\"spec\":{\"replicas\":"
            + replicas
            + "}}";
    HttpClient http = client.getHttpClient();
    HttpRequest request =
        http.newHttpRequestBuilder()
            .uri(url)
            .method("PATCH", "application/apply-patch+yaml", body)
            .build();
    HttpResponse<String> response;
    try {
      response = http.sendAsync(request, String.class).get(30, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    } catch (Exception e) {
      throw new IllegalStateException("scale of StatefulSet " + name + " failed: " + e, e);
    }
    if (!response.isSuccessful()) {
      throw new IllegalStateException(
          "scale of StatefulSet "
              + name
              + " failed: HTTP "
              + response.code()
              + " "
              + firstLine(response.body()));
    }
  }

  private static String firstLine(String s) {
    if (s == null) {
      return "";
    }
    int nl = s.indexOf('\n');
    return nl < 0 ? s : s.substring(0, nl);
  }
}
