package dev.jobc.sidecar;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.jobc.sidecar.base.ApiClients;
import dev.jobc.sidecar.base.Log;
import dev.jobc.sidecar.client.ApiConnection;
import dev.jobc.sidecar.client.Backoff;
import dev.jobc.sidecar.client.ClusterApi;
import dev.jobc.sidecar.client.Informer;
import dev.jobc.sidecar.client.PodJson;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The sidecar's client and informer against the stand-in API server as kube-apiserver serves lists
 * and watches ({@link ApiServerHttp}): the watch it opens is served, the reflector's rules
 * (client-go {@code tools/cache/reflector.go}) hold, no read outlives its deadline, retries back
 * off, and an answer too large for the heap is an error, not a crash.
 */
class ApiProtocolTest {
  static final Map<String, String> LABELS = Map.of("app", "protocol");
  private static final String SELECTOR = ClusterApi.labelSelector(LABELS);

  private ApiStandIn api;
  private Informer<Pod> informer;

  @AfterEach
  void stop() {
    if (informer != null) {
      informer.close();
    }
    if (api != null) {
      api.close();
    }
  }

  private static ApiStandIn standIn(ApiStandIn api) {
    return api.withoutRole("the client's protocol, not a command's calls");
  }

  /** A pod of {@link #LABELS}. */
  static Pod pod(String name) {
    return new PodBuilder()
        .withNewMetadata()
        .withName(name)
        .withNamespace(ApiStandIn.NS)
        .withLabels(LABELS)
        .endMetadata()
        .withNewSpec()
        .addNewContainer()
        .withName("main")
        .withImage("busybox")
        .endContainer()
        .endSpec()
        .build();
  }

  /** An informer on the pods with {@link #LABELS}, over {@code connection}. */
  private Informer<Pod> inform(ApiConnection connection, Informer.Pauses pauses) {
    ClusterApi cluster = new ClusterApi(connection);
    String ns = ApiStandIn.NS;
    informer =
        new Informer<>(
                "test-informer",
                connection.backoff(),
                pauses,
                new Informer.Source<>(
                    cont -> cluster.listPodsPage(ns, SELECTOR, cont),
                    version -> cluster.watchPods(ns, SELECTOR, version),
                    json -> PodJson.event(json, PodJson::pod)),
                p -> p.getMetadata().getName(),
                Eventually::changed,
                Log::info)
            .start();
    return informer;
  }

  private ApiConnection connection(Duration requestTimeout, Duration watchTimeout) {
    return api.connection(ApiClients.USER_AGENT, requestTimeout, watchTimeout);
  }

  /**
   * The pauses an informer asks for, without waiting them out; after {@code n} it waits (until
   * closed) so that a test reads a settled record.
   */
  private static final class Record implements Informer.Pauses {
    final List<Duration> pauses = new CopyOnWriteArrayList<>();
    final CompletableFuture<List<Duration>> full = new CompletableFuture<>();
    private final int n;

    Record(int n) {
      this.n = n;
    }

    /** Parked until the informer's close interrupts its thread: no attempt after the n-th. */
    private final CountDownLatch closed = new CountDownLatch(1);

    @Override
    public void pause(Duration d) throws InterruptedException {
      pauses.add(d);
      if (pauses.size() >= n) {
        full.complete(List.copyOf(pauses));
        closed.await();
      }
    }

    List<Duration> await() throws Exception {
      return full.get(Eventually.DEADLINE.toSeconds(), TimeUnit.SECONDS);
    }
  }

  // ------------------------------------------------------------------------------------ watches

  /**
   * kube-apiserver refuses a WebSocket watch without {@code Origin} (x/net/websocket's {@code
   * checkOrigin}): the sidecar's watch is the HTTP stream client-go opens, and it is served.
   */
  @Test
  void theWatchIsServedAsKubeApiserverServesIt() throws Exception {
    api = standIn(new ApiStandIn());
    inform(connection(Duration.ofSeconds(60), ApiConnection.MIN_WATCH_TIMEOUT), Informer.WAITED);
    Eventually.until("watching", () -> api.openWatches() == 1);
    api.create(pod("a"));
    Eventually.until("the pod seen through the watch", () -> informer.snapshot().containsKey("a"));
    assertThat(api.refusedUpgrades()).as("WebSocket upgrades refused").isZero();
    assertThat(api.watchRequests.get()).isEqualTo(1);
  }

  /** The stand-in's side of it: an upgrade without an origin is answered 403 (server.go). */
  @Test
  void aWebSocketUpgradeWithoutOriginIsRefused() throws Exception {
    api = standIn(new ApiStandIn());
    URI u = URI.create(api.url());
    try (Socket s = new Socket(u.getHost(), u.getPort())) {
      OutputStream out = s.getOutputStream();
      out.write(
          ("GET /api/v1/namespaces/team/pods?watch=true HTTP/1.1\r\nHost: "
                  + u.getAuthority()
                  + "\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                  + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
              .getBytes(StandardCharsets.ISO_8859_1));
      out.flush();
      InputStream in = s.getInputStream();
      String status = new String(in.readNBytes(12), StandardCharsets.ISO_8859_1);
      assertThat(status).isEqualTo("HTTP/1.1 403");
    }
    assertThat(api.refusedUpgrades()).isEqualTo(1);
  }

  /** In steady state: one list, one watch, and every change through it. */
  @Test
  void inSteadyStateOneWatchAndNoList() throws Exception {
    api = standIn(ApiStandIn.withPodTable());
    inform(connection(Duration.ofSeconds(60), ApiConnection.MIN_WATCH_TIMEOUT), Informer.WAITED);
    Eventually.until("watching", () -> api.openWatches() == 1);
    for (int i = 0; i < 20; i++) {
      api.create(pod("p" + i));
    }
    Eventually.until("every pod seen", () -> informer.snapshot().size() == 20);
    api.delete("p3");
    Eventually.until("the deletion seen", () -> !informer.snapshot().containsKey("p3"));
    assertThat(api.allLists.get()).as("lists").isEqualTo(1);
    assertThat(api.watchRequests.get()).as("watches").isEqualTo(1);
    assertThat(api.openWatches()).isEqualTo(1);
  }

  /**
   * A watch the server ends ({@code timeoutSeconds}, here 1 to 2 s) is opened again from the last
   * resource version, without a list (reflector.go: the watch loop of ListAndWatch); a change
   * between two watches is not lost (the bookmark before the end carried its version).
   */
  @Test
  void aWatchTheServerEndsIsOpenedAgainWithoutAList() throws Exception {
    api = standIn(ApiStandIn.withPodTable());
    inform(connection(Duration.ofSeconds(60), Duration.ofSeconds(1)), Informer.WAITED);
    Eventually.until("watching", () -> api.openWatches() == 1);
    api.create(pod("first"));
    Eventually.until("three watches", () -> api.watchRequests.get() >= 3);
    api.create(pod("later"));
    Eventually.until("the later pod seen", () -> informer.snapshot().containsKey("later"));
    assertThat(api.allLists.get()).as("lists").isEqualTo(1);
    assertThat(api.podLists()).allSatisfy(p -> assertThat(p).contains("limit=100"));
  }

  // ---------------------------------------------------------------------------------- deadlines

  /** A watch that goes silent (a dead connection) is given up by its deadline and reopened. */
  @Test
  void aSilentWatchIsGivenUpByItsDeadline() throws Exception {
    api = standIn(ApiStandIn.withPodTable());
    api.silentWatches(true);
    inform(connection(Duration.ofSeconds(1), Duration.ofSeconds(1)), Informer.WAITED);
    // timeoutSeconds of 1 or 2 plus 1 s of grace: a second watch within 3 s of the first; the
    // bound waited for is generous, the client's own deadline is what ends the first.
    Eventually.until("a second watch", () -> api.watchRequests.get() >= 2);
    assertThat(api.allLists.get()).as("a dead watch is reopened, not relisted").isEqualTo(1);
  }

  /** A list whose bytes trickle in is given up by the request's deadline, as one line. */
  @Test
  void aTricklingListIsGivenUpByItsDeadline() throws Exception {
    api = standIn(ApiStandIn.withPodTable());
    for (int i = 0; i < 5; i++) {
      api.create(pod("p" + i));
    }
    api.trickleLists(Duration.ofMillis(20));
    inform(connection(Duration.ofSeconds(1), ApiConnection.MIN_WATCH_TIMEOUT), Informer.WAITED);
    Eventually.until("a second list", () -> api.allLists.get() >= 2);
    assertThat(Informer.describe(informer.lastError()))
        .contains("did not end by its deadline")
        .doesNotContain("\n");
  }

  /**
   * A command's own deadline ({@link ApiConnection#by}: a release's, a start's, the grace period's)
   * bounds a read that blocks, not only the pauses between its attempts.
   */
  @Test
  void theCallersDeadlineBoundsABlockedRead() throws Exception {
    api = standIn(ApiStandIn.withPodTable());
    for (int i = 0; i < 5; i++) {
      api.create(pod("p" + i));
    }
    api.trickleLists(Duration.ofMillis(20));
    ClusterApi cluster =
        new ClusterApi(connection(Duration.ofSeconds(60), ApiConnection.MIN_WATCH_TIMEOUT));
    long deadline = System.nanoTime() + Duration.ofSeconds(1).toNanos();
    assertThatThrownBy(
            () -> ApiConnection.by(deadline, () -> cluster.listPods(ApiStandIn.NS, LABELS)))
        .isInstanceOf(java.io.UncheckedIOException.class)
        .hasMessageContaining("did not end by its deadline");
  }

  // ----------------------------------------------------------------------------------- back-off

  /**
   * Against an API that answers 503, every retry waits for the next pause of client-go's back-off
   * (here from 100 ms, doubling to 1 s, each plus up to as much again at random).
   */
  @Test
  void retriesAgainstAnUnavailableApiBackOff() throws Exception {
    api = standIn(ApiStandIn.withPodTable());
    api.down.set(true);
    Record record = new Record(6);
    inform(backoffConnection(), record);
    List<Duration> pauses = record.await();
    assertBackoff(pauses);
    assertThat(api.watchRequests.get()).isZero();
  }

  /** A watch that ends at once, again and again, is a failure: the relists back off. */
  @Test
  void watchesThatDropAtOnceBackOff() throws Exception {
    api = standIn(ApiStandIn.withPodTable());
    api.endWatchesAtOnce(true);
    Record record = new Record(6);
    inform(backoffConnection(), record);
    List<Duration> pauses = record.await();
    assertBackoff(pauses);
    assertThat(informer.lastError()).hasMessageContaining("very short watch");
    // One list and one watch per attempt: the 6 attempts before the 6th pause.
    assertThat(api.allLists.get()).isEqualTo(6);
    assertThat(api.watchRequests.get()).isEqualTo(6);
  }

  /**
   * A 429's or a 503's {@code Retry-After} is waited out even when the back-off's pause is shorter:
   * client-go's rest/request.go ({@code checkWait}) honours it on a 429 and on every 5xx.
   */
  @ParameterizedTest
  @ValueSource(ints = {429, 503})
  void retryAfterIsHonoured(int code) throws Exception {
    api = standIn(ApiStandIn.withPodTable());
    (code == 429 ? api.tooManyRequests : api.unavailable).set(1000);
    api.retryAfter = 7;
    Record record = new Record(3);
    inform(backoffConnection(), record);
    assertThat(record.await()).allSatisfy(d -> assertThat(d).isEqualTo(Duration.ofSeconds(7)));
  }

  /**
   * A continue token that expired (410 on a later page) starts the list again from its first page,
   * after a pause.
   */
  @Test
  void anExpiredContinueRelistsAfterAPause() throws Exception {
    api = standIn(ApiStandIn.withPodTable());
    for (int i = 0; i < 150; i++) {
      api.create(pod(String.format("p%03d", i)));
    }
    api.expireContinue.set(1);
    List<Duration> pauses = new CopyOnWriteArrayList<>();
    inform(backoffConnection(), pauses::add);
    Eventually.until("every pod listed", () -> informer.snapshot().size() == 150);
    assertThat(pauses).hasSize(1);
    assertThat(pauses.get(0)).isBetween(Duration.ofMillis(100), Duration.ofMillis(200));
    assertThat(api.allLists.get()).isEqualTo(2);
  }

  private ApiConnection backoffConnection() {
    return new ApiConnection(
        URI.create(api.url()),
        () -> "stand-in",
        null,
        ApiClients.USER_AGENT,
        Duration.ofSeconds(60),
        Duration.ofSeconds(60),
        ApiConnection.MIN_WATCH_TIMEOUT,
        new Backoff.Settings(
            Duration.ofMillis(100), Duration.ofSeconds(1), Duration.ofMinutes(2), 2.0, 1.0));
  }

  /** 100 ms doubling to the cap of 1 s, each pause plus up to as much again. */
  private static void assertBackoff(List<Duration> pauses) {
    long[] base = {100, 200, 400, 800, 1000, 1000};
    for (int i = 0; i < base.length; i++) {
      assertThat(pauses.get(i).toMillis())
          .as("pause %d of %s", i, pauses)
          .isBetween(base[i], 2 * base[i]);
    }
  }

  // ------------------------------------------------------------------------------------- memory

  /**
   * A list page larger than {@link ApiConnection#MAX_BODY} (one pod of 8 MiB) is a one-line error
   * and a retry; nothing of it is kept.
   */
  @Test
  void aPageLargerThanTheBoundIsAnErrorAndARetry() throws Exception {
    api = standIn(ApiStandIn.withPodTable());
    api.create(
        new PodBuilder(pod("huge"))
            .editMetadata()
            .addToAnnotations("big", "x".repeat(8 << 20))
            .endMetadata()
            .build());
    inform(connection(Duration.ofSeconds(60), ApiConnection.MIN_WATCH_TIMEOUT), Informer.WAITED);
    Eventually.until("a second list", () -> api.allLists.get() >= 2);
    assertThat(Informer.describe(informer.lastError()))
        .contains("more than " + ApiConnection.MAX_BODY + " bytes")
        .doesNotContain("\n");
    assertThat(api.watchRequests.get()).isZero();
  }
}
