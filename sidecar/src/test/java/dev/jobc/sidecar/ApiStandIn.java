package dev.jobc.sidecar;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jobc.sidecar.base.ApiClients;
import dev.jobc.sidecar.client.ApiConnection;
import dev.jobc.sidecar.client.Backoff;
import dev.jobc.sidecar.client.ClusterApi;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.NonDeletingOperation;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.fabric8.mockwebserver.http.Dispatcher;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.fabric8.mockwebserver.http.Response;
import io.fabric8.mockwebserver.http.WebSocket;
import io.fabric8.mockwebserver.http.WebSocketListener;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;

/**
 * A stand-in API server on loopback: fabric8's mock in CRUD mode (with watches) as the store,
 * served to the sidecar as kube-apiserver serves lists and watches ({@link ApiServerHttp}: HTTP
 * watches, {@code timeoutSeconds}, bookmarks, WebSocket upgrades without an origin refused), plus
 * failures injected into the sidecar's requests only (told apart by their user agent): watch
 * connections dropped or silent, the next watch ended with {@code 410 Gone}, expired continue
 * tokens, {@code 429} with {@code Retry-After}, lists that trickle, the whole API unavailable. It
 * also counts the sidecar's list and watch requests and records its scale patches. The tests' own
 * requests ({@link #admin}) go to the mock directly.
 *
 * <p>As a cluster would, it answers the sidecar only what the <b>Role jobc renders</b> for the
 * scenario grants ({@link #role}); a test that has none says why ({@link #withoutRole}), or every
 * request of the sidecar is refused. At {@link #close} it fails the test on any request refused, on
 * any request the reading of the code ({@link SidecarApiCalls}) does not list for the command, and
 * on any change to an object the scenario {@link #rendered} (what Git holds) that the run-time rule
 * forbids ({@link GitOpsRules}).
 */
public final class ApiStandIn implements AutoCloseable {
  public static final String NS = "team";

  private final KubernetesCrudDispatcher crud = new KubernetesCrudDispatcher(List.of());
  private final KubernetesMockServer server;
  private final Faults faults = new Faults();

  /** What the sidecar talks to: kube-apiserver's HTTP protocol in front of the store. */
  private final ApiServerHttp http;

  public final AtomicBoolean down = new AtomicBoolean();

  /** The sidecar's requests answered 503 while {@link #down}, as {@code METHOD path}. */
  public final List<String> refusedWhileDown = new CopyOnWriteArrayList<>();

  /** The next this many requests of the sidecar are answered 429 with {@link #retryAfter}. */
  public final AtomicInteger tooManyRequests = new AtomicInteger();

  /**
   * The next this many requests of the sidecar are answered 503 with {@link #retryAfter}, as a
   * server or proxy that is briefly unavailable may (client-go rest/request.go, {@code checkWait},
   * waits out a {@code Retry-After} on a 429 and on every 5xx).
   */
  public final AtomicInteger unavailable = new AtomicInteger();

  /** The {@code Retry-After} of a 429 or a 503, in seconds. */
  public volatile int retryAfter = 1;

  /** The bearer token of each request of the sidecar, in order ({@code (none)}: none). */
  public final List<String> tokens = new CopyOnWriteArrayList<>();

  /** The next this many list pages asked for with a continue token are answered 410 (expired). */
  public final AtomicInteger expireContinue = new AtomicInteger();

  /** The sidecar's lists of anything (first pages only: each is one list). */
  public final AtomicInteger allLists = new AtomicInteger();

  public final AtomicBoolean goneOnNextWatch = new AtomicBoolean();
  public final AtomicInteger lists = new AtomicInteger();
  public final AtomicInteger watchRequests = new AtomicInteger();
  public final AtomicInteger scaleFailures = new AtomicInteger();

  /** The sidecar's reads of a scale subresource. */
  public final AtomicInteger scaleReads = new AtomicInteger();

  /** How long the answer to a scale patch takes (a slow API server); none by default. */
  public volatile Duration scaleDelay = Duration.ZERO;

  public final List<RecordedRequest> scalePatches = new CopyOnWriteArrayList<>();

  /** The bodies of {@link #scalePatches}, in order. */
  public final List<String> scaleBodies = new CopyOnWriteArrayList<>();

  /**
   * The {@code scale} subresource of StatefulSets by name (the CRUD mock has none): what {@code GET
   * .../scale} answers and an apply patch sets. A name not here answers 404, as kube-apiserver's
   * {@code ScaleREST} does for a StatefulSet that does not exist (kubernetes/kubernetes {@code
   * pkg/registry/apps/statefulset/storage/storage.go}).
   */
  public final Map<String, Integer> scales = new ConcurrentHashMap<>();

  /**
   * The rules of the Role jobc renders for the scenario: the sidecar's requests are checked against
   * them, as RBAC would. Without one (and without {@link #withoutRole}) every request of the
   * sidecar is refused.
   */
  public volatile RoleCheck role;

  /** Why the test runs the sidecar with every request granted, or {@code null}. */
  private volatile String withoutRole;

  /**
   * The sidecar's requests with {@code dryRun=All}, as {@code METHOD path}: answered, not applied.
   */
  public final List<String> dryRuns = new CopyOnWriteArrayList<>();

  /** The paths of the sidecar's pod lists (first pages and later ones), as sent. */
  public final List<String> podLists = new CopyOnWriteArrayList<>();

  /** {@link #podLists}, URL-decoded. */
  public List<String> podLists() {
    return podLists.stream()
        .map(p -> java.net.URLDecoder.decode(p, java.nio.charset.StandardCharsets.UTF_8))
        .toList();
  }

  /** The sidecar's requests the {@link #role} denied (answered 403). */
  public final List<String> denied = new CopyOnWriteArrayList<>();

  /** Every request of the sidecar: its user agent, method and path (audited at the end). */
  private final List<String[]> requests = new CopyOnWriteArrayList<>();

  /** Every request of the sidecar, as the command that made it and the request it is. */
  public final List<String> sidecarRequests = new CopyOnWriteArrayList<>();

  /** What Git holds in this scenario, as rendered: the run-time rule is checked against it. */
  private volatile List<HasMetadata> rendered = List.of();

  /** Changes of the sidecar to rendered objects that the run-time rule forbids. */
  public final List<String> forbidden = new CopyOnWriteArrayList<>();

  /** The sidecar's requests that {@link SidecarApiCalls} does not list for the command. */
  public final List<String> unlisted = new CopyOnWriteArrayList<>();

  /**
   * The fields each manager set, by object ({@code group/resource/name}): JSON pointers of what its
   * writes contained, as the API server's {@code managedFields} would record them.
   */
  public final Map<String, Map<String, Set<String>>> managedFields = new ConcurrentHashMap<>();

  public final KubernetesClient admin;

  private static final ObjectMapper JSON = new ObjectMapper();

  /** The list the last first page was taken from; later pages come from it. */
  private volatile ObjectNode lastPaged;

  /** How often {@link #retrying} sends one of the stand-in's own requests. */
  private static final int ADMIN_ATTEMPTS = 3;

  /** Where pods live instead of the CRUD mock, or {@code null} (see {@link #withPodTable}). */
  public final PodTable podTable;

  public ApiStandIn() {
    this(null, false);
  }

  /**
   * A stand-in whose pods live in a {@link PodTable}: for thousands of realistic pods, which the
   * CRUD mock cannot serve in time. The stand-in's own pod changes go to the table directly.
   */
  public static ApiStandIn withPodTable() {
    return withPodTable(false);
  }

  /**
   * {@link #withPodTable()}, served over HTTPS when {@code tls} (with the mock server's self-signed
   * certificate for {@code localhost}; see {@link #serverCertificate}).
   */
  public static ApiStandIn withPodTable(boolean tls) {
    return new ApiStandIn(new PodTable(), tls);
  }

  private ApiStandIn(PodTable podTable, boolean tls) {
    this.podTable = podTable;
    server =
        new KubernetesMockServer(
            new Context(new com.fasterxml.jackson.databind.ObjectMapper()),
            new MockWebServer(),
            new HashMap<>(),
            faults,
            false);
    server.start(java.net.InetAddress.getLoopbackAddress(), 0);
    http = new ApiServerHttp(faults::dispatch, tls);
    admin = client("test-admin");
  }

  /** The sidecar's API as it makes it, with short pauses before a watch is opened again. */
  public ClusterApi sidecarClient() {
    return sidecarApi(ApiClients.USER_AGENT);
  }

  /** The API as {@code command}'s process makes it ({@link ApiClients#userAgent}). */
  public ClusterApi sidecarClient(String command) {
    return sidecarApi(ApiClients.userAgent(command));
  }

  private ClusterApi sidecarApi(String userAgent) {
    // Generous timeouts: a 2-core machine under a parallel build can stall the first requests.
    // Tests assert outcomes, not durations.
    return new ClusterApi(
        connection(userAgent, Duration.ofSeconds(60), ApiConnection.MIN_WATCH_TIMEOUT));
  }

  /** Short pauses between an informer's attempts, so that tests of retries do not wait long. */
  public static final Backoff.Settings BACKOFF =
      new Backoff.Settings(
          Duration.ofMillis(50), Duration.ofSeconds(1), Duration.ofMinutes(2), 2.0, 1.0);

  /**
   * The sidecar's connection to the stand-in, trusting its certificate when it serves HTTPS, with
   * the timeout of a request and the shortest {@code timeoutSeconds} of a watch given.
   */
  public ApiConnection connection(
      String userAgent, Duration requestTimeout, Duration watchTimeout) {
    java.util.function.Supplier<javax.net.ssl.SSLContext> trust = null;
    if (tls()) {
      try {
        javax.net.ssl.SSLContext context =
            ApiConnection.trusting(
                serverCertificate().getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        trust = () -> context;
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return new ApiConnection(
        java.net.URI.create(url()),
        () -> "stand-in",
        trust,
        userAgent,
        Duration.ofSeconds(60),
        requestTimeout,
        watchTimeout,
        BACKOFF);
  }

  /** Watches answered and then silent, without an end: dead connections (or not, for false). */
  public void silentWatches(boolean silent) {
    http.silentWatches = silent;
  }

  /** Watches answered and ended at once, without an event (or not, for false). */
  public void endWatchesAtOnce(boolean atOnce) {
    http.endAtOnce = atOnce;
  }

  /** Every list answer written one byte per {@code interval} ({@code null}: at once). */
  public void trickleLists(Duration interval) {
    http.trickle = interval;
  }

  /** WebSocket upgrades refused for want of an {@code Origin}. */
  public int refusedUpgrades() {
    return http.refusedUpgrades.get();
  }

  /** Runs the scenario under the Role {@code role} that jobc rendered for it. */
  public ApiStandIn under(io.fabric8.kubernetes.api.model.rbac.Role role) {
    this.role = RoleCheck.of(role);
    return this;
  }

  /** Grants the sidecar every request, for {@code reason} (which must say why no Role applies). */
  public ApiStandIn withoutRole(String reason) {
    if (reason == null || reason.isBlank()) {
      throw new IllegalArgumentException("say why the sidecar runs without the rendered Role");
    }
    this.withoutRole = reason;
    return this;
  }

  /** What Git holds in this scenario: changes to these objects are checked against the rule. */
  public ApiStandIn rendered(List<HasMetadata> objects) {
    this.rendered = List.copyOf(objects);
    return this;
  }

  /**
   * The tests' own client: fabric8's over the JDK's HTTP client, straight to the mock (the
   * sidecar's requests go through {@link ApiServerHttp} instead).
   */
  private KubernetesClient client(String userAgent) {
    return new KubernetesClientBuilder().withConfig(config(userAgent)).build();
  }

  /** Whether the stand-in serves HTTPS. */
  public boolean tls() {
    return url().startsWith("https:");
  }

  /** The certificate the HTTPS stand-in presents, PEM-encoded: the CA a client must trust. */
  public String serverCertificate() throws IOException {
    return ApiServerHttp.certificatePem();
  }

  private Config config(String userAgent) {
    return new ConfigBuilder(Config.empty())
        .withMasterUrl(server.url("/"))
        .withTrustCerts(server.url("/").startsWith("https:"))
        .withNamespace(NS)
        .withUserAgent(userAgent)
        // Generous: a 2-core machine under a parallel build can stall the first requests, and a
        // timed-out create that is retried fails with 409. Tests assert outcomes, not durations.
        .withRequestTimeout(60_000)
        .withConnectionTimeout(60_000)
        .withWatchReconnectInterval(50)
        .withRequestRetryBackoffLimit(1)
        .withRequestRetryBackoffInterval(20)
        .build();
  }

  /** The URL the sidecar talks to. */
  public String url() {
    return http.url();
  }

  /** Drops every open watch connection of the sidecar (as a load balancer or restart would). */
  public void dropWatches() {
    http.dropWatches();
  }

  /** The sidecar's watches open now. */
  public int openWatches() {
    return http.openWatches();
  }

  @Override
  public void close() {
    admin.close();
    http.close();
    server.shutdown();
    // Here, not while answering: reading the byte code the first time takes a while.
    for (String[] r : requests) {
      audit(r[0], r[1], r[2]);
    }
    List<String> problems = new ArrayList<>();
    denied.forEach(d -> problems.add("refused (not granted by the rendered Role): " + d));
    unlisted.forEach(u -> problems.add("not among the calls SidecarApiCalls reads: " + u));
    forbidden.forEach(f -> problems.add("against the run-time rule: " + f));
    if (!problems.isEmpty()) {
      throw new AssertionError("the sidecar's requests:\n  " + String.join("\n  ", problems));
    }
  }

  /**
   * Checks one request of the sidecar: whether the code reading lists it for the command that made
   * it (the command is the user agent's second part; none, every command's), and whether it changes
   * an object Git holds against the rule.
   */
  private void audit(String agent, String method, String path) {
    String[] problem = new String[1];
    RoleCheck.Request r = RoleCheck.Request.parse(method, path, problem);
    String command = agent.contains("/") ? agent.substring(agent.indexOf('/') + 1) : null;
    sidecarRequests.add((command == null ? "?" : command) + " " + (r == null ? problem[0] : r));
    if (r == null) {
      return;
    }
    if (!SidecarApiCalls.covers(command, r.groupResource(), r.verb())) {
      unlisted.add((command == null ? "a command" : command) + ": " + r);
    }
    if (r.name() == null
        || r.verb().equals("get")
        || r.verb().equals("list")
        || r.verb().equals("watch")
        || r.verb().equals("create")) {
      return;
    }
    String plural =
        r.resource().contains("/")
            ? r.resource().substring(0, r.resource().indexOf('/'))
            : r.resource();
    for (HasMetadata o : rendered) {
      if (GitOpsRules.group(o).equals(r.group())
          && (o.getKind().toLowerCase(java.util.Locale.ROOT) + "s").equals(plural)
          && o.getMetadata().getName().equals(r.name())) {
        String why =
            r.verb().startsWith("delete")
                ? "deletes what Git holds"
                : GitOpsRules.whyNotChangeable(o);
        if (why != null) {
          forbidden.add(r + ": " + o.getKind() + " " + r.name() + " " + why);
        }
      }
    }
  }

  /** Records the fields a write sets under its manager ({@code fieldManager}, else the agent). */
  private void recordFields(RecordedRequest request, String body) {
    String method = request.getMethod();
    if (!("PATCH".equals(method) || "PUT".equals(method) || "POST".equals(method))
        || body == null
        || body.isEmpty()) {
      return;
    }
    String[] problem = new String[1];
    String path = request.getPath();
    RoleCheck.Request r = RoleCheck.Request.parse(method, path, problem);
    if (r == null) {
      return;
    }
    String agent = String.valueOf(request.getHeader("User-Agent"));
    String manager = agent.contains("/") ? agent.substring(0, agent.indexOf('/')) : agent;
    java.util.regex.Matcher m =
        java.util.regex.Pattern.compile("[?&]fieldManager=([^&]+)").matcher(path);
    if (m.find()) {
      manager = java.net.URLDecoder.decode(m.group(1), java.nio.charset.StandardCharsets.UTF_8);
    }
    com.fasterxml.jackson.databind.JsonNode tree;
    try {
      tree = new com.fasterxml.jackson.databind.ObjectMapper().readTree(body);
    } catch (java.io.IOException e) {
      return;
    }
    String name = r.name() != null ? r.name() : tree.path("metadata").path("name").asText();
    String plural =
        r.resource().contains("/")
            ? r.resource().substring(0, r.resource().indexOf('/'))
            : r.resource();
    Set<String> fields =
        managedFields
            .computeIfAbsent(r.group() + "/" + plural + "/" + name, k -> new ConcurrentHashMap<>())
            .computeIfAbsent(manager, k -> ConcurrentHashMap.newKeySet());
    leaves(tree, "", fields);
  }

  private static void leaves(
      com.fasterxml.jackson.databind.JsonNode node, String at, Set<String> out) {
    if (node.isObject() && node.size() > 0) {
      for (var e : node.properties()) {
        leaves(e.getValue(), at + "/" + e.getKey().replace("~", "~0").replace("/", "~1"), out);
      }
    } else {
      out.add(at);
    }
  }

  // Pods.

  public static Pod worker(String job, int index, boolean ready, String ip) {
    return new PodBuilder()
        .withNewMetadata()
        .withName(job + "-worker-" + index)
        .withNamespace(NS)
        .withLabels(
            Map.of(
                "training.kubeflow.org/operator-name", "mpi-operator",
                "training.kubeflow.org/job-name", job,
                "training.kubeflow.org/job-role", "worker"))
        .endMetadata()
        .withNewStatus()
        .withPhase("Running")
        .withPodIP(ip)
        .addNewCondition()
        .withType("Ready")
        .withStatus(ready ? "True" : "False")
        .endCondition()
        .endStatus()
        .build();
  }

  public static Pod launcher(String job) {
    return launcher(job, "Never");
  }

  /** The launcher pod of {@code job}'s Job with restart policy {@code policy}, Pending. */
  public static Pod launcher(String job, String policy) {
    return new PodBuilder()
        .withNewMetadata()
        .withName(job + "-launcher-abcde")
        .withNamespace(NS)
        .withLabels(
            Map.of(
                "training.kubeflow.org/operator-name", "mpi-operator",
                "training.kubeflow.org/job-name", job,
                "training.kubeflow.org/job-role", "launcher"))
        .withOwnerReferences(
            new OwnerReferenceBuilder()
                .withApiVersion("batch/v1")
                .withKind("Job")
                .withName(job + "-launcher")
                .withUid("0b5c7d1e-job-uid")
                .withController(true)
                .build())
        .endMetadata()
        .withNewSpec()
        .withRestartPolicy(policy)
        .endSpec()
        .withNewStatus()
        .withPhase("Pending")
        .endStatus()
        .build();
  }

  /**
   * The pod is being deleted (evicted, preempted, drained or deleted): deleted while a finalizer
   * holds it, so that the API keeps it with its deletion timestamp, as during a graceful deletion.
   */
  public void deleting(String name) {
    edit(
        NS,
        name,
        p ->
            new PodBuilder(p)
                .editMetadata()
                .addToFinalizers("test/graceful")
                .endMetadata()
                .build());
    if (podTable != null) {
      podTable.edit(
          name,
          p ->
              new PodBuilder(p)
                  .editMetadata()
                  .withDeletionTimestamp("2026-11-26T08:00:00Z")
                  .endMetadata()
                  .build());
      return;
    }
    retrying(() -> admin.pods().inNamespace(NS).withName(name).delete());
  }

  /**
   * The launcher Job as the Job controller keeps it: {@code backoffLimit}, {@code failed} pods so
   * far, {@code spec.suspend}, and a condition ({@code type=reason}) when {@code condition} is
   * given.
   */
  public static Job launcherJob(
      String job, int backoffLimit, int failed, boolean suspend, String condition) {
    JobBuilder b =
        new JobBuilder()
            .withNewMetadata()
            .withName(job + "-launcher")
            .withNamespace(NS)
            .withUid("0b5c7d1e-job-uid")
            .endMetadata()
            .withNewSpec()
            .withBackoffLimit(backoffLimit)
            .withSuspend(suspend)
            .endSpec()
            .withNewStatus()
            .withFailed(failed)
            .endStatus();
    if (condition != null) {
      String[] typeAndReason = condition.split("=");
      b.editStatus()
          .addNewCondition()
          .withType(typeAndReason[0])
          .withStatus("True")
          .withReason(typeAndReason.length > 1 ? typeAndReason[1] : null)
          .endCondition()
          .endStatus();
    }
    return b.build();
  }

  public void create(Job job) {
    retrying(
        () ->
            admin
                .batch()
                .v1()
                .jobs()
                .inNamespace(NS)
                .resource(job)
                .createOr(NonDeletingOperation::update));
  }

  /** Replaces the Job's spec.suspend and status as the Job controller would. */
  public void update(Job job) {
    retrying(
        () ->
            admin
                .batch()
                .v1()
                .jobs()
                .inNamespace(NS)
                .withName(job.getMetadata().getName())
                .edit(
                    j ->
                        new JobBuilder(j)
                            .withSpec(job.getSpec())
                            .withStatus(job.getStatus())
                            .build()));
  }

  public void create(Pod pod) {
    if (podTable != null) {
      podTable.put(pod);
      return;
    }
    // createOr(update): when the mock server stalls (mockwebserver 7.8.0 can hold its event loop
    // for a minute around a closing watch), the client retries a create that did succeed, and a
    // plain create would then fail the test with "already exists".
    retrying(
        () -> admin.pods().inNamespace(NS).resource(pod).createOr(NonDeletingOperation::update));
  }

  public void setReady(String name, boolean ready) {
    setReady(NS, name, ready);
  }

  public void setReady(String namespace, String name, boolean ready) {
    edit(
        namespace,
        name,
        p ->
            new PodBuilder(p)
                .editStatus()
                .editFirstCondition()
                .withStatus(ready ? "True" : "False")
                .endCondition()
                .endStatus()
                .build());
  }

  public void setPhase(String name, String phase) {
    setPhase(NS, name, phase);
  }

  public void setPhase(String namespace, String name, String phase) {
    edit(namespace, name, p -> new PodBuilder(p).editStatus().withPhase(phase).endStatus().build());
  }

  /** Edits pod {@code name} as the kubelet or a controller would. */
  public void editPod(String name, UnaryOperator<Pod> change) {
    edit(NS, name, change);
  }

  /**
   * Edits a pod, again on a conflict: when the mock server stalls an answer, the client retries a
   * PATCH the server already applied, and the retry's resource version is then out of date. The
   * edit sets an absolute state, so applying it twice is harmless.
   */
  private void edit(String namespace, String name, UnaryOperator<Pod> change) {
    if (podTable != null) {
      podTable.edit(name, change);
      return;
    }
    retrying(() -> admin.pods().inNamespace(namespace).withName(name).edit(change));
  }

  /**
   * Runs one of the stand-in's own requests, again when mockwebserver left it unanswered (its event
   * loop can stall for a minute around a closing watch) or when the client's retry of a request the
   * server did apply conflicts. Every such request sets an absolute state, so running it twice is
   * harmless; the sidecar's own requests are never retried here.
   */
  public static void retrying(Runnable request) {
    for (int attempt = 1; ; attempt++) {
      try {
        request.run();
        return;
      } catch (KubernetesClientException e) {
        if (!(e.getCode() == 409 || timedOut(e)) || attempt == ADMIN_ATTEMPTS) {
          throw e;
        }
      }
    }
  }

  private static boolean timedOut(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t.getClass().getSimpleName().contains("Timeout")
          || String.valueOf(t.getMessage()).contains("timeout period")) {
        return true;
      }
    }
    return false;
  }

  /** The status of container {@code name}: running after {@code restarts} restarts. */
  public static ContainerStatus running(String name, int restarts) {
    return new ContainerStatusBuilder()
        .withName(name)
        .withRestartCount(restarts)
        .withNewState()
        .withNewRunning()
        .endRunning()
        .endState()
        .build();
  }

  /** The status of container {@code name}: terminated with {@code code}. */
  public static ContainerStatus terminated(String name, int code) {
    return new ContainerStatusBuilder()
        .withName(name)
        .withRestartCount(0)
        .withNewState()
        .withNewTerminated()
        .withExitCode(code)
        .endTerminated()
        .endState()
        .build();
  }

  /** {@code pod} in {@code phase} with every (main) container in the state {@code status} gives. */
  public static Pod everyContainer(
      Pod pod, String phase, java.util.function.Function<String, ContainerStatus> status) {
    List<ContainerStatus> statuses = new ArrayList<>();
    for (var c : pod.getSpec().getContainers()) {
      statuses.add(status.apply(c.getName()));
    }
    return new PodBuilder(pod)
        .editOrNewStatus()
        .withPhase(phase)
        .withContainerStatuses(statuses)
        .endStatus()
        .build();
  }

  /** The launcher pod's main container runs (the gate has opened). */
  public void launcherRunning(String name, String container) {
    edit(
        NS,
        name,
        p ->
            new PodBuilder(p)
                .editStatus()
                .withPhase("Running")
                .withContainerStatuses(running(container, 0))
                .endStatus()
                .build());
  }

  /** The launcher pod's main container has terminated with {@code code}. */
  public void launcherEnded(String name, String container, int code) {
    launcherEnded(NS, name, container, code);
  }

  public void launcherEnded(String namespace, String name, String container, int code) {
    edit(
        namespace,
        name,
        p ->
            new PodBuilder(p)
                .editStatus()
                .withContainerStatuses(terminated(container, code))
                .endStatus()
                .build());
  }

  public void delete(String name) {
    if (podTable != null) {
      podTable.delete(name);
      return;
    }
    retrying(() -> admin.pods().inNamespace(NS).withName(name).delete());
  }

  private final class Faults extends Dispatcher {
    /**
     * A request of the sidecar, or a write, may change what a test waits for: tell {@link
     * Eventually} once it is answered. Not the tests' own reads: a condition that reads the API
     * would otherwise wake itself.
     */
    @Override
    public MockResponse dispatch(RecordedRequest request) {
      String agent = request.getHeader("User-Agent");
      boolean signals =
          (agent != null && agent.startsWith(ApiClients.USER_AGENT))
              || !"GET".equals(request.getMethod());
      // Read without consuming it: the CRUD dispatcher and the scale handler read it afterwards.
      String body =
          request.getBody() == null
              ? null
              : new String(request.getBody().getBytes(), java.nio.charset.StandardCharsets.UTF_8);
      try {
        MockResponse response = answer(request);
        if (response.code() < 300) {
          recordFields(request, body);
        }
        return response;
      } finally {
        if (signals) {
          Eventually.changed();
        }
      }
    }

    private MockResponse answer(RecordedRequest request) {
      String agent = request.getHeader("User-Agent");
      boolean table = podTable != null && PodTable.serves(request.getPath());
      if (agent == null || !agent.startsWith(ApiClients.USER_AGENT)) {
        return table ? podTable.answer(request) : crud.dispatch(request);
      }
      String path = request.getPath();
      String authorization = request.getHeader("Authorization");
      tokens.add(
          authorization != null && authorization.startsWith("Bearer ")
              ? authorization.substring("Bearer ".length())
              : "(none)");
      boolean watch = path.contains("watch=true");
      if (watch) {
        watchRequests.incrementAndGet();
      }
      if (down.get()) {
        refusedWhileDown.add(request.getMethod() + " " + path);
        return status(503, "ServiceUnavailable", "the API is down (test)");
      }
      if (tooManyRequests.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
        // k8s.io/apiserver pkg/server/filters/maxinflight.go, tooManyRequests: 429, Retry-After.
        return status(429, "TooManyRequests", "Too many requests, please try again later.")
            .setHeader("Retry-After", retryAfter);
      }
      if (unavailable.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
        return status(503, "ServiceUnavailable", "the API is briefly unavailable (test)")
            .setHeader("Retry-After", retryAfter);
      }
      boolean collection = path.matches("[^?]*/(pods|jobs)(\\?.*)?");
      if (!watch && "GET".equals(request.getMethod()) && collection) {
        if (!path.contains("continue=")) {
          allLists.incrementAndGet();
        } else if (expireContinue.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
          // k8s.io/apiserver pkg/storage/errors.go, NewResourceExpired: 410 for an old token.
          return status(
              410,
              "Expired",
              "The provided continue parameter is too old to display a consistent list result.");
        }
      }
      requests.add(new String[] {agent, request.getMethod(), path});
      RoleCheck check = role;
      String refused =
          check != null
              ? check.refuses(request.getMethod(), path)
              : withoutRole != null
                  ? null
                  : request.getMethod() + " " + path + " (no Role: the test set none)";
      if (refused != null) {
        denied.add(refused);
        return status(403, "Forbidden", "not granted by the Role: " + refused);
      }
      if (!watch && "GET".equals(request.getMethod()) && path.matches(".*/pods(\\?.*)?")) {
        podLists.add(path);
      }
      if (path.contains("dryRun=All")) {
        // Checked and answered, changing nothing, as the API server does.
        dryRuns.add(request.getMethod() + " " + path);
        String body = request.getUtf8Body();
        return new MockResponse()
            .setResponseCode(200)
            .setBody(body == null || body.isEmpty() ? "{}" : body);
      }
      if (path.contains("/scale")) {
        String name = path.replaceAll(".*/statefulsets/([^/]+)/scale.*", "$1");
        if ("PATCH".equals(request.getMethod())) {
          if (scaleFailures.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
            return status(500, "InternalError", "injected scale failure");
          }
          // The body can be read once: keep it for the test.
          String body = request.getUtf8Body();
          scalePatches.add(request);
          scaleBodies.add(body);
          int replicas = Integer.parseInt(body.replaceAll(".*\"replicas\":(\\d+).*", "$1"));
          scales.put(name, replicas);
          MockResponse scaled = new MockResponse().setResponseCode(200).setBody(scale(replicas));
          // The mock schedules a timer for any delay it is given, and rejects one of 0 ms.
          return scaleDelay.isZero() ? scaled : scaled.setBodyDelay(scaleDelay);
        }
        scaleReads.incrementAndGet();
        Integer replicas = scales.get(name);
        return replicas == null
            ? status(404, "NotFound", "statefulsets.apps \\\"" + name + "\\\" not found")
            : new MockResponse().setResponseCode(200).setBody(scale(replicas));
      }
      if (watch && goneOnNextWatch.getAndSet(false)) {
        return new MockResponse()
            .withWebSocketUpgrade(
                new WebSocketListener() {
                  @Override
                  public void onOpen(WebSocket ws, Response response) {
                    ws.send(
                        "{\"type\":\"ERROR\",\"object\":{\"kind\":\"Status\",\"apiVersion\":\"v1\","
                            + "\"status\":\"Failure\",\"reason\":\"Expired\",\"code\":410,"
                            + "\"message\":\"too old resource version\"}}");
                    ws.close(1000, "gone");
                  }
                });
      }
      if (!watch && "GET".equals(request.getMethod()) && path.contains("/pods?")) {
        // A list is its first page; later pages continue it.
        if (!path.contains("continue=")) {
          lists.incrementAndGet();
        }
        if (path.contains("limit=") && !table) {
          return page(request);
        }
      }
      if (table) {
        return podTable.answer(request);
      }
      MockResponse response = crud.dispatch(request);
      WebSocketListener inner = response.getWebSocketListener();
      if (watch && inner != null) {
        return response.withWebSocketUpgrade(new Tracked(inner));
      }
      return response;
    }

    /**
     * A list in pages, as the API server serves {@code limit} and {@code continue} (the CRUD mock
     * ignores both): the first page takes a snapshot of the whole list, the continue token names
     * that snapshot and the offset of the next page, and the last page has no token.
     */
    private MockResponse page(RecordedRequest request) {
      String path = request.getPath();
      int limit = Integer.parseInt(query(path, "limit"));
      String token = query(path, "continue");
      ObjectNode list;
      int offset = 0;
      if (token == null) {
        MockResponse all = crud.dispatch(request);
        if (all.code() != 200) {
          return all;
        }
        try {
          list = (ObjectNode) JSON.readTree(all.getBody().readUtf8());
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
        lastPaged = list;
      } else {
        list = lastPaged;
        offset = Integer.parseInt(token);
      }
      ArrayNode items = (ArrayNode) list.get("items");
      ObjectNode page = list.deepCopy();
      ArrayNode pageItems = page.putArray("items");
      int end = Math.min(items.size(), offset + limit);
      for (int i = offset; i < end; i++) {
        pageItems.add(items.get(i));
      }
      ObjectNode meta = page.withObject("/metadata");
      if (end < items.size()) {
        meta.put("continue", Integer.toString(end));
      } else {
        meta.remove("continue");
      }
      return new MockResponse().setResponseCode(200).setBody(page.toString());
    }

    private static String query(String path, String name) {
      int q = path.indexOf('?');
      if (q < 0) {
        return null;
      }
      for (String param : path.substring(q + 1).split("&")) {
        if (param.startsWith(name + "=")) {
          return java.net.URLDecoder.decode(
              param.substring(name.length() + 1), java.nio.charset.StandardCharsets.UTF_8);
        }
      }
      return null;
    }

    private static String scale(int replicas) {
      return "{\"apiVersion\":\"autoscaling/v1\",\"kind\":\"Scale\",\"spec\":{\"replicas\":"
          + replicas
          + "}}";
    }

    private MockResponse status(int code, String reason, String message) {
      return ApiStandIn.status(code, reason, message);
    }
  }

  /** A Kubernetes {@code Status} answer. */
  public static MockResponse status(int code, String reason, String message) {
    return new MockResponse()
        .setResponseCode(code)
        .setBody(
            "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\",\"reason\":\""
                + reason
                + "\",\"message\":\""
                + message
                + "\",\"code\":"
                + code
                + "}");
  }

  /** Passes a watch's end on without blocking the thread that serves it. */
  private final class Tracked extends WebSocketListener {
    private final WebSocketListener inner;

    Tracked(WebSocketListener inner) {
      this.inner = inner;
    }

    @Override
    public void onOpen(WebSocket ws, Response response) {
      inner.onOpen(ws, response);
      Eventually.changed();
    }

    @Override
    public void onMessage(WebSocket ws, String text) {
      inner.onMessage(ws, text);
    }

    @Override
    public void onClosing(WebSocket ws, int code, String reason) {
      Eventually.changed();
      // Not passed on: the mock's listener answers a closing handshake by closing again from its
      // executor, and its onClosed then blocks the event loop waiting for that executor, which
      // waits for the event loop (a one-minute stall in mockwebserver 7.8.0). A connection that
      // is closing needs no answer.
    }

    @Override
    public void onClosed(WebSocket ws, int code, String reason) {
      Eventually.changed();
      // The mock's listener waits here for its send executor, whose sends wait for the event
      // loop this runs on; wait elsewhere.
      OwnThread.run(() -> inner.onClosed(ws, code, reason));
    }

    @Override
    public void onFailure(WebSocket ws, Throwable error, Response response) {
      Eventually.changed();
      OwnThread.run(() -> inner.onFailure(ws, error, response));
    }
  }
}
