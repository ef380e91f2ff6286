package dev.jobc.cli;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.channels.ServerSocketChannel;
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
}
