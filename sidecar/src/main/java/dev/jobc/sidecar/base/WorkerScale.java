package dev.jobc.sidecar.base;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.jobc.sidecar.client.ClusterApi;
import dev.jobc.sidecar.client.JobJson;
import dev.jobc.sidecar.client.PodJson;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;

/**
 * The worker StatefulSet's {@code scale} subresource, the only part of it the sidecar touches: the
 * Role grants {@code get} and {@code patch} on {@code statefulsets/scale} for this one name and
 * nothing on the object itself.
 */
public final class WorkerScale {
  private final ClusterApi client;
  private final String namespace;

  public WorkerScale(ClusterApi client, String namespace) {
    this.client = client;
    this.namespace = namespace;
  }

  /** {@code GET .../statefulsets/<name>/scale}: the replicas asked for ({@code spec.replicas}). */
  public int replicas(String name) {
    byte[] json = client.getStatefulSetScale(namespace, name);
    Object spec;
    try (JsonParser p = PodJson.parser(json)) {
      PodJson.expect(p.nextToken(), JsonToken.START_OBJECT);
      spec = JobJson.object(p).get("spec");
    } catch (IOException e) {
      throw new UncheckedIOException("the Scale of StatefulSet " + name + " cannot be read", e);
    }
    Object replicas = spec instanceof Map<?, ?> m ? m.get("replicas") : null;
    return replicas instanceof Number n ? n.intValue() : 0;
  }

  /**
   * {@code PATCH .../statefulsets/<name>/scale} with an apply patch. Server-side apply records
   * {@code jobc-sidecar} as the manager of {@code spec.replicas}, which is what Argo CD's {@code
   * managedFieldsManagers} matches; {@code force} takes the field over from the GitOps tool's
   * manager.
   */
  public void scale(String name, int replicas) {
    scale(name, replicas, false);
  }

  /**
   * The same request with {@code dryRun=All}: the API server checks and answers it and changes
   * nothing. Sent at start, it loads and compiles what the real one needs.
   */
  public void dryRun(String name, int replicas) {
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
    client.applyStatefulSetScale(namespace, name, body, dryRun);
  }
}
