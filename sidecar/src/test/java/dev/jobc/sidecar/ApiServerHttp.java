package dev.jobc.sidecar;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import io.fabric8.mockwebserver.dsl.HttpMethod;
import io.fabric8.mockwebserver.http.Buffer;
import io.fabric8.mockwebserver.http.Headers;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.fabric8.mockwebserver.http.WebSocket;
import io.fabric8.mockwebserver.http.WebSocketListener;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;

/**
 * The stand-in API server's HTTP side, as kube-apiserver serves lists and watches, in front of the
 * stand-in's store (fabric8's CRUD dispatcher or a {@link PodTable}, both answering in fabric8's
 * mock dialect): the JDK's HTTP server, over HTTP or HTTPS. Each behaviour follows an upstream
 * file:
 *
 * <ul>
 *   <li>a watch ({@code watch=1} or {@code watch=true}) is a {@code 200} with a chunked body of
 *       JSON events, one per line (k8s.io/apiserver {@code pkg/endpoints/handlers/watch.go}, {@code
 *       serveWatch}), that ends after {@code timeoutSeconds} (the same file: {@code timeoutCh}),
 *       with a BOOKMARK of the last resource version sent just before when bookmarks were asked for
 *       (k8s.io/apiserver {@code pkg/storage/cacher/cacher.go}: a watcher's bookmark is due shortly
 *       before its deadline);
 *   <li>a WebSocket upgrade without {@code Origin} is refused with {@code 403} (kube-apiserver
 *       serves WebSocket watches through golang.org/x/net {@code websocket/server.go}, whose {@code
 *       Handler} checks the origin, {@code checkOrigin}, and answers 403 when there is none); one
 *       with an origin is not modelled and answered 400;
 *   <li>what {@link ApiStandIn} injects: {@code 410} in the stream, an expired {@code continue}
 *       (HTTP {@code 410}: k8s.io/apiserver {@code pkg/storage/errors.go}, {@code
 *       NewResourceExpired}), {@code 429} with {@code Retry-After} (k8s.io/apiserver {@code
 *       pkg/server/filters/maxinflight.go}, {@code tooManyRequests}), {@code 503}, a silent watch
 *       (a dead connection: no event and no end) and a list that trickles.
 * </ul>
 *
 * <p>While a watch is quiet the stand-in writes a newline every {@link #LIVENESS} (whitespace
 * between JSON values, which client-go's decoder and the sidecar's both skip), only to notice a
 * client that went away: the JDK's server tells a handler so only when a write fails.
 */
final class ApiServerHttp implements AutoCloseable {
  /** How often a quiet watch writes a newline to notice a client gone. */
  static final Duration LIVENESS = Duration.ofMillis(200);

  private static final Pattern RESOURCE_VERSION = Pattern.compile("\"resourceVersion\":\"(\\d+)\"");

  private static final String STOREPASS = "stand-in";

  /** The names the HTTPS server's certificate is for: those the stand-in is reached by. */
  static final String SAN = "DNS:localhost,IP:127.0.0.1";

  /** One key store per set of names, for the test JVM. */
  private static final Map<String, Path> KEY_STORES = new java.util.HashMap<>();

  private final HttpServer server;
  private final ExecutorService threads;
  private final Function<RecordedRequest, MockResponse> store;
  private final Set<HttpWatch> watches = ConcurrentHashMap.newKeySet();

  /** Watches answered 200 and then nothing at all, not even their end: dead connections. */
  volatile boolean silentWatches;

  /** Watches answered 200 and ended at once, without an event (a proxy that drops them). */
  volatile boolean endAtOnce;

  /** When set, each list answer is written one byte per this interval. */
  volatile Duration trickle;

  /** WebSocket upgrades refused for want of an {@code Origin}. */
  final AtomicInteger refusedUpgrades = new AtomicInteger();

  ApiServerHttp(Function<RecordedRequest, MockResponse> store, boolean tls) {
    this(store, tls, SAN);
  }

  /**
   * Served over HTTPS when {@code tls}, with a self-signed certificate for the names {@code san}.
   */
  ApiServerHttp(Function<RecordedRequest, MockResponse> store, boolean tls, String san) {
    this.store = store;
    threads =
        Executors.newCachedThreadPool(
            r -> {
              Thread t = new Thread(r, "api-stand-in-http");
              t.setDaemon(true);
              return t;
            });
    try {
      InetSocketAddress loopback = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
      if (tls) {
        HttpsServer https = HttpsServer.create(loopback, 64);
        https.setHttpsConfigurator(new HttpsConfigurator(serverTls(san)));
        server = https;
      } else {
        server = HttpServer.create(loopback, 64);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    server.setExecutor(threads);
    server.createContext("/", this::handle);
    server.start();
  }

  /** The server's URL, {@code http(s)://127.0.0.1:port/}. */
  String url() {
    return (server instanceof HttpsServer ? "https" : "http")
        + "://127.0.0.1:"
        + server.getAddress().getPort()
        + "/";
  }

  /**
   * The PEM of the self-signed certificate the HTTPS server presents (SAN localhost, 127.0.0.1).
   */
  static String certificatePem() throws IOException {
    return certificatePem(SAN);
  }

  /** The PEM of the self-signed certificate for the names {@code san}. */
  static String certificatePem(String san) throws IOException {
    try {
      KeyStore ks = KeyStore.getInstance("PKCS12");
      try (InputStream in = Files.newInputStream(keyStore(san))) {
        ks.load(in, STOREPASS.toCharArray());
      }
      return "-----BEGIN CERTIFICATE-----\n"
          + java.util.Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
              .encodeToString(ks.getCertificate("api").getEncoded())
          + "\n-----END CERTIFICATE-----\n";
    } catch (java.security.GeneralSecurityException e) {
      throw new IOException(e);
    }
  }

  private static SSLContext serverTls(String san) throws IOException {
    try {
      KeyStore ks = KeyStore.getInstance("PKCS12");
      try (InputStream in = Files.newInputStream(keyStore(san))) {
        ks.load(in, STOREPASS.toCharArray());
      }
      KeyManagerFactory kmf =
          KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
      kmf.init(ks, STOREPASS.toCharArray());
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(kmf.getKeyManagers(), null, null);
      return context;
    } catch (java.security.GeneralSecurityException e) {
      throw new IOException(e);
    }
  }

  /** One key pair for the test JVM and the names {@code san}, made by the JDK's keytool. */
  private static synchronized Path keyStore(String san) throws IOException {
    Path keyStore = KEY_STORES.get(san);
    if (keyStore == null) {
      Path dir = Files.createTempDirectory("api-stand-in-tls");
      Path store = dir.resolve("server.p12");
      List<String> command =
          List.of(
              Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
              "-genkeypair",
              "-keyalg",
              "EC",
              "-groupname",
              "secp256r1",
              "-alias",
              "api",
              "-dname",
              "CN=localhost",
              "-ext",
              "SAN=" + san,
              "-validity",
              "2",
              "-storetype",
              "PKCS12",
              "-keystore",
              store.toString(),
              "-storepass",
              STOREPASS,
              "-keypass",
              STOREPASS);
      Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
      String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      try {
        if (p.waitFor() != 0) {
          throw new IOException("keytool failed: " + output);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException(e);
      }
      store.toFile().deleteOnExit();
      dir.toFile().deleteOnExit();
      keyStore = store;
      KEY_STORES.put(san, store);
    }
    return keyStore;
  }

  /**
   * Ends every open watch as a dropped connection would (no final bookmark), and returns once they
   * are no longer counted as open.
   */
  void dropWatches() {
    for (HttpWatch w : watches) {
      w.drop();
      try {
        if (!w.gone.await(Eventually.DEADLINE.toSeconds(), TimeUnit.SECONDS)) {
          throw new AssertionError("a dropped watch did not end: " + w.request().getPath());
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError("interrupted", e);
      }
    }
  }

  /** Watches open now. */
  int openWatches() {
    return watches.size();
  }

  @Override
  public void close() {
    dropWatches();
    server.stop(0);
    threads.shutdownNow();
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      String uriPath = exchange.getRequestURI().getRawPath();
      String query = exchange.getRequestURI().getRawQuery();
      // The store speaks fabric8's dialect, watch=true; client-go sends watch=1.
      String path =
          uriPath
              + (query == null
                  ? ""
                  : "?" + query.replaceAll("(^|&)watch=1(&|$)", "$1watch=true$2"));
      String upgrade = exchange.getRequestHeaders().getFirst("Upgrade");
      if (upgrade != null && upgrade.equalsIgnoreCase("websocket")) {
        // x/net/websocket server.go: Handler's handshake, checkOrigin, refuses a null origin.
        boolean origin = exchange.getRequestHeaders().getFirst("Origin") != null;
        if (!origin) {
          refusedUpgrades.incrementAndGet();
        }
        exchange.sendResponseHeaders(origin ? 400 : 403, -1);
        return;
      }
      byte[] body = exchange.getRequestBody().readAllBytes();
      Headers.Builder headers = Headers.builder();
      exchange.getRequestHeaders().forEach((k, vs) -> vs.forEach(v -> headers.add(k, v)));
      String method = exchange.getRequestMethod();
      RecordedRequest request =
          new RecordedRequest(
              method + " " + path + " HTTP/1.1",
              HttpMethod.valueOf(method),
              path,
              headers.build(),
              new Buffer(body));
      MockResponse response = store.apply(request);
      WebSocketListener watch = response.getWebSocketListener();
      if (watch != null) {
        serveWatch(exchange, request, watch, query(path));
        return;
      }
      byte[] out = response.getBody() == null ? new byte[0] : response.getBody().getBytes();
      response
          .getHeaders()
          .toMultimap()
          .forEach(
              (k, vs) -> {
                if (!k.equalsIgnoreCase("Content-Length")
                    && !k.equalsIgnoreCase("Transfer-Encoding")) {
                  exchange.getResponseHeaders().put(k, vs);
                }
              });
      if (!exchange.getResponseHeaders().containsKey("Content-Type")) {
        exchange.getResponseHeaders().set("Content-Type", "application/json");
      }
      Duration delay = response.getBodyDelay();
      if (delay != null && !delay.isZero()) {
        sleep(delay);
      }
      Duration slowly = trickle;
      boolean list = "GET".equals(method) && !path.contains("watch=true");
      if (slowly != null && list) {
        exchange.sendResponseHeaders(response.code(), 0);
        OutputStream o = exchange.getResponseBody();
        for (byte b : out) {
          o.write(b);
          o.flush();
          sleep(slowly);
        }
        return;
      }
      exchange.sendResponseHeaders(response.code(), out.length == 0 ? -1 : out.length);
      if (out.length > 0) {
        exchange.getResponseBody().write(out);
      }
    } catch (IOException | RuntimeException e) {
      // The client went away (or a test's answer failed): nothing left to answer.
    }
  }

  /**
   * The pause between two bytes of a trickling list: a peer that keeps sending, slower than any
   * deadline allows for the whole answer (a list of a few pods at 20 ms a byte takes tens of
   * seconds), so that a per-read timeout never fires and only the request's deadline can end it. A
   * slower machine makes the trickle slower still: the test cannot pass or fail by timing.
   */
  private static void sleep(Duration d) {
    try {
      Thread.sleep(d.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void serveWatch(
      HttpExchange exchange,
      RecordedRequest request,
      WebSocketListener listener,
      Map<String, String> query)
      throws IOException {
    exchange.getResponseHeaders().set("Content-Type", "application/json");
    exchange.sendResponseHeaders(200, 0); // chunked: watch.go flushes each event
    exchange.getResponseBody().flush(); // and its head at once (ServeHTTP: flusher.Flush)
    HttpWatch w = new HttpWatch(exchange.getResponseBody(), request, query.get("resourceVersion"));
    watches.add(w);
    Eventually.changed();
    try {
      if (silentWatches) {
        w.ended.await(); // a dead connection: only the stand-in's close ends it
        return;
      }
      if (endAtOnce) {
        return;
      }
      listener.onOpen(w, null);
      long seconds =
          query.containsKey("timeoutSeconds")
              ? Long.parseLong(query.get("timeoutSeconds"))
              : TimeUnit.MINUTES.toSeconds(30);
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
      while (!w.ended.await(LIVENESS.toMillis(), TimeUnit.MILLISECONDS)) {
        if (System.nanoTime() >= deadline) {
          // watch.go: timeoutCh ends the watch; cacher.go: a bookmark is due before the deadline.
          if ("true".equals(query.get("allowWatchBookmarks"))) {
            w.bookmark();
          }
          break;
        }
        w.alive();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      watches.remove(w);
      w.gone.countDown();
      w.end();
      listener.onClosed(w, 1000, "");
      Eventually.changed();
    }
  }

  private static Map<String, String> query(String path) {
    Map<String, String> out = new java.util.HashMap<>();
    int q = path.indexOf('?');
    if (q >= 0) {
      for (String param : path.substring(q + 1).split("&")) {
        int eq = param.indexOf('=');
        if (eq > 0) {
          out.put(
              param.substring(0, eq),
              URLDecoder.decode(param.substring(eq + 1), StandardCharsets.UTF_8));
        }
      }
    }
    return out;
  }

  /** One watch's stream, to which the store's watch listener sends its events. */
  private static final class HttpWatch implements WebSocket {
    private final OutputStream out;
    private final RecordedRequest request;
    private String version;
    final CountDownLatch ended = new CountDownLatch(1);

    /** Counted down once the watch is no longer among the open ones. */
    final CountDownLatch gone = new CountDownLatch(1);

    private boolean closed; // guarded by this

    HttpWatch(OutputStream out, RecordedRequest request, String version) {
      this.out = out;
      this.request = request;
      this.version = version;
    }

    @Override
    public RecordedRequest request() {
      return request;
    }

    @Override
    public synchronized boolean send(String text) {
      Matcher m = RESOURCE_VERSION.matcher(text);
      if (m.find()) {
        version = m.group(1);
      }
      return write(text + "\n");
    }

    @Override
    public boolean send(byte[] bytes) {
      return send(new String(bytes, StandardCharsets.UTF_8));
    }

    synchronized void bookmark() {
      if (version != null) {
        write(
            "{\"type\":\"BOOKMARK\",\"object\":{\"kind\":\"Pod\",\"apiVersion\":\"v1\","
                + "\"metadata\":{\"resourceVersion\":\""
                + version
                + "\"}}}\n");
      }
    }

    synchronized void alive() {
      write("\n");
    }

    private synchronized boolean write(String s) {
      if (closed) {
        return false;
      }
      try {
        out.write(s.getBytes(StandardCharsets.UTF_8));
        out.flush();
        return true;
      } catch (IOException e) {
        closed = true;
        ended.countDown(); // the client went away
        return false;
      }
    }

    /** The listener ended the watch (after an ERROR event, say): the stream ends too. */
    @Override
    public boolean close(int code, String reason) {
      ended.countDown();
      return true;
    }

    void drop() {
      synchronized (this) {
        closed = true;
      }
      ended.countDown();
    }

    synchronized void end() {
      closed = true;
      try {
        out.close();
      } catch (IOException e) {
        // gone already
      }
    }
  }
}
