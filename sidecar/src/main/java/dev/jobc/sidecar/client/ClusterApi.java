package dev.jobc.sidecar.client;

import dev.jobc.conventions.Naming;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * Every Kubernetes API call the sidecar makes, one method per resource and verb (what a Role must
 * grant is read off these names: {@code SidecarApiCalls}), on the sidecar's own {@link
 * ApiConnection}. Objects are read into fabric8's model types, holding only the fields the sidecar
 * reads ({@link PodJson}, {@link JobJson}). Writes carry field manager {@value
 * Naming#SIDECAR_FIELD_MANAGER}, which Argo CD's {@code managedFieldsManagers} names
 * (docs/gitops.md). A failed call throws an {@link ApiException} with the status, or an {@link
 * UncheckedIOException} when the server could not be reached.
 */
public final class ClusterApi {
  /** The patch types the sidecar sends, by their content type. */
  public enum PatchType {
    MERGE("application/merge-patch+json"),
    JSON("application/json-patch+json"),
    APPLY("application/apply-patch+yaml");

    final String contentType;

    PatchType(String contentType) {
      this.contentType = contentType;
    }
  }

  private static final String FIELD_MANAGER =
      "fieldManager=" + URLEncoder.encode(Naming.SIDECAR_FIELD_MANAGER, StandardCharsets.UTF_8);

  private final Supplier<ApiConnection> configure;
  private ApiConnection connection; // guarded by this

  public ClusterApi(ApiConnection connection) {
    this(() -> connection);
  }

  /**
   * An API whose connection is configured on first use, so that a command's first failure is
   * reported as it happens (a file it cannot write, say), not an API server never asked.
   */
  public ClusterApi(Supplier<ApiConnection> configure) {
    this.configure = configure;
  }

  public synchronized ApiConnection connection() {
    if (connection == null) {
      connection = configure.get();
    }
    return connection;
  }

  /** The pod, or {@code null} when there is none (404). */
  public Pod getPod(String namespace, String name) {
    byte[] body = getOrNull(pods(namespace) + "/" + encode(name), "pod " + name);
    return body == null ? null : read(() -> PodJson.pod(body));
  }

  /** The pods with every label of {@code labels}, all pages. */
  public List<Pod> listPods(String namespace, Map<String, String> labels) {
    String selector = labelSelector(labels);
    return all(cont -> listPodsPage(namespace, selector, cont));
  }

  /**
   * One page of pods ({@code selector}: {@code labelSelector=...} or {@code fieldSelector=...}).
   */
  public PodJson.Page<Pod> listPodsPage(String namespace, String selector, String cont) {
    byte[] body = list(pods(namespace), selector, cont, "pods");
    return read(() -> PodJson.page(body, PodJson::pod));
  }

  /** A watch of pods from {@code version}; see {@link Informer}. */
  public ApiConnection.Watch watchPods(String namespace, String selector, String version)
      throws IOException {
    return connection().watch(pods(namespace) + "?" + selector, version);
  }

  /** A merge or JSON patch of the pod. */
  public void patchPod(String namespace, String name, PatchType type, String patch) {
    send(
        "PATCH",
        pods(namespace) + "/" + encode(name) + "?" + FIELD_MANAGER,
        type,
        patch,
        "pod " + name);
  }

  /** The Job, or {@code null} when there is none (404). */
  public Job getJob(String namespace, String name) {
    byte[] body = getOrNull(jobs(namespace) + "/" + encode(name), "Job " + name);
    return body == null ? null : read(() -> JobJson.job(body));
  }

  /** The Jobs with every label of {@code labels}, all pages. */
  public List<Job> listJobs(String namespace, Map<String, String> labels) {
    String selector = labelSelector(labels);
    return all(cont -> listJobsPage(namespace, selector, cont));
  }

  /** Every page of a list, from the first (a {@code null} continue token) to the last. */
  private static <T> List<T> all(Informer.Pages<T> pages) {
    List<T> out = new ArrayList<>();
    String cont = null;
    do {
      PodJson.Page<T> page = pages.page(cont);
      out.addAll(page.items());
      cont = page.continueToken();
    } while (cont != null);
    return out;
  }

  /**
   * One page of Jobs ({@code selector}: {@code labelSelector=...} or {@code fieldSelector=...}).
   */
  public PodJson.Page<Job> listJobsPage(String namespace, String selector, String cont) {
    byte[] body = list(jobs(namespace), selector, cont, "Jobs");
    return read(() -> PodJson.page(body, JobJson::job));
  }

  /** A watch of Jobs from {@code version}; see {@link Informer}. */
  public ApiConnection.Watch watchJobs(String namespace, String selector, String version)
      throws IOException {
    return connection().watch(jobs(namespace) + "?" + selector, version);
  }

  /** A merge patch of the Job. */
  public void patchJob(String namespace, String name, PatchType type, String patch) {
    send(
        "PATCH",
        jobs(namespace) + "/" + encode(name) + "?" + FIELD_MANAGER,
        type,
        patch,
        "Job " + name);
  }

  /** Creates the Event {@code json}; with {@code dryRun} the server checks it and keeps nothing. */
  public void createEvent(String namespace, String json, boolean dryRun) {
    send(
        "POST",
        "/api/v1/namespaces/"
            + encode(namespace)
            + "/events?"
            + FIELD_MANAGER
            + (dryRun ? "&dryRun=All" : ""),
        null,
        json,
        "Event");
  }

  /** {@code GET} of the StatefulSet's {@code scale} subresource: the Scale's JSON. */
  public byte[] getStatefulSetScale(String namespace, String name) {
    return send("GET", scale(namespace, name), null, null, "scale of StatefulSet " + name);
  }

  /**
   * Server-side apply of the StatefulSet's {@code scale} subresource with {@code force} (it takes
   * {@code spec.replicas} over from the GitOps tool's manager); with {@code dryRun} the server
   * checks and answers and changes nothing.
   */
  public void applyStatefulSetScale(String namespace, String name, String scale, boolean dryRun) {
    send(
        "PATCH",
        scale(namespace, name)
            + "?"
            + FIELD_MANAGER
            + "&force=true"
            + (dryRun ? "&dryRun=All" : ""),
        PatchType.APPLY,
        scale,
        "scale of StatefulSet " + name);
  }

  private static String pods(String namespace) {
    return "/api/v1/namespaces/" + encode(namespace) + "/pods";
  }

  private static String jobs(String namespace) {
    return "/apis/batch/v1/namespaces/" + encode(namespace) + "/jobs";
  }

  private static String scale(String namespace, String name) {
    return "/apis/apps/v1/namespaces/"
        + encode(namespace)
        + "/statefulsets/"
        + encode(name)
        + "/scale";
  }

  /** {@code labelSelector=k1=v1,k2=v2} in key order, URL-encoded. */
  public static String labelSelector(Map<String, String> labels) {
    if (labels.isEmpty()) {
      throw new IllegalArgumentException("a selection needs a label selector");
    }
    return "labelSelector="
        + encode(
            new TreeMap<>(labels)
                .entrySet().stream()
                    .map(e -> e.getKey() + "=" + e.getValue())
                    .collect(Collectors.joining(",")));
  }

  /** {@code fieldSelector=metadata.name=<name>}, URL-encoded. */
  public static String nameSelector(String name) {
    return "fieldSelector=" + encode("metadata.name=" + name);
  }

  public static String encode(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8);
  }

  private byte[] list(String collection, String selector, String cont, String what) {
    String query =
        "?"
            + selector
            + "&limit="
            + Informer.LIST_PAGE
            + (cont == null ? "" : "&continue=" + encode(cont));
    ApiConnection.Response r;
    try {
      r = connection().list(collection + query);
    } catch (IOException e) {
      throw new UncheckedIOException("list of " + what + " failed: " + e.getMessage(), e);
    }
    if (!r.successful()) {
      throw failure("list of " + what, r);
    }
    return r.body();
  }

  private byte[] getOrNull(String path, String what) {
    ApiConnection.Response r;
    try {
      r = connection().send("GET", path, null, null);
    } catch (IOException e) {
      throw new UncheckedIOException("reading " + what + " failed: " + e.getMessage(), e);
    }
    if (r.code() == 404) {
      return null;
    }
    if (!r.successful()) {
      throw failure("reading " + what, r);
    }
    return r.body();
  }

  private byte[] send(String method, String path, PatchType type, String body, String what) {
    ApiConnection.Response r;
    String contentType = type != null ? type.contentType : body == null ? null : "application/json";
    try {
      r = connection().send(method, path, contentType, body);
    } catch (IOException e) {
      throw new UncheckedIOException(what + " (" + method + ") failed: " + e.getMessage(), e);
    }
    if (!r.successful()) {
      throw failure(what + " (" + method + ")", r);
    }
    return r.body();
  }

  private static ApiException failure(String what, ApiConnection.Response r) {
    return new ApiException(
        r.code(),
        what + " failed: HTTP " + r.code() + " " + ApiConnection.firstLine(r.text()),
        r.retryAfter());
  }

  /** Reading JSON that the server sent. */
  public interface JsonRead<T> {
    T read() throws IOException;
  }

  private static <T> T read(JsonRead<T> read) {
    try {
      return read.read();
    } catch (IOException e) {
      throw new UncheckedIOException("the API's answer cannot be read: " + e.getMessage(), e);
    }
  }
}
