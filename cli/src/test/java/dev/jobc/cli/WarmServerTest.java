package dev.jobc.cli;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.Channels;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The warm server's parts that need no client process (WarmPathIT runs the whole path). */
class WarmServerTest {
  @TempDir Path tmp;

  @Test
  void aRequestReadsBackAsWritten() throws IOException {
    WarmFrames.Request request =
        new WarmFrames.Request(
            "/work/é", List.of("render", "-", ""), Map.of("A", "1=2", "JOBC_X", ""));
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    WarmFrames.writeRequest(new DataOutputStream(bytes), request);
    WarmFrames.Request read =
        WarmFrames.readRequest(new DataInputStream(new ByteArrayInputStream(bytes.toByteArray())));
    assertThat(read).isEqualTo(request);
  }

  @Test
  void anOversizedRequestIsRefusedBeforeItIsRead() throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    DataOutputStream out = new DataOutputStream(bytes);
    out.writeInt(WarmFrames.MAGIC.length());
    out.write(WarmFrames.MAGIC.getBytes(UTF_8));
    out.writeInt(WarmFrames.MAX_REQUEST_BYTES); // a working directory of 4 MiB, not sent
    DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes.toByteArray()));
    assertThatThrownBy(() -> WarmFrames.readRequest(in)).hasMessage("request too large");

    ByteArrayOutputStream counts = new ByteArrayOutputStream();
    DataOutputStream c = new DataOutputStream(counts);
    c.writeInt(WarmFrames.MAGIC.length());
    c.write(WarmFrames.MAGIC.getBytes(UTF_8));
    c.writeInt(1);
    c.write('/');
    c.writeInt(Integer.MAX_VALUE); // two billion arguments
    DataInputStream many = new DataInputStream(new ByteArrayInputStream(counts.toByteArray()));
    assertThatThrownBy(() -> WarmFrames.readRequest(many)).hasMessage("request too large");
  }

  @Test
  void somethingElseThanTheClientIsRefused() {
    byte[] http = "GET / HTTP/1.1\r\n\r\n".getBytes(UTF_8);
    DataInputStream in = new DataInputStream(new ByteArrayInputStream(http));
    assertThatThrownBy(() -> WarmFrames.readRequest(in)).isInstanceOf(IOException.class);
  }

  /** Standard input is asked for once, at the first read; what is left unread is drained. */
  @Test
  void stdinIsAskedForAtTheFirstReadAndDrained() throws IOException {
    ByteArrayOutputStream fromClient = new ByteArrayOutputStream();
    DataOutputStream client = new DataOutputStream(fromClient);
    byte[] hello = "hello".getBytes(UTF_8);
    WarmFrames.writeFrame(client, WarmFrames.STDIN, hello, 0, hello.length);
    byte[] rest = "rest".getBytes(UTF_8);
    WarmFrames.writeFrame(client, WarmFrames.STDIN, rest, 0, rest.length);
    WarmFrames.writeFrame(client, WarmFrames.STDIN, new byte[0], 0, 0);
    ByteArrayInputStream wire = new ByteArrayInputStream(fromClient.toByteArray());
    ByteArrayOutputStream toClient = new ByteArrayOutputStream();
    WarmFrames.FrameInput stdin =
        new WarmFrames.FrameInput(new DataInputStream(wire), new DataOutputStream(toClient));
    assertThat(toClient.size()).isZero();
    byte[] two = new byte[2];
    assertThat(stdin.read(two, 0, 2)).isEqualTo(2);
    assertThat(new String(two, UTF_8)).isEqualTo("he");
    assertThat(toClient.toByteArray()).containsExactly('i', 0, 0, 0, 0);
    stdin.drain();
    assertThat(wire.available()).isZero();
    assertThat(stdin.read()).isEqualTo(-1);
    assertThat(toClient.size()).as("asked once").isEqualTo(5);
  }

  @Test
  void aCommandThatReadsNoStdinNeverAsksForIt() throws IOException {
    ByteArrayOutputStream toClient = new ByteArrayOutputStream();
    WarmFrames.FrameInput stdin =
        new WarmFrames.FrameInput(
            new DataInputStream(new ByteArrayInputStream(new byte[0])),
            new DataOutputStream(toClient));
    stdin.drain();
    assertThat(toClient.size()).isZero();
  }

  @Test
  void onlyADirectoryOfTheUserAloneHoldsTheSocket() throws IOException {
    Path mine = Files.createDirectory(tmp.resolve("mine"));
    Files.setPosixFilePermissions(mine, PosixFilePermissions.fromString("rwx------"));
    assertThat(WarmServer.privateDirectoryProblem(mine)).isNull();

    Files.setPosixFilePermissions(mine, PosixFilePermissions.fromString("rwx--x---"));
    assertThat(WarmServer.privateDirectoryProblem(mine)).contains("mode must be 0700");
    Files.setPosixFilePermissions(mine, PosixFilePermissions.fromString("rwx------"));

    Path link = Files.createSymbolicLink(tmp.resolve("link"), mine);
    assertThat(WarmServer.privateDirectoryProblem(link)).contains("symbolic link");
    assertThat(WarmServer.privateDirectoryProblem(tmp.resolve("none"))).contains("cannot read");
  }

  @Test
  void aRebuiltJarIsNoticed() throws IOException {
    Path jar = Files.writeString(tmp.resolve("jobc.jar"), "one");
    Files.setLastModifiedTime(jar, FileTime.fromMillis(1_000_000));
    WarmServer.CodeVersion code =
        new WarmServer.CodeVersion(jar, Files.size(jar), Files.getLastModifiedTime(jar).toMillis());
    assertThat(code.unchanged()).isTrue();
    Files.setLastModifiedTime(jar, FileTime.fromMillis(2_000_000));
    assertThat(code.unchanged()).isFalse();
    Files.setLastModifiedTime(jar, FileTime.fromMillis(1_000_000));
    Files.writeString(jar, "two!");
    Files.setLastModifiedTime(jar, FileTime.fromMillis(1_000_000));
    assertThat(code.unchanged()).isFalse();
    Files.delete(jar);
    assertThat(code.unchanged()).isFalse();
  }

  /** With its idle time over (an injected clock), the server stops and removes its socket. */
  @Test
  void anIdleServerRemovesItsSocket() throws IOException {
    Path dir = Files.createDirectory(tmp.resolve("d"));
    Path socket = dir.resolve("s");
    ServerSocketChannel channel = WarmServer.bind(socket);
    assertThat(channel).isNotNull();
    assertThat(socket).exists();
    AtomicLong now = new AtomicLong();
    // Every reading of the clock is an hour after the one before: idle at once.
    new WarmServer(
            channel,
            socket,
            Duration.ofMinutes(10),
            () -> now.getAndAdd(Duration.ofHours(1).toNanos()),
            new WarmServer.CodeVersion(null, 0, 0))
        .run();
    assertThat(channel.isOpen()).isFalse();
    assertThat(socket).doesNotExist();
    // And a socket file nobody listens on any more is replaced by the next server.
    ServerSocketChannel stale = WarmServer.bind(socket);
    stale.close();
    assertThat(socket).exists();
    ServerSocketChannel next = WarmServer.bind(socket);
    assertThat(next).isNotNull();
    assertThat(WarmServer.bind(socket)).as("one answers: left to it").isNull();
    next.close();
  }

  // --- one command after another -------------------------------------------------------------

  /** A PyTorchJob named NAME with no namespace. */
  private static final String JOB =
      ChannelInputs.PYTORCH_JOB.replace("name: ok, namespace: training", "name: NAME");

  /** What a client got for one command: standard output, standard error, exit status. */
  private record Served(String out, String err, int exitCode) {}

  /** Sends {@code request} (and {@code stdin}, whether asked for or not) and reads the answer. */
  private static Served send(SocketChannel client, WarmFrames.Request request, String stdin)
      throws IOException {
    DataOutputStream out =
        new DataOutputStream(new BufferedOutputStream(Channels.newOutputStream(client)));
    WarmFrames.writeRequest(out, request);
    byte[] bytes = stdin.getBytes(UTF_8);
    WarmFrames.writeFrame(out, WarmFrames.STDIN, bytes, 0, bytes.length);
    WarmFrames.writeFrame(out, WarmFrames.STDIN, new byte[0], 0, 0);
    DataInputStream in =
        new DataInputStream(new BufferedInputStream(Channels.newInputStream(client)));
    assertThat(in.read()).as("go first").isEqualTo(WarmFrames.GO);
    assertThat(in.readInt()).isZero();
    ByteArrayOutputStream stdout = new ByteArrayOutputStream();
    ByteArrayOutputStream stderr = new ByteArrayOutputStream();
    while (true) {
      int type = in.read();
      int len = in.readInt();
      byte[] body = in.readNBytes(len);
      if (type == WarmFrames.OUT) {
        stdout.write(body);
      } else if (type == WarmFrames.ERR) {
        stderr.write(body);
      } else if (type == WarmFrames.EXIT) {
        return new Served(
            stdout.toString(UTF_8), stderr.toString(UTF_8), ((body[2] & 0xff) << 8) | body[3]);
      } else if (type != WarmFrames.STDIN) {
        throw new AssertionError("unexpected frame " + (char) type);
      }
    }
  }

  /** Serves one request on {@code server} over a fresh connection to {@code socket}. */
  private static Served serveOne(
      WarmServer warm, ServerSocketChannel server, Path socket, WarmFrames.Request request)
      throws IOException {
    try (SocketChannel client = SocketChannel.open(UnixDomainSocketAddress.of(socket));
        SocketChannel accepted = server.accept()) {
      // The answer is small enough for the socket's buffer: serve first, then read.
      java.util.concurrent.CompletableFuture<Served> answer =
          java.util.concurrent.CompletableFuture.supplyAsync(
              () -> {
                try {
                  return send(client, request, "");
                } catch (IOException e) {
                  throw new java.io.UncheckedIOException(e);
                }
              });
      assertThat(warm.serve(accepted)).isTrue();
      accepted.shutdownOutput();
      return answer.join();
    }
  }

  /**
   * Each command runs in its own working directory, with its own environment, and leaves nothing
   * behind for the next: no System property, no replaced System.out, System.err or System.in, no
   * default locale. Two commands in a row on one server, the second without what the first had.
   */
  @Test
  void aCommandLeavesNoStateToTheNext() throws IOException {
    Path one = Files.createDirectories(tmp.resolve("one"));
    Path two = Files.createDirectories(tmp.resolve("two"));
    Files.writeString(one.resolve("job.yaml"), JOB.replace("NAME", "from-one"));
    Files.writeString(two.resolve("job.yaml"), JOB.replace("NAME", "from-two"));
    Path dir = Files.createDirectory(tmp.resolve("d"));
    Path socket = dir.resolve("s");
    ServerSocketChannel server = WarmServer.bind(socket);
    WarmServer warm =
        new WarmServer(
            server,
            socket,
            Duration.ofMinutes(10),
            System::nanoTime,
            new WarmServer.CodeVersion(null, 0, 0));
    java.util.Properties properties = (java.util.Properties) System.getProperties().clone();
    java.io.PrintStream systemOut = System.out;
    java.io.PrintStream systemErr = System.err;
    java.io.InputStream systemIn = System.in;
    java.util.Locale locale = java.util.Locale.getDefault();
    try {
      Served first =
          serveOne(
              warm,
              server,
              socket,
              new WarmFrames.Request(
                  one.toString(), List.of("argocd"), Map.of("ARGOCD_APP_NAMESPACE", "ns-one")));
      assertThat(first.exitCode()).as(first.err()).isZero();
      assertThat(first.out()).contains("name: from-one", "namespace: ns-one");

      Served second =
          serveOne(
              warm,
              server,
              socket,
              new WarmFrames.Request(
                  two.toString(), List.of("argocd"), Map.of("ARGOCD_APP_NAMESPACE", "ns-two")));
      assertThat(second.exitCode()).as(second.err()).isZero();
      assertThat(second.out())
          .contains("name: from-two", "namespace: ns-two")
          .doesNotContain("from-one", "ns-one");
      // The same command line, in the first directory again: its own answer, not a cached one.
      Served third =
          serveOne(
              warm,
              server,
              socket,
              new WarmFrames.Request(
                  one.toString(),
                  List.of("render", "--namespace", "ns-three", "job.yaml"),
                  Map.of()));
      assertThat(third.exitCode()).as(third.err()).isZero();
      assertThat(third.out())
          .contains("name: from-one", "namespace: ns-three")
          .doesNotContain("ns-one", "ns-two", "from-two");
      // Without a namespace anywhere: the error, not a namespace the earlier commands had.
      Served fourth =
          serveOne(
              warm,
              server,
              socket,
              new WarmFrames.Request(two.toString(), List.of("argocd"), Map.of()));
      assertThat(fourth.exitCode()).isEqualTo(1);
      assertThat(fourth.out()).isEmpty();
      assertThat(fourth.err()).contains("job.yaml:3:1: error: metadata.namespace: Required value");
    } finally {
      server.close();
    }
    assertThat(System.getProperties()).isEqualTo(properties);
    assertThat(System.out).isSameAs(systemOut);
    assertThat(System.err).isSameAs(systemErr);
    assertThat(System.in).isSameAs(systemIn);
    assertThat(java.util.Locale.getDefault()).isEqualTo(locale);
  }

  /**
   * After an internal error the server stops at once, removes its socket and serves nothing more:
   * the JVM may be in a bad state (an OutOfMemoryError among internal errors).
   */
  @Test
  void anInternalErrorEndsTheServer() throws Exception {
    Path dir = Files.createDirectory(tmp.resolve("d"));
    Path socket = dir.resolve("s");
    ServerSocketChannel server = WarmServer.bind(socket);
    java.util.concurrent.atomic.AtomicInteger commands =
        new java.util.concurrent.atomic.AtomicInteger();
    WarmServer warm =
        new WarmServer(
            server,
            socket,
            Duration.ofMinutes(10),
            System::nanoTime,
            new WarmServer.CodeVersion(null, 0, 0),
            (command, out, err, args) -> {
              commands.incrementAndGet();
              return Main.internalError(new IllegalStateException("broken"), err, false);
            });
    Thread running =
        new Thread(
            () -> {
              try {
                warm.run();
              } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
              }
            });
    running.start();
    try (SocketChannel client = SocketChannel.open(UnixDomainSocketAddress.of(socket))) {
      Served served =
          send(client, new WarmFrames.Request(tmp.toString(), List.of("--version"), Map.of()), "");
      assertThat(served.exitCode()).isEqualTo(JobcCommand.INTERNAL_ERROR);
      assertThat(served.err()).startsWith("jobc: internal error: ");
    }
    // A bound so that a server that serves on fails the test instead of hanging it (it would
    // wait its ten idle minutes); not a timing check.
    running.join(Duration.ofMinutes(2).toMillis());
    assertThat(running.isAlive()).as("still serving after an internal error").isFalse();
    assertThat(server.isOpen()).isFalse();
    assertThat(socket).doesNotExist();
    assertThat(commands).hasValue(1);
  }
}
