package dev.jobc.sidecar;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLHandshakeException;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link ApiConnection} against a scripted server on the loopback address: the bytes of the
 * requests it writes, the answers (HTTP/1.1, RFC 9112) and watch frames (WebSocket, RFC 6455) it
 * reads, TLS with the API server's CA, and the configuration from the environment.
 */
class ApiConnectionTest {
  /** Every socket's read timeout: a broken test fails after it instead of hanging. */
  private static final int TIMEOUT_MS = 30_000;

  private static final String WEBSOCKET_GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";

  private static final String STOREPASS = "changeit";

  private static final Charset UTF8 = StandardCharsets.UTF_8;

  @TempDir static Path tls;

  /** The server's key and certificate (SAN IP:127.0.0.1 only), and another one alike. */
  private static Path serverStore;

  private static byte[] serverPem;
  private static byte[] otherPem;

  @BeforeAll
  static void certificates() throws Exception {
    serverStore = tls.resolve("server.p12");
    serverPem = certificate(serverStore, "CN=stand-in");
    otherPem = certificate(tls.resolve("other.p12"), "CN=other");
  }

  // ---------------------------------------------------------------- requests

  /** The request line keeps the server URL's path prefix; Host, User-Agent and the body's bytes. */
  @Test
  void requestHeadNamesMethodPathHostAgentAndBody() throws Exception {
    Server server = Server.plain(1, (i, peer) -> peer.respond(200, "{}"));
    String body = "{\"metadata\":{\"name\":\"pi-worker-0\",\"labels\":{\"note\":\"grüße\"}}}";
    ApiConnection.Response response;
    try (server) {
      response =
          connection(server.uri("/base/"), () -> "t0k3n")
              .send(
                  "PATCH",
                  "/api/v1/namespaces/team/pods/pi-worker-0?fieldManager=jobc",
                  "application/merge-patch+json",
                  body);
    }
    assertThat(response.code()).isEqualTo(200);
    Request r = server.request(0);
    assertThat(r.line())
        .isEqualTo(
            "PATCH /base/api/v1/namespaces/team/pods/pi-worker-0?fieldManager=jobc HTTP/1.1");
    assertThat(r.header("Host")).isEqualTo("127.0.0.1:" + server.port());
    assertThat(r.header("User-Agent")).isEqualTo("jobc-sidecar/test");
    assertThat(r.header("Authorization")).isEqualTo("Bearer t0k3n");
    assertThat(r.header("Content-Type")).isEqualTo("application/merge-patch+json");
    byte[] utf8 = body.getBytes(StandardCharsets.UTF_8);
    assertThat(utf8.length).as("ü and ß are two bytes each").isEqualTo(body.length() + 2);
    assertThat(r.header("Content-Length")).isEqualTo(Integer.toString(utf8.length));
    assertThat(r.body()).isEqualTo(utf8);
  }

  /** A projected service account token is rotated in place: each request reads it again. */
  @Test
  void bearerTokenIsReadAgainForEachRequest() throws Exception {
    AtomicReference<String> token = new AtomicReference<>("first-token");
    Server server = Server.plain(2, (i, peer) -> peer.respond(200, "{}"));
    try (server) {
      ApiConnection c = connection(server.uri(""), token::get);
      c.list("/api/v1/pods");
      token.set("second-token");
      c.list("/api/v1/pods");
    }
    assertThat(server.request(0).header("Authorization")).isEqualTo("Bearer first-token");
    assertThat(server.request(1).header("Authorization")).isEqualTo("Bearer second-token");
    assertThat(server.request(1).line()).isEqualTo("GET /api/v1/pods HTTP/1.1");
  }

  /** Without a token (none configured, or its file gone) no Authorization header is sent. */
  @Test
  void noAuthorizationHeaderWithoutToken() throws Exception {
    AtomicReference<String> token = new AtomicReference<>(null);
    Server server = Server.plain(2, (i, peer) -> peer.respond(200, "{}"));
    try (server) {
      ApiConnection c = connection(server.uri(""), token::get);
      c.list("/api/v1/pods");
      token.set("");
      c.list("/api/v1/pods");
    }
    for (int i = 0; i < 2; i++) {
      Request r = server.request(i);
      assertThat(r.headers()).doesNotContainKey("authorization");
      assertThat(r.headers())
          .as("a GET without a body has no Content-Length")
          .doesNotContainKey("content-length");
      assertThat(r.header("Accept")).isEqualTo("application/json");
    }
  }

  // ---------------------------------------------------------------- responses

  /** A body of Content-Length bytes is read, and not a byte after it (RFC 9112 6.3 item 6). */
  @Test
  void contentLengthBodyIsReadExactly() throws Exception {
    Server server =
        Server.plain(
            1,
            (i, peer) -> {
              peer.readRequest();
              peer.write(
                  "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\ncontent-length: 11\r\n"
                      + "\r\n{\"kind\":1}\nNOT PART OF THE BODY");
            });
    ApiConnection.Response response;
    try (server) {
      response = connection(server.uri(""), () -> null).list("/api/v1/pods");
    }
    assertThat(response.successful()).isTrue();
    assertThat(response.text()).isEqualTo("{\"kind\":1}\n");
  }

  /**
   * Chunked transfer coding (RFC 9112 7.1): several chunks, hex sizes, a chunk extension and
   * trailers; it overrides a Content-Length sent with it (6.3 item 3).
   */
  @Test
  void chunkedBodyWithExtensionAndTrailersIsJoined() throws Exception {
    String alphabet = "abcdefghijklmnopqrstuvwxyz";
    Server server =
        Server.plain(
            1,
            (i, peer) -> {
              peer.readRequest();
              peer.write(
                  "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n"
                      + "5;foo=bar\r\nhello\r\n"
                      + "1\r\n,\r\n"
                      + "1A\r\n"
                      + alphabet
                      + "\r\n"
                      + "0\r\nX-Checksum: abc\r\nX-Other: 1\r\n\r\n"
                      + "NOT PART OF THE BODY");
            });
    ApiConnection.Response response;
    try (server) {
      response = connection(server.uri(""), () -> null).list("/api/v1/pods");
    }
    assertThat(response.text()).isEqualTo("hello," + alphabet);
  }

  /** A negative chunk size is a broken answer: an I/O error, not a read of minus five bytes. */
  @Test
  void aNegativeChunkSizeFailsTheRequest() throws Exception {
    Server server =
        Server.plain(
            1,
            (i, peer) -> {
              peer.readRequest();
              peer.write("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n-5\r\nhello\r\n");
            });
    try (server) {
      assertThatThrownBy(() -> connection(server.uri(""), () -> null).list("/api/v1/pods"))
          .isInstanceOf(java.io.IOException.class)
          .hasMessageContaining("bad chunk size");
    }
  }

  /**
   * Neither Content-Length nor chunked: the body ends with the connection (RFC 9112 6.3 item 8).
   */
  @Test
  void bodyWithoutLengthEndsWithTheConnection() throws Exception {
    byte[] body = pattern(20_000);
    Server server =
        Server.plain(
            1,
            (i, peer) -> {
              peer.readRequest();
              peer.write("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\r\n");
              peer.write(body);
            });
    ApiConnection.Response response;
    try (server) {
      response = connection(server.uri(""), () -> null).list("/api/v1/pods");
    }
    assertThat(response.body()).isEqualTo(body);
  }

  /** A refusal (here a 404 Status) is an answer for the caller to read, not an exception. */
  @Test
  void errorStatusIsAnUnsuccessfulResponse() throws Exception {
    String status =
        "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\","
            + "\"message\":\"pods \\\"pi-worker-9\\\" not found\",\"reason\":\"NotFound\","
            + "\"code\":404}";
    Server server = Server.plain(1, (i, peer) -> peer.respond(404, status));
    ApiConnection.Response response;
    try (server) {
      response =
          connection(server.uri(""), () -> null)
              .send("DELETE", "/api/v1/namespaces/team/pods/pi-worker-9", null, null);
    }
    assertThat(response.code()).isEqualTo(404);
    assertThat(response.successful()).isFalse();
    assertThat(response.text()).isEqualTo(status);
    assertThat(server.request(0).line())
        .isEqualTo("DELETE /api/v1/namespaces/team/pods/pi-worker-9 HTTP/1.1");
  }

  // ---------------------------------------------------------------- bounds

  /** A Content-Length above MAX_BODY is refused before a byte of the body is waited for. */
  @Test
  void contentLengthAboveMaxBodyFailsWithoutReadingIt() throws Exception {
    long length = ApiConnection.MAX_BODY + 1L;
    Server server =
        Server.plain(
            1,
            (i, peer) -> {
              peer.readRequest();
              peer.write("HTTP/1.1 200 OK\r\nContent-Length: " + length + "\r\n\r\n{\"items\":[");
              // No more: a client that waited for the body would wait for this read's timeout.
              peer.awaitEnd();
            });
    try (server) {
      ApiConnection c = connection(server.uri(""), () -> null);
      assertThatThrownBy(() -> c.list("/api/v1/pods"))
          .isInstanceOf(IOException.class)
          .isNotInstanceOf(SocketTimeoutException.class)
          .hasMessageContaining(Long.toString(length));
    }
    assertThat(server.ended()).as("the client closed the connection").containsExactly(true);
  }

  /** A head line longer than 64 KiB ends the request instead of growing without bound. */
  @Test
  void headerLineOver64KiBFails() throws Exception {
    char[] big = new char[70_000];
    Arrays.fill(big, 'a');
    Server server =
        Server.plain(
            1,
            (i, peer) -> {
              peer.readRequest();
              try {
                peer.write(
                    "HTTP/1.1 200 OK\r\nX-Big: "
                        + new String(big)
                        + "\r\nContent-Length: 0\r\n\r\n");
              } catch (IOException expected) {
                // The client may close the connection before it has read all of it.
              }
            });
    try (server) {
      ApiConnection c = connection(server.uri(""), () -> null);
      assertThatThrownBy(() -> c.list("/api/v1/pods"))
          .isInstanceOf(IOException.class)
          .hasMessageContaining("64 KiB");
    }
  }

  // ---------------------------------------------------------------- watches

  /**
   * The opening handshake (RFC 6455 4.1): a GET with Upgrade, Connection, Sec-WebSocket-Version 13
   * and a key of 16 random bytes in Base64, different at each watch.
   */
  @Test
  void watchHandshakeAsksForWebSocket13() throws Exception {
    assertThat(accept("dGhlIHNhbXBsZSBub25jZQ=="))
        .as("the test's own accept key, RFC 6455 1.3's example")
        .isEqualTo("s3pPLMBiTxaQ9kYGzzhZRbK+xOo=");
    Server server =
        Server.plain(
            2,
            (i, peer) -> {
              peer.upgrade();
              peer.write(frame(true, 0x1, "{}".getBytes(StandardCharsets.UTF_8), null));
              peer.awaitEnd();
            });
    List<byte[]> messages = new ArrayList<>();
    try (server) {
      ApiConnection c = connection(server.uri("/base"), () -> "w-token");
      for (int i = 0; i < 2; i++) {
        try (ApiConnection.Watch watch = c.watch("/api/v1/namespaces/team/pods?watch=true")) {
          messages.add(watch.next());
        }
      }
    }
    assertThat(texts(messages)).containsExactly("{}", "{}");
    for (int i = 0; i < 2; i++) {
      Request r = server.request(i);
      assertThat(r.line()).isEqualTo("GET /base/api/v1/namespaces/team/pods?watch=true HTTP/1.1");
      assertThat(r.header("Upgrade")).isEqualToIgnoringCase("websocket");
      assertThat(r.header("Connection")).containsIgnoringCase("Upgrade");
      assertThat(r.header("Sec-WebSocket-Version")).isEqualTo("13");
      assertThat(r.header("Authorization")).isEqualTo("Bearer w-token");
      assertThat(r.header("Host")).isEqualTo("127.0.0.1:" + server.port());
      assertThat(Base64.getDecoder().decode(r.header("Sec-WebSocket-Key"))).hasSize(16);
    }
    assertThat(server.request(0).header("Sec-WebSocket-Key"))
        .as("a nonce per handshake")
        .isNotEqualTo(server.request(1).header("Sec-WebSocket-Key"));
  }

  /**
   * Data frames (RFC 6455 5.2): 7-bit, 16-bit and 64-bit payload lengths, a binary frame; a close
   * frame ends it.
   */
  @Test
  void watchReadsFramesOfEveryLength() throws Exception {
    byte[] small = "{\"type\":\"ADDED\"}".getBytes(UTF8);
    byte[] medium = pattern(300);
    byte[] large = pattern(70_000);
    byte[] binary = {0x00, 0x01, (byte) 0x7F, (byte) 0x80, (byte) 0xFF};
    Server server =
        Server.plain(
            1,
            (i, peer) -> {
              peer.upgrade();
              peer.write(frame(true, 0x1, small, null));
              peer.write(frame(true, 0x1, medium, null));
              peer.write(frame(true, 0x1, large, null));
              peer.write(frame(true, 0x2, binary, null));
              peer.write(frame(true, 0x8, new byte[] {0x03, (byte) 0xE8}, null));
            });
    List<byte[]> messages = messages(server);
    assertThat(texts(messages))
        .containsExactlyElementsOf(texts(List.of(small, medium, large, binary)));
    assertThat(medium[126] ^ medium[127]).as("the pattern is not constant").isNotZero();
  }

  /** A masked frame from the server ends the watch with an error (RFC 6455 5.1). */
  @Test
  void aMaskedFrameFromTheServerFailsTheWatch() throws Exception {
    byte[] masked = "{\"type\":\"MODIFIED\"}".getBytes(UTF8);
    Server server =
        Server.plain(
            1,
            (i, peer) -> {
              peer.upgrade();
              peer.write(frame(true, 0x1, masked, new byte[] {0x12, 0x34, 0x56, 0x78}));
            });
    try (server) {
      try (ApiConnection.Watch watch = connection(server.uri(""), () -> null).watch("/w")) {
        assertThatThrownBy(watch::next)
            .isInstanceOf(java.io.IOException.class)
            .hasMessageContaining("masked");
      }
    }
  }

  /**
   * A message in three frames (text + two continuations, RFC 6455 5.4) with a ping between them
   * (control frames may be injected, 5.5): the client's pong is masked and echoes the payload.
   */
  @Test
  void watchJoinsFragmentsAndAnswersPingWithMaskedPong() throws Exception {
    byte[] ping = "are you there?".getBytes(UTF8);
    AtomicReference<Frame> pong = new AtomicReference<>();
    Server server =
        Server.plain(
            1,
            (i, peer) -> {
              peer.upgrade();
              peer.write(frame(false, 0x1, "{\"type\":\"DEL".getBytes(UTF8), null));
              peer.write(frame(true, 0x9, ping, null));
              peer.write(frame(false, 0x0, "ETED\",\"object\":".getBytes(UTF8), null));
              peer.write(frame(true, 0x0, "{}}".getBytes(UTF8), null));
              pong.set(peer.readFrame());
              peer.write(frame(true, 0x1, "{\"after\":1}".getBytes(UTF8), null));
              peer.write(frame(true, 0x8, new byte[0], null));
            });
    List<byte[]> messages = messages(server);
    assertThat(texts(messages))
        .containsExactly("{\"type\":\"DELETED\",\"object\":{}}", "{\"after\":1}");
    Frame p = pong.get();
    assertThat(p).isNotNull();
    assertThat(p.fin()).isTrue();
    assertThat(p.opcode()).isEqualTo(0xA);
    assertThat(p.masked()).as("a client's frames are masked (RFC 6455 5.3)").isTrue();
    assertThat(p.payload()).isEqualTo(ping);
  }

  /** A watch whose connection ends without a close frame ends too: next() is null. */
  @Test
  void watchEndsWhenTheConnectionEnds() throws Exception {
    Server server =
        Server.plain(
            1,
            (i, peer) -> {
              peer.upgrade();
              peer.write(frame(true, 0x1, "{}".getBytes(UTF8), null));
            });
    byte[] first;
    byte[] second;
    try (server) {
      try (ApiConnection.Watch watch = connection(server.uri(""), () -> null).watch("/w")) {
        first = watch.next();
        second = watch.next();
      }
    }
    assertThat(new String(first, UTF8)).isEqualTo("{}");
    assertThat(second).isNull();
  }

  /** A watch the API server refuses (403 and a Status) is an ApiException with the status. */
  @Test
  void watchRefusedIsApiExceptionWithCodeAndFirstLine() throws Exception {
    String status =
        "{\"kind\":\"Status\",\"status\":\"Failure\",\"message\":\"pods is forbidden: User"
            + " \\\"system:serviceaccount:team:default\\\" cannot watch resource \\\"pods\\\"\","
            + "\"reason\":\"Forbidden\",\"code\":403}\nsecond line";
    Server server =
        Server.plain(
            1,
            (i, peer) -> {
              peer.respond(403, status);
              peer.awaitEnd();
            });
    try (server) {
      ApiConnection c = connection(server.uri(""), () -> null);
      assertThatThrownBy(() -> c.watch("/api/v1/pods?watch=true"))
          .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.code()).isEqualTo(403))
          .hasMessageContaining("403")
          .hasMessageContaining(status.substring(0, status.indexOf('\n')))
          .hasMessageNotContaining("second line");
    }
    assertThat(server.ended()).as("the refused watch's connection is closed").containsExactly(true);
  }

  /** A 101 whose Sec-WebSocket-Accept is not the key's (RFC 6455 4.1, item 4) is no watch. */
  @Test
  void watchWithWrongAcceptKeyFails() throws Exception {
    Server server =
        Server.plain(
            2,
            (i, peer) -> {
              peer.readRequest();
              String header =
                  i == 0
                      ? "Sec-WebSocket-Accept: " + accept("AAAAAAAAAAAAAAAAAAAAAA==") + "\r\n"
                      : "";
              peer.write(
                  "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n"
                      + "Connection: Upgrade\r\n"
                      + header
                      + "\r\n");
              peer.awaitEnd();
            });
    try (server) {
      ApiConnection c = connection(server.uri(""), () -> null);
      for (int i = 0; i < 2; i++) {
        assertThatThrownBy(() -> c.watch("/w"))
            .isInstanceOf(IOException.class)
            .hasMessageContaining("handshake");
      }
    }
    assertThat(server.ended()).containsExactly(true, true);
  }

  /**
   * Closing a watch says goodbye: one masked close frame with status 1000 (RFC 6455 5.5.1, 7.4).
   */
  @Test
  void watchCloseSendsMaskedCloseFrame1000() throws Exception {
    AtomicReference<Frame> close = new AtomicReference<>();
    Server server =
        Server.plain(
            1,
            (i, peer) -> {
              peer.upgrade();
              close.set(peer.readFrame());
              peer.awaitEnd();
            });
    try (server) {
      ApiConnection.Watch watch = connection(server.uri(""), () -> null).watch("/w");
      watch.close();
      watch.close();
    }
    Frame f = close.get();
    assertThat(f).isNotNull();
    assertThat(f.fin()).isTrue();
    assertThat(f.opcode()).isEqualTo(0x8);
    assertThat(f.masked()).isTrue();
    assertThat(f.payload()).containsExactly(0x03, 0xE8);
    assertThat(server.ended()).as("nothing after the close frame").containsExactly(true);
  }

  // ---------------------------------------------------------------- TLS

  /** HTTPS with the CA that issued the server's certificate (here: the certificate itself). */
  @Test
  void httpsWithTheServersCaSucceeds() throws Exception {
    Server server = Server.tls(serverStore, (i, peer) -> peer.respond(200, "{\"tls\":true}"));
    ApiConnection.Response response;
    try (server) {
      response =
          tls("https://127.0.0.1:" + server.port(), () -> "tls-token", serverPem)
              .list("/api/v1/pods");
    }
    assertThat(response.text()).isEqualTo("{\"tls\":true}");
    assertThat(server.request(0).header("Authorization")).isEqualTo("Bearer tls-token");
  }

  /** A certificate the configured CA did not issue is refused in the handshake. */
  @Test
  void httpsWithAnotherCaFailsTheHandshake() throws Exception {
    Server server = Server.tls(serverStore, ApiConnectionTest::respondUnlessHandshakeFails);
    try (server) {
      ApiConnection c = tls("https://127.0.0.1:" + server.port(), () -> "never-sent", otherPem);
      assertThatThrownBy(() -> c.list("/api/v1/pods")).isInstanceOf(SSLHandshakeException.class);
    }
    assertThat(server.requests()).as("no request went out").isEmpty();
  }

  /**
   * Endpoint identification is on: dialled as {@code localhost}, a certificate that names only
   * 127.0.0.1 is refused although its CA is trusted (client-go checks the host too).
   */
  @Test
  void httpsByANameTheCertificateLacksFailsHostnameVerification() throws Exception {
    assertThat(InetAddress.getByName("localhost").getHostAddress())
        .as("localhost dials the server's address")
        .isEqualTo("127.0.0.1");
    Server server = Server.tls(serverStore, ApiConnectionTest::respondUnlessHandshakeFails);
    try (server) {
      ApiConnection c = tls("https://localhost:" + server.port(), () -> "never-sent", serverPem);
      assertThatThrownBy(() -> c.list("/api/v1/pods"))
          .isInstanceOf(SSLHandshakeException.class)
          .hasMessageContaining("localhost");
    }
    assertThat(server.requests()).as("no request went out").isEmpty();
  }

  private static void respondUnlessHandshakeFails(int connection, Peer peer) throws IOException {
    try {
      peer.readRequest();
    } catch (IOException expected) {
      return; // the client refused the certificate
    }
    peer.respond(200, "{}");
  }

  // ---------------------------------------------------------------- environment

  /** KUBERNETES_MASTER and KUBERNETES_AUTH_TOKEN, the names fabric8's client reads. */
  @Test
  void environmentMasterAndTokenAreUsed() throws Exception {
    Server server = Server.plain(1, (i, peer) -> peer.respond(200, "{}"));
    try (server) {
      ApiConnection c =
          ApiConnection.fromEnvironment(
              "jobc-sidecar/env",
              Map.of(
                  "KUBERNETES_MASTER",
                  "http://127.0.0.1:" + server.port(),
                  "KUBERNETES_AUTH_TOKEN",
                  "abc"));
      c.list("/api/v1/pods");
    }
    Request r = server.request(0);
    assertThat(r.line()).isEqualTo("GET /api/v1/pods HTTP/1.1");
    assertThat(r.header("Authorization")).isEqualTo("Bearer abc");
    assertThat(r.header("User-Agent")).isEqualTo("jobc-sidecar/env");
  }

  /** KUBERNETES_AUTH_SERVICEACCOUNT_TOKEN names a file, read (and trimmed) at each request. */
  @Test
  void environmentTokenFileIsReadAtEachRequest(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("token");
    Files.writeString(file, "first\n");
    Server server = Server.plain(2, (i, peer) -> peer.respond(200, "{}"));
    try (server) {
      ApiConnection c =
          ApiConnection.fromEnvironment(
              "jobc-sidecar/env",
              Map.of(
                  "KUBERNETES_MASTER",
                  "http://127.0.0.1:" + server.port(),
                  "KUBERNETES_AUTH_SERVICEACCOUNT_TOKEN",
                  file.toString()));
      c.list("/api/v1/pods");
      Files.writeString(file, "second\n");
      c.list("/api/v1/pods");
    }
    assertThat(server.request(0).header("Authorization")).isEqualTo("Bearer first");
    assertThat(server.request(1).header("Authorization")).isEqualTo("Bearer second");
  }

  /** Neither KUBERNETES_MASTER nor a pod's KUBERNETES_SERVICE_HOST: no server to talk to. */
  @Test
  void environmentWithoutServerFails() {
    assertThatThrownBy(() -> ApiConnection.fromEnvironment("a", Map.of()))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("KUBERNETES_SERVICE_HOST");
    assertThatThrownBy(
            () -> ApiConnection.fromEnvironment("a", Map.of("KUBERNETES_SERVICE_PORT", "443")))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("KUBERNETES_SERVICE_HOST");
  }

  /** Only http and https are API server URLs; a master without a scheme is https. */
  @Test
  void environmentMasterSchemeIsHttpOrHttps() {
    assertThatThrownBy(
            () ->
                ApiConnection.fromEnvironment(
                    "a", Map.of("KUBERNETES_MASTER", "ftp://127.0.0.1:21")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("ftp://127.0.0.1:21");
    assertThat(
            ApiConnection.fromEnvironment("a", Map.of("KUBERNETES_MASTER", "10.0.0.1:6443"))
                .server())
        .isEqualTo(URI.create("https://10.0.0.1:6443"));
  }

  // ---------------------------------------------------------------- the scripted server

  private static ApiConnection connection(URI server, Supplier<String> token) {
    return new ApiConnection(
        server,
        token,
        null,
        "jobc-sidecar/test",
        Duration.ofSeconds(30),
        Duration.ofSeconds(30),
        Duration.ofSeconds(1));
  }

  /** What one connection of the server does. */
  @FunctionalInterface
  private interface Script {
    void serve(int connection, Peer peer) throws Exception;
  }

  /** A request as the server read it: header names in lower case. */
  private record Request(String line, Map<String, String> headers, byte[] body) {
    String header(String name) {
      return headers.get(name.toLowerCase(Locale.ROOT));
    }
  }

  /** A WebSocket frame as the server read it, unmasked. */
  private record Frame(int b0, boolean masked, byte[] payload) {
    boolean fin() {
      return (b0 & 0x80) != 0;
    }

    int opcode() {
      return b0 & 0x0F;
    }
  }

  /** The server's end of one connection. */
  private static final class Peer {
    private final Server server;
    private final InputStream in;
    private final OutputStream out;

    Peer(Server server, Socket socket) throws IOException {
      this.server = server;
      this.in = new BufferedInputStream(socket.getInputStream());
      this.out = socket.getOutputStream();
    }

    Request readRequest() throws IOException {
      String line = readLine();
      Map<String, String> headers = new LinkedHashMap<>();
      for (String h; !(h = readLine()).isEmpty(); ) {
        int colon = h.indexOf(':');
        // A repeated header shows as both values.
        headers.merge(
            h.substring(0, colon).trim().toLowerCase(Locale.ROOT),
            h.substring(colon + 1).trim(),
            (a, b) -> a + ", " + b);
      }
      String length = headers.get("content-length");
      byte[] body = length == null ? new byte[0] : in.readNBytes(Integer.parseInt(length));
      Request r = new Request(line, headers, body);
      server.requests.add(r);
      return r;
    }

    private String readLine() throws IOException {
      ByteArrayOutputStream line = new ByteArrayOutputStream();
      for (int b; (b = in.read()) != '\n'; ) {
        if (b < 0) {
          throw new EOFException("the request ended in its head");
        }
        line.write(b);
      }
      String s = line.toString(StandardCharsets.ISO_8859_1);
      assertThat(s).as("lines end with CRLF").endsWith("\r");
      return s.substring(0, s.length() - 1);
    }

    /** Reads the request and answers {@code code} with a Content-Length body. */
    void respond(int code, String body) throws IOException {
      readRequest();
      byte[] bytes = body.getBytes(UTF8);
      write(
          "HTTP/1.1 "
              + code
              + " Whatever\r\nContent-Type: application/json\r\nContent-Length: "
              + bytes.length
              + "\r\n\r\n");
      write(bytes);
    }

    /** Reads a WebSocket handshake and accepts it with the key's own accept value. */
    Request upgrade() throws IOException, GeneralSecurityException {
      Request r = readRequest();
      write(
          "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
              + "Sec-WebSocket-Accept: "
              + accept(r.header("Sec-WebSocket-Key"))
              + "\r\n\r\n");
      return r;
    }

    Frame readFrame() throws IOException {
      int b0 = readByte();
      int b1 = readByte();
      long length = b1 & 0x7F;
      if (length == 126) {
        length = (readByte() << 8) | readByte();
      } else if (length == 127) {
        length = 0;
        for (int i = 0; i < 8; i++) {
          length = (length << 8) | readByte();
        }
      }
      boolean masked = (b1 & 0x80) != 0;
      byte[] mask = masked ? in.readNBytes(4) : null;
      byte[] payload = in.readNBytes((int) length);
      if (payload.length < length) {
        throw new EOFException("a frame cut short");
      }
      for (int i = 0; masked && i < payload.length; i++) {
        payload[i] ^= mask[i & 3];
      }
      return new Frame(b0, masked, payload);
    }

    private int readByte() throws IOException {
      int b = in.read();
      if (b < 0) {
        throw new EOFException("the connection ended in a frame");
      }
      return b;
    }

    /**
     * Waits until the client closes the connection; records whether nothing came before. A reset is
     * a close too: a client that closes with bytes of the answer unread sends one.
     */
    void awaitEnd() throws IOException {
      boolean end;
      try {
        end = in.read() < 0;
      } catch (SocketException reset) {
        end = true;
      }
      server.ended.add(end);
    }

    void write(String s) throws IOException {
      write(s.getBytes(StandardCharsets.ISO_8859_1));
    }

    void write(byte[] bytes) throws IOException {
      out.write(bytes);
      out.flush();
    }
  }

  /**
   * A server of {@code connections} connections, one after the other, on its own thread. Closing it
   * joins the thread and throws what failed in the script.
   */
  private static final class Server implements AutoCloseable {
    private final ServerSocket socket;
    private final List<Request> requests = new CopyOnWriteArrayList<>();
    private final List<Boolean> ended = new CopyOnWriteArrayList<>();
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private volatile Socket current;
    private Thread thread;

    private Server(ServerSocket socket) {
      this.socket = socket;
    }

    static Server plain(int connections, Script script) throws IOException {
      return start(
          new ServerSocket(0, 50, InetAddress.getByName("127.0.0.1")), connections, script);
    }

    static Server tls(Path keyStore, Script script) throws Exception {
      KeyStore store = KeyStore.getInstance("PKCS12");
      try (InputStream in = Files.newInputStream(keyStore)) {
        store.load(in, STOREPASS.toCharArray());
      }
      KeyManagerFactory keys =
          KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
      keys.init(store, STOREPASS.toCharArray());
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(keys.getKeyManagers(), null, null);
      return start(
          context
              .getServerSocketFactory()
              .createServerSocket(0, 50, InetAddress.getByName("127.0.0.1")),
          1,
          script);
    }

    private static Server start(ServerSocket socket, int connections, Script script)
        throws IOException {
      socket.setSoTimeout(TIMEOUT_MS);
      Server server = new Server(socket);
      server.thread =
          new Thread(
              () -> {
                try {
                  for (int i = 0; i < connections; i++) {
                    try (Socket s = socket.accept()) {
                      server.current = s;
                      s.setSoTimeout(TIMEOUT_MS);
                      script.serve(i, new Peer(server, s));
                    }
                  }
                } catch (Throwable t) {
                  server.failure.set(t);
                }
              },
              "scripted-api-server");
      server.thread.setDaemon(true);
      server.thread.start();
      return server;
    }

    int port() {
      return socket.getLocalPort();
    }

    URI uri(String path) {
      return URI.create("http://127.0.0.1:" + port() + path);
    }

    Request request(int i) {
      assertThat(requests).as("requests read").hasSizeGreaterThan(i);
      return requests.get(i);
    }

    List<Request> requests() {
      return requests;
    }

    /** For each {@link Peer#awaitEnd}: whether the client closed without sending more. */
    List<Boolean> ended() {
      return ended;
    }

    @Override
    public void close() throws IOException {
      try {
        thread.join(4L * TIMEOUT_MS);
        if (thread.isAlive()) {
          Socket s = current;
          if (s != null) {
            s.close();
          }
          socket.close();
          thread.join();
          throw new AssertionError("the scripted server did not end");
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError(e);
      } finally {
        socket.close();
      }
      Throwable t = failure.get();
      if (t instanceof AssertionError a) {
        throw a;
      }
      if (t != null) {
        throw new AssertionError("the scripted server failed: " + t, t);
      }
    }
  }

  /** Messages as text, byte for byte (ISO 8859-1), to compare by content. */
  private static List<String> texts(List<byte[]> messages) {
    List<String> out = new ArrayList<>();
    for (byte[] m : messages) {
      out.add(new String(m, StandardCharsets.ISO_8859_1));
    }
    return out;
  }

  /** Sec-WebSocket-Accept for {@code key}, computed as RFC 6455 4.2.2 says. */
  private static String accept(String key) throws GeneralSecurityException {
    byte[] sha1 =
        MessageDigest.getInstance("SHA-1")
            .digest((key + WEBSOCKET_GUID).getBytes(StandardCharsets.US_ASCII));
    return Base64.getEncoder().encodeToString(sha1);
  }

  /** A server's frame (RFC 6455 5.2), masked with {@code mask} unless it is null. */
  private static byte[] frame(boolean fin, int opcode, byte[] payload, byte[] mask) {
    ByteArrayOutputStream f = new ByteArrayOutputStream(payload.length + 14);
    f.write((fin ? 0x80 : 0) | opcode);
    int maskBit = mask == null ? 0 : 0x80;
    int n = payload.length;
    if (n < 126) {
      f.write(maskBit | n);
    } else if (n <= 0xFFFF) {
      f.write(maskBit | 126);
      f.write(n >> 8);
      f.write(n);
    } else {
      f.write(maskBit | 127);
      for (int shift = 56; shift >= 0; shift -= 8) {
        f.write((int) ((long) n >>> shift));
      }
    }
    if (mask == null) {
      f.write(payload, 0, n);
    } else {
      f.write(mask, 0, 4);
      for (int i = 0; i < n; i++) {
        f.write(payload[i] ^ mask[i & 3]);
      }
    }
    return f.toByteArray();
  }

  /** {@code n} printable bytes that do not repeat with a period of 4 or a power of two. */
  private static byte[] pattern(int n) {
    byte[] out = new byte[n];
    for (int i = 0; i < n; i++) {
      out[i] = (byte) ('a' + (i * 7 + i / 13) % 26);
    }
    return out;
  }

  /** Generates a key pair and self-signed certificate (SAN IP:127.0.0.1) with keytool. */
  private static byte[] certificate(Path store, String dname) throws Exception {
    keytool(
        "-genkeypair",
        "-keyalg",
        "EC",
        "-groupname",
        "secp256r1",
        "-alias",
        "api",
        "-dname",
        dname,
        "-ext",
        "SAN=IP:127.0.0.1",
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
    Path pem = store.resolveSibling(store.getFileName() + ".pem");
    keytool(
        "-exportcert",
        "-rfc",
        "-alias",
        "api",
        "-keystore",
        store.toString(),
        "-storepass",
        STOREPASS,
        "-file",
        pem.toString());
    byte[] bytes = Files.readAllBytes(pem);
    assertThat(new String(bytes, StandardCharsets.US_ASCII))
        .startsWith("-----BEGIN CERTIFICATE-----");
    return bytes;
  }

  private static void keytool(String... args) throws Exception {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
    command.addAll(List.of(args));
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor()).as("keytool %s: %s", args[0], output).isZero();
  }

  /**
   * Every message of a watch of {@code server} (no token), until it ends; then the server stops.
   */
  private static List<byte[]> messages(Server server) throws Exception {
    List<byte[]> messages = new ArrayList<>();
    try (server) {
      try (ApiConnection.Watch watch = connection(server.uri(""), () -> null).watch("/w")) {
        for (byte[] m; (m = watch.next()) != null; ) {
          messages.add(m);
        }
      }
    }
    return messages;
  }

  /** A connection over TLS to {@code url} that trusts the certificates of {@code pem} only. */
  private static ApiConnection tls(String url, Supplier<String> token, byte[] pem) {
    return new ApiConnection(
        URI.create(url),
        token,
        ApiConnection.trusting(pem),
        "jobc-sidecar/test",
        Duration.ofSeconds(30),
        Duration.ofSeconds(30),
        Duration.ofSeconds(1));
  }
}
