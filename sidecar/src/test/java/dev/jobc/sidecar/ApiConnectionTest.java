package dev.jobc.sidecar;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.jobc.sidecar.base.ApiClients;
import dev.jobc.sidecar.client.ApiConnection;
import dev.jobc.sidecar.client.Backoff;
import dev.jobc.sidecar.client.ClusterApi;
import io.fabric8.mockwebserver.http.MockResponse;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The connection's configuration and TLS: the server's certificate must chain to the CA given (no
 * other trust), the CA file is read again when it changes, and the environment names the server.
 */
class ApiConnectionTest {
  @TempDir Path dir;

  private static ApiConnection connection(String url, java.util.function.Supplier<SSLContext> tls) {
    return connection(url, () -> "stand-in", tls);
  }

  private static ApiConnection connection(
      String url,
      java.util.function.Supplier<String> token,
      java.util.function.Supplier<SSLContext> tls) {
    return new ApiConnection(
        URI.create(url),
        token,
        tls,
        ApiClients.USER_AGENT,
        Duration.ofSeconds(60),
        Duration.ofSeconds(60),
        ApiConnection.MIN_WATCH_TIMEOUT,
        Backoff.Settings.CLIENT_GO);
  }

  @Test
  void httpsWithTheServersCaSucceedsByNameAndByAddress() throws Exception {
    try (ApiStandIn api =
        ApiStandIn.withPodTable(true).withoutRole("the connection, not a command's calls")) {
      Path ca = dir.resolve("ca.crt");
      Files.writeString(ca, api.serverCertificate());
      for (String url : new String[] {api.url(), api.url().replace("127.0.0.1", "localhost")}) {
        ClusterApi cluster = new ClusterApi(connection(url, new ApiConnection.CaFile(ca)));
        assertThat(cluster.listPods(ApiStandIn.NS, Map.of("app", "none"))).isEmpty();
      }
    }
  }

  /** Without the CA (the JDK's own CAs only), the stand-in's self-signed certificate fails. */
  @Test
  void httpsWithoutTheServersCaFails() throws Exception {
    try (ApiStandIn api =
        ApiStandIn.withPodTable(true).withoutRole("the connection, not a command's calls")) {
      ClusterApi cluster = new ClusterApi(connection(api.url(), null));
      assertThatThrownBy(() -> cluster.listPods(ApiStandIn.NS, Map.of("app", "none")))
          .isInstanceOf(UncheckedIOException.class)
          .hasMessageContaining("list of pods failed");
      assertThat(api.allLists.get()).as("no request reached the server").isZero();
    }
  }

  /**
   * A certificate from the right CA for other names is refused, by name and by address: the
   * handshake checks the server's names against the host asked for (client-go's TLS, Go's {@code
   * crypto/tls} {@code VerifyHostname}), and no request arrives.
   */
  @Test
  void httpsWithACertificateForOtherNamesFails() throws Exception {
    String elsewhere = "DNS:elsewhere.example";
    AtomicInteger requests = new AtomicInteger();
    try (ApiServerHttp server =
        new ApiServerHttp(
            r -> {
              requests.incrementAndGet();
              return new MockResponse().setResponseCode(200).setBody("{\"items\":[]}");
            },
            true,
            elsewhere)) {
      Path ca = dir.resolve("elsewhere.crt");
      Files.writeString(ca, ApiServerHttp.certificatePem(elsewhere));
      for (String url :
          new String[] {server.url(), server.url().replace("127.0.0.1", "localhost")}) {
        ClusterApi cluster = new ClusterApi(connection(url, new ApiConnection.CaFile(ca)));
        assertThatThrownBy(() -> cluster.listPods(ApiStandIn.NS, Map.of("app", "none")))
            .as(url)
            .isInstanceOf(UncheckedIOException.class)
            .hasMessageContaining("list of pods failed");
      }
      assertThat(requests.get()).as("no request reached the server").isZero();
    }
  }

  /**
   * The token is read again at each request: the kubelet rewrites a projected service account token
   * in place before it expires (client-go's transport/token_source.go, {@code cachingTokenSource},
   * reads the file again within a minute; each request here).
   */
  @Test
  void theTokenFileIsReadAgainAtEachRequest() throws Exception {
    try (ApiStandIn api =
        ApiStandIn.withPodTable().withoutRole("the connection, not a command's calls")) {
      Path token = dir.resolve("token");
      Files.writeString(token, "first\n");
      ClusterApi cluster = new ClusterApi(connection(api.url(), ApiConnection.file(token), null));
      cluster.listPods(ApiStandIn.NS, Map.of("app", "none"));
      assertThat(api.tokens).last().isEqualTo("first");
      Files.writeString(token, "second\n");
      cluster.listPods(ApiStandIn.NS, Map.of("app", "none"));
      assertThat(api.tokens).last().isEqualTo("second");
      Files.delete(token);
      cluster.listPods(ApiStandIn.NS, Map.of("app", "none"));
      assertThat(api.tokens).as("a token gone is none sent").last().isEqualTo("(none)");
    }
  }

  /** The CA file is read again when it changes (the kubelet rewrites it when the CA rotates). */
  @Test
  void theCaFileIsReadAgainWhenItChanges() throws Exception {
    Path ca = dir.resolve("ca.crt");
    String pem = ApiServerHttp.certificatePem();
    Files.writeString(ca, pem);
    ApiConnection.CaFile file = new ApiConnection.CaFile(ca);
    SSLContext first = file.get();
    assertThat(file.get()).as("unchanged: the same trust").isSameAs(first);
    Files.writeString(ca, pem + pem);
    Files.setLastModifiedTime(ca, FileTime.from(Instant.now().plusSeconds(60)));
    assertThat(file.get()).as("changed: read again").isNotSameAs(first);
  }

  @Test
  void aCaFileWithoutACertificateIsRefused() throws Exception {
    Path ca = dir.resolve("ca.crt");
    Files.writeString(ca, "not a certificate\n", StandardCharsets.US_ASCII);
    assertThatThrownBy(() -> new ApiConnection.CaFile(ca).get())
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("CA");
  }

  @Test
  void environmentWithoutServerFails() {
    assertThatThrownBy(() -> ApiConnection.fromEnvironment("ua", Map.of()))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("KUBERNETES_SERVICE_HOST");
  }

  @Test
  void environmentMasterSchemeIsHttpOrHttps() {
    assertThatThrownBy(
            () -> ApiConnection.fromEnvironment("ua", Map.of("KUBERNETES_MASTER", "ftp://h:1")))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(
            ApiConnection.fromEnvironment("ua", Map.of("KUBERNETES_MASTER", "h:6443"))
                .server()
                .toString())
        .isEqualTo("https://h:6443");
  }
}
