package dev.jobc.sidecar;

import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.Base64;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.SSLSocketFactory;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509TrustManager;

/**
 * The sidecar's way to the API server: HTTP/1.1 requests and WebSocket watches on plain sockets
 * (TLS with the service account's CA), one connection per request or watch. Neither the JDK's
 * {@code java.net.http} nor fabric8's client: with their classes the sidecar's resident size was
 * about 40 MiB larger (bench/README.md, "Sidecar footprint"), and the sidecar sends a few requests
 * a minute. A watch is a WebSocket as fabric8's client opens it, which the API server serves
 * (k8s.io/apiserver {@code endpoints/handlers/watch.go}, {@code HandleWS}) and fabric8's mock
 * server too.
 *
 * <p>Authentication is a bearer token, read again before every request: the kubelet rotates a
 * projected service account token in place.
 */
final class ApiConnection {
  /** Where the kubelet mounts the service account of a pod (client-go's in-cluster config). */
  static final Path SERVICE_ACCOUNT = Path.of("/var/run/secrets/kubernetes.io/serviceaccount");

  /** The largest response body or watch event read, in bytes: far above any pod, page or Status. */
  static final int MAX_BODY = 64 << 20;

  /** Nonces and frame masks (RFC 6455 4.1, 5.3); one generator for the process. */
  private static final SecureRandom RANDOM = new SecureRandom();

  private static final String WEBSOCKET_GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";

  private final URI server;
  private final Supplier<String> token;
  private final SSLSocketFactory tls;
  private final String userAgent;
  private final Duration connectTimeout;
  private final Duration requestTimeout;
  private final Duration watchReconnect;

  ApiConnection(
      URI server,
      Supplier<String> token,
      SSLSocketFactory tls,
      String userAgent,
      Duration connectTimeout,
      Duration requestTimeout,
      Duration watchReconnect) {
    if (!"http".equals(server.getScheme()) && !"https".equals(server.getScheme())) {
      throw new IllegalArgumentException("the API server's URL must be http or https: " + server);
    }
    this.server = server;
    this.token = token;
    this.tls = tls;
    this.userAgent = userAgent;
    this.connectTimeout = connectTimeout;
    this.requestTimeout = requestTimeout;
    this.watchReconnect = watchReconnect;
  }

  /**
   * The connection of a process started by kubelet or by hand: {@code KUBERNETES_MASTER} (a URL; a
   * token in {@code KUBERNETES_AUTH_TOKEN}, a CA in {@code KUBERNETES_CERTS_CA_FILE}, the names
   * fabric8's client reads) when set, else the pod's own service account as client-go's in-cluster
   * configuration finds it ({@code KUBERNETES_SERVICE_HOST}, {@code KUBERNETES_SERVICE_PORT}, the
   * token and {@code ca.crt} under {@link #SERVICE_ACCOUNT}).
   */
  static ApiConnection fromEnvironment(String userAgent, Map<String, String> env) {
    Duration connect = Duration.ofSeconds(10);
    Duration request = Duration.ofSeconds(30);
    Duration reconnect = Duration.ofSeconds(1);
    String master = env.get("KUBERNETES_MASTER");
    if (master != null && !master.isBlank()) {
      URI uri = URI.create(master.contains("://") ? master : "https://" + master);
      String fixed = env.get("KUBERNETES_AUTH_TOKEN");
      String tokenFile = env.get("KUBERNETES_AUTH_SERVICEACCOUNT_TOKEN");
      Supplier<String> token =
          fixed != null ? () -> fixed : tokenFile != null ? file(Path.of(tokenFile)) : () -> null;
      String ca = env.get("KUBERNETES_CERTS_CA_FILE");
      SSLSocketFactory tls =
          "https".equals(uri.getScheme())
              ? ca != null ? trusting(readCa(Path.of(ca))) : defaultTls()
              : null;
      return new ApiConnection(uri, token, tls, userAgent, connect, request, reconnect);
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
    return new ApiConnection(
        URI.create("https://" + authority),
        file(SERVICE_ACCOUNT.resolve("token")),
        trusting(readCa(SERVICE_ACCOUNT.resolve("ca.crt"))),
        userAgent,
        connect,
        request,
        reconnect);
  }

  URI server() {
    return server;
  }

  /** How long a dropped watch waits before it is opened again from the last resource version. */
  Duration watchReconnect() {
    return watchReconnect;
  }

  /** A token read from {@code path} at each request (trimmed), or {@code null} when it is gone. */
  static Supplier<String> file(Path path) {
    return () -> {
      try {
        return Files.readString(path).trim();
      } catch (IOException e) {
        return null;
      }
    };
  }

  private static byte[] readCa(Path path) {
    try {
      return Files.readAllBytes(path);
    } catch (IOException e) {
      throw new IllegalStateException("cannot read the API server's CA " + path + ": " + e, e);
    }
  }

  /** TLS that trusts the certificates of {@code pem} (one or more, PEM or DER) and no others. */
  static SSLSocketFactory trusting(byte[] pem) {
    try {
      KeyStore store = KeyStore.getInstance(KeyStore.getDefaultType());
      store.load(null, null);
      int n = 0;
      for (Certificate c :
          CertificateFactory.getInstance("X.509")
              .generateCertificates(new java.io.ByteArrayInputStream(pem))) {
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
      return context.getSocketFactory();
    } catch (GeneralSecurityException | IOException e) {
      throw new IllegalStateException("the API server's CA cannot be used: " + e, e);
    }
  }

  /** TLS that trusts any certificate: only for a configuration that says so (local tests). */
  static SSLSocketFactory trustingAny() {
    TrustManager any =
        new X509TrustManager() {
          @Override
          public void checkClientTrusted(X509Certificate[] chain, String authType) {}

          @Override
          public void checkServerTrusted(X509Certificate[] chain, String authType) {}

          @Override
          public X509Certificate[] getAcceptedIssuers() {
            return new X509Certificate[0];
          }
        };
    try {
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(null, new TrustManager[] {any}, null);
      return context.getSocketFactory();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  private static SSLSocketFactory defaultTls() {
    return (SSLSocketFactory) SSLSocketFactory.getDefault();
  }

  /** An answer of the API server: its status code and body. */
  record Response(int code, byte[] body) {
    boolean successful() {
      return code >= 200 && code < 300;
    }

    String text() {
      return new String(body, StandardCharsets.UTF_8);
    }
  }

  /**
   * Sends one request ({@code body} may be {@code null}) to {@code pathAndQuery} (starting with
   * {@code /}, already URL-encoded) and reads the whole answer.
   */
  Response send(String method, String pathAndQuery, String contentType, String body)
      throws IOException {
    byte[] content = body == null ? null : body.getBytes(StandardCharsets.UTF_8);
    try (Socket socket = open()) {
      StringBuilder head = requestHead(method, pathAndQuery);
      head.append("Accept: application/json\r\n");
      if (content != null) {
        head.append("Content-Type: ").append(contentType).append("\r\n");
        head.append("Content-Length: ").append(content.length).append("\r\n");
      }
      head.append("Connection: close\r\n\r\n");
      OutputStream out = socket.getOutputStream();
      out.write(head.toString().getBytes(StandardCharsets.ISO_8859_1));
      if (content != null) {
        out.write(content);
      }
      out.flush();
      InputStream in = new java.io.BufferedInputStream(socket.getInputStream());
      int code = statusCode(readLine(in));
      Map<String, String> headers = readHeaders(in);
      return new Response(code, readBody(in, headers));
    }
  }

  /** {@code GET} of a collection ({@code pathAndQuery} names no object): a list. */
  Response list(String pathAndQuery) throws IOException {
    return send("GET", pathAndQuery, null, null);
  }

  /**
   * Opens a watch ({@code pathAndQuery} with {@code watch=true}) as a WebSocket; each {@link
   * Watch#next} is one event's JSON. An answer other than the upgrade is an {@link ApiException}
   * with its status.
   */
  Watch watch(String pathAndQuery) throws IOException {
    Socket socket = open();
    try {
      byte[] nonce = new byte[16];
      RANDOM.nextBytes(nonce);
      String key = Base64.getEncoder().encodeToString(nonce);
      StringBuilder head = requestHead("GET", pathAndQuery);
      head.append("Upgrade: websocket\r\n")
          .append("Connection: Upgrade\r\n")
          .append("Sec-WebSocket-Key: ")
          .append(key)
          .append("\r\n")
          .append("Sec-WebSocket-Version: 13\r\n\r\n");
      OutputStream out = socket.getOutputStream();
      out.write(head.toString().getBytes(StandardCharsets.ISO_8859_1));
      out.flush();
      InputStream in = new java.io.BufferedInputStream(socket.getInputStream());
      int code = statusCode(readLine(in));
      Map<String, String> headers = readHeaders(in);
      if (code != 101) {
        byte[] body = readBody(in, headers);
        throw new ApiException(
            code,
            "watch failed: HTTP "
                + code
                + " "
                + firstLine(new String(body, StandardCharsets.UTF_8)));
      }
      String accept = headers.get("sec-websocket-accept");
      if (accept == null || !accept.equals(acceptKey(key))) {
        throw new IOException("watch failed: the server's WebSocket handshake does not match");
      }
      // A watch waits for events as long as it is open: no read timeout.
      socket.setSoTimeout(0);
      return new Watch(socket, in, out);
    } catch (IOException | RuntimeException e) {
      socket.close();
      throw e;
    }
  }

  private StringBuilder requestHead(String method, String pathAndQuery) {
    StringBuilder head = new StringBuilder(256);
    head.append(method).append(' ').append(basePath()).append(pathAndQuery).append(" HTTP/1.1\r\n");
    head.append("Host: ").append(server.getRawAuthority()).append("\r\n");
    head.append("User-Agent: ").append(userAgent).append("\r\n");
    String t = token.get();
    if (t != null && !t.isEmpty()) {
      head.append("Authorization: Bearer ").append(t).append("\r\n");
    }
    return head;
  }

  private String basePath() {
    String p = server.getRawPath();
    return p == null ? "" : p.replaceAll("/+$", "");
  }

  private Socket open() throws IOException {
    String host = server.getHost();
    if (host != null && host.startsWith("[") && host.endsWith("]")) {
      host = host.substring(1, host.length() - 1);
    }
    boolean secure = "https".equals(server.getScheme());
    int port = server.getPort() > 0 ? server.getPort() : secure ? 443 : 80;
    Socket plain = new Socket();
    try {
      plain.connect(new InetSocketAddress(host, port), (int) connectTimeout.toMillis());
      plain.setSoTimeout((int) requestTimeout.toMillis());
      plain.setTcpNoDelay(true);
      if (!secure) {
        return plain;
      }
      SSLSocket s =
          (SSLSocket) (tls != null ? tls : defaultTls()).createSocket(plain, host, port, true);
      SSLParameters params = s.getSSLParameters();
      // The API server's certificate must name the host (or IP) dialled, as client-go checks.
      params.setEndpointIdentificationAlgorithm("HTTPS");
      s.setSSLParameters(params);
      s.startHandshake();
      return s;
    } catch (IOException | RuntimeException e) {
      plain.close();
      throw e;
    }
  }

  static String acceptKey(String key) {
    try {
      byte[] sha1 =
          MessageDigest.getInstance("SHA-1")
              .digest((key + WEBSOCKET_GUID).getBytes(StandardCharsets.ISO_8859_1));
      return Base64.getEncoder().encodeToString(sha1);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  private static int statusCode(String statusLine) throws IOException {
    // HTTP/1.1 200 OK
    String[] parts = statusLine.split(" ", 3);
    if (parts.length < 2 || !parts[0].startsWith("HTTP/")) {
      throw new IOException("not an HTTP answer: " + firstLine(statusLine));
    }
    try {
      return Integer.parseInt(parts[1]);
    } catch (NumberFormatException e) {
      throw new IOException("not an HTTP status: " + firstLine(statusLine), e);
    }
  }

  /** Header names in lower case; a repeated header keeps its last value. */
  private static Map<String, String> readHeaders(InputStream in) throws IOException {
    Map<String, String> headers = new java.util.HashMap<>();
    for (int n = 0; ; n++) {
      String line = readLine(in);
      if (line.isEmpty()) {
        return headers;
      }
      if (n > 200) {
        throw new IOException("too many HTTP headers");
      }
      int colon = line.indexOf(':');
      if (colon > 0) {
        headers.put(
            line.substring(0, colon).trim().toLowerCase(Locale.ROOT),
            line.substring(colon + 1).trim());
      }
    }
  }

  private static byte[] readBody(InputStream in, Map<String, String> headers) throws IOException {
    String encoding = headers.get("transfer-encoding");
    if (encoding != null && encoding.toLowerCase(Locale.ROOT).contains("chunked")) {
      ByteArrayOutputStream body = new ByteArrayOutputStream();
      while (true) {
        String size = readLine(in);
        int semi = size.indexOf(';');
        long n;
        try {
          n = Long.parseLong((semi < 0 ? size : size.substring(0, semi)).trim(), 16);
        } catch (NumberFormatException e) {
          throw new IOException("bad chunk size: " + firstLine(size), e);
        }
        if (n < 0) {
          throw new IOException("bad chunk size: " + firstLine(size));
        }
        if (n == 0) {
          while (!readLine(in).isEmpty()) {
            // trailers, ignored
          }
          return body.toByteArray();
        }
        if (body.size() + n > MAX_BODY) {
          throw new IOException("an answer of more than " + MAX_BODY + " bytes");
        }
        body.write(readExactly(in, (int) n));
        readLine(in); // the CRLF after the chunk
      }
    }
    String length = headers.get("content-length");
    if (length != null) {
      long n;
      try {
        n = Long.parseLong(length.trim());
      } catch (NumberFormatException e) {
        throw new IOException("bad Content-Length: " + length, e);
      }
      if (n < 0 || n > MAX_BODY) {
        throw new IOException("an answer of " + n + " bytes");
      }
      return readExactly(in, (int) n);
    }
    // Neither: the body ends with the connection (we asked for Connection: close).
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    byte[] buf = new byte[8192];
    for (int r; (r = in.read(buf)) > 0; ) {
      if (body.size() + r > MAX_BODY) {
        throw new IOException("an answer of more than " + MAX_BODY + " bytes");
      }
      body.write(buf, 0, r);
    }
    return body.toByteArray();
  }

  static byte[] readExactly(InputStream in, int n) throws IOException {
    byte[] out = in.readNBytes(n);
    if (out.length < n) {
      throw new EOFException("the connection ended " + (n - out.length) + " bytes early");
    }
    return out;
  }

  /** One line of an HTTP head, without its CRLF; at most 64 KiB. */
  private static String readLine(InputStream in) throws IOException {
    StringBuilder line = new StringBuilder(64);
    while (true) {
      int b = in.read();
      if (b < 0) {
        throw new EOFException("the connection ended in an HTTP head");
      }
      if (b == '\n') {
        int len = line.length();
        if (len > 0 && line.charAt(len - 1) == '\r') {
          line.setLength(len - 1);
        }
        return line.toString();
      }
      if (line.length() >= 65536) {
        throw new IOException("an HTTP head line of more than 64 KiB");
      }
      line.append((char) b);
    }
  }

  static String firstLine(String s) {
    if (s == null) {
      return "";
    }
    int nl = s.indexOf('\n');
    return nl < 0 ? s : s.substring(0, nl);
  }

  /**
   * An open watch: WebSocket messages (RFC 6455) from the server, each a watch event's JSON. Pings
   * are answered; {@link #next} returns {@code null} once the server closes the watch.
   */
  static final class Watch implements Closeable {
    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;
    private volatile boolean closed;

    Watch(Socket socket, InputStream in, OutputStream out) {
      this.socket = socket;
      this.in = in;
      this.out = out;
    }

    /** The next message, or {@code null} when the server closed the watch. */
    byte[] next() throws IOException {
      ByteArrayOutputStream message = null;
      while (true) {
        int b0 = in.read();
        if (b0 < 0) {
          return null;
        }
        int b1 = readByte();
        boolean fin = (b0 & 0x80) != 0;
        int opcode = b0 & 0x0F;
        long length = b1 & 0x7F;
        if (length == 126) {
          length = (readByte() << 8) | readByte();
        } else if (length == 127) {
          length = 0;
          for (int i = 0; i < 8; i++) {
            length = (length << 8) | readByte();
          }
        }
        if (length < 0 || length > MAX_BODY) {
          throw new IOException("a watch message of " + length + " bytes");
        }
        if ((b1 & 0x80) != 0) {
          // RFC 6455 5.1: a client closes the connection on a masked frame from the server.
          throw new IOException("a masked WebSocket frame from the server");
        }
        byte[] payload = readExactly(in, (int) length);
        switch (opcode) {
          case 0x8 -> {
            return null; // close
          }
          case 0x9 -> send(0xA, payload); // ping: pong with its payload
          case 0xA -> {} // pong
          case 0x0, 0x1, 0x2 -> {
            if (message == null) {
              if (fin) {
                return payload;
              }
              message = new ByteArrayOutputStream();
            }
            if (message.size() + payload.length > MAX_BODY) {
              throw new IOException("a watch message of more than " + MAX_BODY + " bytes");
            }
            message.write(payload);
            if (fin) {
              return message.toByteArray();
            }
          }
          default -> throw new IOException("unknown WebSocket opcode " + opcode);
        }
      }
    }

    private int readByte() throws IOException {
      int b = in.read();
      if (b < 0) {
        throw new EOFException("the watch ended inside a WebSocket frame");
      }
      return b;
    }

    /** A client frame: always masked (RFC 6455 5.3). */
    private synchronized void send(int opcode, byte[] payload) throws IOException {
      byte[] mask = new byte[4];
      RANDOM.nextBytes(mask);
      ByteArrayOutputStream frame = new ByteArrayOutputStream(payload.length + 14);
      frame.write(0x80 | opcode);
      if (payload.length < 126) {
        frame.write(0x80 | payload.length);
      } else {
        frame.write(0x80 | 126);
        frame.write(payload.length >> 8);
        frame.write(payload.length);
      }
      frame.write(mask);
      for (int i = 0; i < payload.length; i++) {
        frame.write(payload[i] ^ mask[i & 3]);
      }
      out.write(frame.toByteArray());
      out.flush();
    }

    /** Says goodbye (a close frame, status 1000) and closes the connection. */
    @Override
    public void close() {
      if (closed) {
        return;
      }
      closed = true;
      try {
        send(0x8, new byte[] {0x03, (byte) 0xE8});
      } catch (IOException | RuntimeException e) {
        // The connection is going anyway; a dropped one cannot take a goodbye.
      }
      try {
        socket.close();
      } catch (IOException e) {
        // Nothing left to release.
      }
    }
  }
}
