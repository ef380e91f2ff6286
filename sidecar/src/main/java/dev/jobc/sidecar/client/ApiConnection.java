package dev.jobc.sidecar.client;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.time.Duration;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;
import java.util.concurrent.Flow;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * The sidecar's way to the API server: the JDK's {@link HttpClient} over HTTP/1.1, its connections
 * kept alive and reused, TLS checked against the service account's CA (and the host name). Watches
 * are what client-go opens: a {@code GET} with {@code watch=1} whose answer is a chunked stream of
 * JSON events (k8s.io/apiserver {@code pkg/endpoints/handlers/watch.go}, {@code serveWatch}), read
 * one event at a time with Jackson's streaming parser.
 *
 * <p>No read outlives its deadline: an answer's bytes come through a queue that the reading thread
 * polls until the request's deadline (a request: {@link #requestTimeout} in all, however slowly its
 * bytes come; a watch: its {@code timeoutSeconds} plus {@link #requestTimeout}, however silent the
 * connection), and then the request is abandoned and its connection closed. No answer or event may
 * exceed {@link #MAX_BODY}: a larger one is an {@link IOException}, never a heap it cannot fit.
 *
 * <p>Authentication is a bearer token read again before every request (the kubelet rotates a
 * projected token in place); the CA file is read again when it changes.
 */
public final class ApiConnection {
  /** Where the kubelet mounts the service account of a pod (client-go's in-cluster config). */
  public static final Path SERVICE_ACCOUNT =
      Path.of("/var/run/secrets/kubernetes.io/serviceaccount");

  /**
   * The largest answer or watch event read, in bytes: a page of {@link Informer#LIST_PAGE}
   * realistic pods is about 600 KB, and twice this bound still fits the smallest rendered heap (16
   * MiB) next to the sidecar's own objects.
   */
  public static final int MAX_BODY = 3 << 20;

  /**
   * The shortest {@code timeoutSeconds} of a watch; each watch picks one in [this, twice this), as
   * client-go's reflector does ({@code tools/cache/reflector.go}: {@code minWatchTimeout = 5 *
   * time.Minute}, {@code timeoutSeconds := int64(r.minWatchTimeout.Seconds() * (rand.Float64() +
   * 1.0))}), so that the watches of many sidecars do not end together.
   */
  public static final Duration MIN_WATCH_TIMEOUT = Duration.ofMinutes(5);

  private static final JsonFactory JSON =
      JsonFactory.builder()
          .streamReadConstraints(
              // Per string, not per stream: a watch's stream is as long as the watch lasts.
              StreamReadConstraints.builder().maxStringLength(MAX_BODY).build())
          .build();

  /**
   * The JDK client's one thread for its callbacks (a daemon, so that an open watch never keeps the
   * process alive): none of them blocks (an answer's buffers go to a queue its reader polls), so
   * one is enough, and a cached pool's extra threads cost stacks and arenas (issue 34's footprint).
   */
  private static final Executor THREADS =
      Executors.newSingleThreadExecutor(
          r -> {
            Thread t = new Thread(r, "jobc-api");
            t.setDaemon(true);
            return t;
          });

  /** The deadline of the caller's whole operation ({@link #by}), or none. */
  private static final ThreadLocal<Long> CALLER_DEADLINE = new ThreadLocal<>();

  private final URI server;
  private final Supplier<String> token;
  private final Supplier<SSLContext> tls;
  private final String userAgent;
  private final Duration connectTimeout;
  private final Duration requestTimeout;
  private final Duration minWatchTimeout;
  private final Backoff.Settings backoff;
  private SSLContext clientTls; // guarded by this
  private HttpClient client; // guarded by this

  /**
   * A connection to {@code server}; {@code tls} is the trust for {@code https} ({@code null}: the
   * JDK's own CAs); each watch lasts {@code minWatchTimeout} to twice that; the informers' retries
   * back off as {@code backoff} says.
   */
  public ApiConnection(
      URI server,
      Supplier<String> token,
      Supplier<SSLContext> tls,
      String userAgent,
      Duration connectTimeout,
      Duration requestTimeout,
      Duration minWatchTimeout,
      Backoff.Settings backoff) {
    if (!"http".equals(server.getScheme()) && !"https".equals(server.getScheme())) {
      throw new IllegalArgumentException("the API server's URL must be http or https: " + server);
    }
    this.server = server;
    this.token = token;
    this.tls = tls;
    this.userAgent = userAgent;
    this.connectTimeout = connectTimeout;
    this.requestTimeout = requestTimeout;
    this.minWatchTimeout = minWatchTimeout;
    this.backoff = backoff;
  }

  /**
   * The connection of a process started by kubelet or by hand: {@code KUBERNETES_MASTER} (a URL; a
   * token in {@code KUBERNETES_AUTH_TOKEN} or a file {@code KUBERNETES_AUTH_SERVICEACCOUNT_TOKEN},
   * a CA in {@code KUBERNETES_CERTS_CA_FILE}, the names fabric8's client reads) when set, else the
   * pod's own service account as client-go's in-cluster configuration finds it ({@code
   * KUBERNETES_SERVICE_HOST}, {@code KUBERNETES_SERVICE_PORT}, the token and {@code ca.crt} under
   * {@link #SERVICE_ACCOUNT}).
   */
  public static ApiConnection fromEnvironment(String userAgent, Map<String, String> env) {
    Duration connect = Duration.ofSeconds(10);
    Duration request = Duration.ofSeconds(30);
    String master = env.get("KUBERNETES_MASTER");
    if (master != null && !master.isBlank()) {
      URI uri = URI.create(master.contains("://") ? master : "https://" + master);
      String fixed = env.get("KUBERNETES_AUTH_TOKEN");
      String tokenFile = env.get("KUBERNETES_AUTH_SERVICEACCOUNT_TOKEN");
      Supplier<String> token =
          fixed != null ? () -> fixed : tokenFile != null ? file(Path.of(tokenFile)) : () -> null;
      String ca = env.get("KUBERNETES_CERTS_CA_FILE");
      return new ApiConnection(
          uri,
          token,
          ca == null ? null : new CaFile(Path.of(ca)),
          userAgent,
          connect,
          request,
          MIN_WATCH_TIMEOUT,
          Backoff.Settings.CLIENT_GO);
    }
    String host = env.get("KUBERNETES_SERVICE_HOST");
    String port = env.get("KUBERNETES_SERVICE_PORT");
    if (host == null || host.isEmpty() || port == null || port.isEmpty()) {
      throw new IllegalStateException(
          "no API server: KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT are not set (not in"
              + " a pod?) and neither is KUBERNETES_MASTER");
    }
    // An IPv6 address needs brackets in a URL (client-go: net.JoinHostPort).
    String authority = host.indexOf(':') >= 0 ? "[" + host + "]:" + port : host + ":" + port;
    CaFile ca = new CaFile(SERVICE_ACCOUNT.resolve("ca.crt"));
    ca.get(); // a missing or unusable CA is the first thing that went wrong, not a later request
    return new ApiConnection(
        URI.create("https://" + authority),
        file(SERVICE_ACCOUNT.resolve("token")),
        ca,
        userAgent,
        connect,
        request,
        MIN_WATCH_TIMEOUT,
        Backoff.Settings.CLIENT_GO);
  }

  public URI server() {
    return server;
  }

  /** How the informers on this connection back off between attempts. */
  public Backoff.Settings backoff() {
    return backoff;
  }

  /** A token read from {@code path} at each request (trimmed), or {@code null} when it is gone. */
  public static Supplier<String> file(Path path) {
    return () -> {
      try {
        return Files.readString(path).trim();
      } catch (IOException e) {
        return null;
      }
    };
  }

  /**
   * The trust of a CA file: its certificates and no others, read again when the file's time or size
   * changes (the kubelet updates {@code ca.crt} in place when the cluster's CA rotates).
   */
  public static final class CaFile implements Supplier<SSLContext> {
    private final Path path;
    private FileTime readAt; // guarded by this
    private long readSize = -1; // guarded by this
    private SSLContext context; // guarded by this

    public CaFile(Path path) {
      this.path = path;
    }

    @Override
    public synchronized SSLContext get() {
      try {
        FileTime time = Files.getLastModifiedTime(path);
        long size = Files.size(path);
        if (context == null || !time.equals(readAt) || size != readSize) {
          context = trusting(Files.readAllBytes(path));
          readAt = time;
          readSize = size;
        }
        return context;
      } catch (IOException e) {
        if (context != null) {
          return context; // mid-rotation: the CA read last is still the best there is
        }
        throw new IllegalStateException("cannot read the API server's CA " + path + ": " + e, e);
      }
    }
  }

  /** TLS that trusts the certificates of {@code pem} (one or more, PEM or DER) and no others. */
  public static SSLContext trusting(byte[] pem) {
    try {
      KeyStore store = KeyStore.getInstance(KeyStore.getDefaultType());
      store.load(null, null);
      int n = 0;
      for (Certificate c :
          CertificateFactory.getInstance("X.509")
              .generateCertificates(new ByteArrayInputStream(pem))) {
        store.setCertificateEntry("ca-" + n++, c);
      }
      if (n == 0) {
        throw new IllegalStateException("the API server's CA file holds no certificate");
      }
      TrustManagerFactory trust =
          TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      trust.init(store);
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(null, trust.getTrustManagers(), null);
      return context;
    } catch (GeneralSecurityException | IOException e) {
      throw new IllegalStateException("the API server's CA cannot be used: " + e, e);
    }
  }

  /** The JDK client, built again when the CA changed (its pool holds connections of the old). */
  private synchronized HttpClient client() {
    SSLContext now = tls == null || !"https".equals(server.getScheme()) ? null : tls.get();
    if (client == null || now != clientTls) {
      HttpClient.Builder b =
          HttpClient.newBuilder()
              .version(HttpClient.Version.HTTP_1_1)
              .connectTimeout(connectTimeout)
              .followRedirects(HttpClient.Redirect.NEVER)
              .executor(THREADS);
      if (now != null) {
        b.sslContext(now);
      }
      client = b.build();
      clientTls = now;
    }
    return client;
  }

  /**
   * Runs {@code call} so that every request it makes on this thread, with its whole answer, ends by
   * {@code deadline} ({@link System#nanoTime}) at the latest: a command's own deadline (a
   * release's, a start's, the grace period's) then bounds blocked reads too, not only the pauses
   * between attempts.
   */
  public static <T> T by(long deadline, Supplier<T> call) {
    Long before = CALLER_DEADLINE.get();
    CALLER_DEADLINE.set(before == null ? deadline : Math.min(before, deadline));
    try {
      return call.get();
    } finally {
      if (before == null) {
        CALLER_DEADLINE.remove();
      } else {
        CALLER_DEADLINE.set(before);
      }
    }
  }

  /** {@code own}, or the caller's deadline when that is earlier. */
  private static long deadline(long own) {
    Long caller = CALLER_DEADLINE.get();
    return caller == null ? own : Math.min(own, caller);
  }

  /** An answer of the API server: its status code, body and {@code Retry-After} (or null). */
  public record Response(int code, byte[] body, Duration retryAfter) {
    public boolean successful() {
      return code >= 200 && code < 300;
    }

    public String text() {
      return new String(body, StandardCharsets.UTF_8);
    }
  }

  /**
   * Sends one request ({@code body} may be {@code null}) to {@code pathAndQuery} (starting with
   * {@code /}, already URL-encoded) and reads the whole answer, all within {@link #requestTimeout}.
   */
  public Response send(String method, String pathAndQuery, String contentType, String body)
      throws IOException {
    long deadline = deadline(System.nanoTime() + requestTimeout.toNanos());
    HttpRequest.Builder r =
        request(pathAndQuery)
            .method(
                method,
                body == null
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8));
    if (contentType != null) {
      r.header("Content-Type", contentType);
    }
    Answer answer = open(r.build(), deadline, deadline);
    try (Stream in = answer.body()) {
      return new Response(answer.code(), in.readAll(), answer.retryAfter());
    }
  }

  /** {@code GET} of a collection ({@code pathAndQuery} names no object): a list or one page. */
  public Response list(String pathAndQuery) throws IOException {
    return send("GET", pathAndQuery, null, null);
  }

  /**
   * Opens a watch: {@code pathAndQuery} (a collection and its selector, with a {@code ?}) with
   * {@code watch=1}, bookmarks, the resource version and a {@code timeoutSeconds} picked as
   * client-go's reflector picks it. An answer other than 200 is an {@link ApiException} with its
   * status; each {@link Watch#next} is one event's JSON.
   */
  public Watch watch(String pathAndQuery, String resourceVersion) throws IOException {
    long seconds =
        (long)
            (minWatchTimeout.toMillis()
                / 1000.0
                * (ThreadLocalRandom.current().nextDouble() + 1.0));
    seconds = Math.max(1, seconds);
    String query =
        pathAndQuery
            + "&allowWatchBookmarks=true&watch=1&timeoutSeconds="
            + seconds
            + (resourceVersion == null
                ? ""
                : "&resourceVersion=" + ClusterApi.encode(resourceVersion));
    // The server ends the watch after timeoutSeconds; a connection silent past that (and the
    // grace of one request's timeout) is dead, and the read gives up on it.
    long deadline =
        System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds) + requestTimeout.toNanos();
    Answer answer =
        open(request(query).GET().build(), System.nanoTime() + requestTimeout.toNanos(), deadline);
    if (answer.code() != 200) {
      byte[] body;
      try (Stream in = answer.body()) {
        body = in.readAll();
      }
      throw new ApiException(
          answer.code(),
          "watch failed: HTTP "
              + answer.code()
              + " "
              + firstLine(new String(body, StandardCharsets.UTF_8)),
          answer.retryAfter());
    }
    return new Watch(answer.body());
  }

  private HttpRequest.Builder request(String pathAndQuery) {
    HttpRequest.Builder r =
        HttpRequest.newBuilder(URI.create(baseUri() + pathAndQuery))
            .header("Accept", "application/json")
            .header("User-Agent", userAgent);
    String t = token.get();
    if (t != null && !t.isEmpty()) {
      r.header("Authorization", "Bearer " + t);
    }
    return r;
  }

  private String baseUri() {
    return server.toString().replaceAll("/+$", "");
  }

  /** The status and head of an answer, its body still to read. */
  private record Answer(int code, Duration retryAfter, Stream body) {}

  /**
   * Sends {@code request} and waits, until {@code headDeadline} at most, for the answer's head; its
   * body can be read until {@code deadline}.
   */
  private Answer open(HttpRequest request, long headDeadline, long deadline) throws IOException {
    Stream body = new Stream(deadline);
    CompletableFuture<HttpResponse<Stream>> sent =
        client()
            .sendAsync(
                request, info -> tooLarge(info.headers()) ? body.refused() : body.subscriber());
    try {
      HttpResponse<Stream> r = sent.get(remaining(headDeadline), TimeUnit.NANOSECONDS);
      return new Answer(r.statusCode(), retryAfter(r.headers()), r.body());
    } catch (TimeoutException e) {
      sent.cancel(true);
      throw new IOException("no answer by the deadline from " + request.uri().getHost());
    } catch (InterruptedException e) {
      sent.cancel(true);
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted waiting for the API server");
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof IOException io) {
        throw new IOException(describe(io), io);
      }
      throw new IOException(String.valueOf(cause), cause);
    }
  }

  /** A message for an I/O failure of the JDK client: its own, or its type when it has none. */
  private static String describe(IOException e) {
    String m = e.getMessage();
    if (m == null || m.isEmpty()) {
      Throwable c = e.getCause();
      m =
          e.getClass().getSimpleName()
              + (c != null && c.getMessage() != null ? ": " + c.getMessage() : "");
    }
    return firstLine(m);
  }

  private static boolean tooLarge(HttpHeaders headers) {
    return headers.firstValueAsLong("Content-Length").orElse(0) > MAX_BODY;
  }

  /**
   * {@code Retry-After} in seconds (the API server sends seconds: k8s.io/apiserver {@code
   * pkg/server/filters/maxinflight.go}, {@code tooManyRequests}), or {@code null}.
   */
  private static Duration retryAfter(HttpHeaders headers) {
    return headers
        .firstValue("Retry-After")
        .map(
            v -> {
              try {
                long s = Long.parseLong(v.trim());
                return s > 0 ? Duration.ofSeconds(Math.min(s, 3600)) : null;
              } catch (NumberFormatException e) {
                return null; // an HTTP date: client-go's request.go reads seconds only too
              }
            })
        .orElse(null);
  }

  private static long remaining(long deadline) {
    return Math.max(0, deadline - System.nanoTime());
  }

  public static String firstLine(String s) {
    if (s == null) {
      return "";
    }
    int nl = s.indexOf('\n');
    return nl < 0 ? s : s.substring(0, nl);
  }

  /**
   * An answer's body as the JDK client hands it over (buffers, one at a time on demand), read until
   * a deadline: a read that would wait past it fails, and closing the stream cancels the exchange
   * (and so closes its connection). At most {@link #MAX_BODY} bytes are kept for one answer or
   * event.
   */
  private static final class Stream extends InputStream {
    private static final List<ByteBuffer> END = List.of();
    private final long deadline;
    private final LinkedBlockingQueue<Object> queue = new LinkedBlockingQueue<>();
    private volatile Flow.Subscription subscription;
    private volatile boolean refused;
    private Iterator<ByteBuffer> buffers = List.<ByteBuffer>of().iterator();
    private ByteBuffer current;
    private boolean ended;
    private volatile boolean closed;

    Stream(long deadline) {
      this.deadline = deadline;
    }

    HttpResponse.BodySubscriber<Stream> subscriber() {
      return new HttpResponse.BodySubscriber<>() {
        @Override
        public CompletableFuture<Stream> getBody() {
          return CompletableFuture.completedFuture(Stream.this);
        }

        @Override
        public void onSubscribe(Flow.Subscription s) {
          subscription = s;
          if (closed || refused) {
            s.cancel();
          } else {
            s.request(1);
          }
        }

        @Override
        public void onNext(List<ByteBuffer> item) {
          queue.add(item);
        }

        @Override
        public void onError(Throwable t) {
          queue.add(t);
        }

        @Override
        public void onComplete() {
          queue.add(END);
        }
      };
    }

    /** An answer whose announced length is over the bound: not a byte of it is read. */
    HttpResponse.BodySubscriber<Stream> refused() {
      refused = true;
      queue.add(new IOException("an answer of more than " + MAX_BODY + " bytes"));
      return subscriber();
    }

    /** The whole body, up to {@link #MAX_BODY} bytes. */
    byte[] readAll() throws IOException {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      byte[] chunk = new byte[8192];
      for (int n; (n = read(chunk, 0, chunk.length)) > 0; ) {
        if (out.size() + n > MAX_BODY) {
          throw new IOException("an answer of more than " + MAX_BODY + " bytes");
        }
        out.write(chunk, 0, n);
      }
      return out.toByteArray();
    }

    @Override
    public int read() throws IOException {
      byte[] one = new byte[1];
      return read(one, 0, 1) < 0 ? -1 : one[0] & 0xFF;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      if (len == 0) {
        return 0;
      }
      while (current == null || !current.hasRemaining()) {
        if (buffers.hasNext()) {
          current = buffers.next();
          continue;
        }
        if (ended) {
          return -1;
        }
        next();
      }
      int n = Math.min(len, current.remaining());
      current.get(b, off, n);
      return n;
    }

    /** Waits for the next buffers until the deadline. */
    @SuppressWarnings("unchecked")
    private void next() throws IOException {
      if (closed) {
        throw new IOException("the answer was closed");
      }
      Object o;
      try {
        o = queue.poll(remaining(deadline), TimeUnit.NANOSECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        close();
        throw new InterruptedIOException("interrupted reading the API server's answer");
      }
      if (o == null) {
        close();
        throw new IOException("the API server's answer did not end by its deadline");
      }
      if (o instanceof Throwable t) {
        ended = true;
        throw t instanceof IOException io
            ? new IOException(describe(io), io)
            : new IOException(String.valueOf(t), t);
      }
      if (o == END) {
        ended = true;
        return;
      }
      buffers = ((List<ByteBuffer>) o).iterator();
      Flow.Subscription s = subscription;
      if (s != null) {
        s.request(1);
      }
    }

    @Override
    public void close() {
      if (closed) {
        return;
      }
      closed = true;
      Flow.Subscription s = subscription;
      if (s != null && !ended) {
        s.cancel(); // the JDK client closes the connection of an unfinished exchange
      }
    }
  }

  /**
   * An open watch: a stream of JSON objects, one per event, as the API server writes them ({@code
   * watch.go}: a JSON encoder, each event followed by a newline). {@link #next} returns one event's
   * JSON, or {@code null} once the server ended the watch (its {@code timeoutSeconds} passed).
   */
  public static final class Watch implements Closeable {
    private final Stream body;
    private JsonParser parser;

    private Watch(Stream body) {
      this.body = body;
    }

    /** The next event's JSON, or {@code null} when the server ended the watch. */
    public byte[] next() throws IOException {
      if (parser == null) {
        // Here, not at the watch's start: the parser reads the first bytes to find the encoding.
        parser = JSON.createParser(body);
      }
      JsonToken t;
      try {
        t = parser.nextToken();
      } catch (com.fasterxml.jackson.core.exc.StreamConstraintsException e) {
        throw new IOException("a watch event of more than " + MAX_BODY + " bytes", e);
      }
      if (t == null) {
        return null;
      }
      if (t != JsonToken.START_OBJECT) {
        throw new IOException("a watch event that is not a JSON object: " + t);
      }
      Bounded out = new Bounded();
      try (JsonGenerator g = JSON.createGenerator(out)) {
        g.copyCurrentStructure(parser);
      } catch (com.fasterxml.jackson.core.exc.StreamConstraintsException
          | IllegalStateException e) {
        throw new IOException("a watch event of more than " + MAX_BODY + " bytes", e);
      }
      // One event's bytes: the parser's own count of the document is per stream, not per event.
      parser.clearCurrentToken();
      return out.toByteArray();
    }

    /** Closes the watch's connection (a read under way ends with an error). */
    @Override
    public void close() {
      body.close();
    }
  }

  /** A buffer that refuses to grow past {@link #MAX_BODY}. */
  private static final class Bounded extends ByteArrayOutputStream {
    @Override
    public synchronized void write(byte[] b, int off, int len) {
      if (count + len > MAX_BODY) {
        throw new IllegalStateException("a watch event of more than " + MAX_BODY + " bytes");
      }
      super.write(b, off, len);
    }

    @Override
    public synchronized void write(int b) {
      if (count + 1 > MAX_BODY) {
        throw new IllegalStateException("a watch event of more than " + MAX_BODY + " bytes");
      }
      super.write(b);
    }
  }
}
