package dev.jobc.cli;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.BufferedWriter;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.net.StandardProtocolFamily;
import java.net.URISyntaxException;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.time.Duration;
import java.util.Set;
import java.util.function.LongSupplier;

/**
 * The long-lived jobc process of the warm path ({@code JOBC_WARM=1}): serves commands that the thin
 * client {@code jobc-warm} sends over a Unix-domain socket, with the same {@link Main#execute} the
 * cold path's JVM runs, so that a command's output, standard error and exit status are those of the
 * cold path byte for byte. Classes stay loaded and compiled between commands: what a JVM start
 * costs each cold {@code jobc argocd} is paid once.
 *
 * <p>{@code java ... dev.jobc.cli.WarmServer [--idle SECONDS] SOCKET}: binds {@code SOCKET}, prints
 * {@code ready} on standard output and closes it, serves one command at a time (jobc's input limits
 * are derived from one render's heap, {@code model.Budget}; a client that the server does not take
 * at once, with a {@link WarmFrames#GO} frame, runs the cold path after a short wait), and exits
 * after {@code SECONDS} (default {@value #DEFAULT_IDLE_SECONDS}) without a command, after an
 * internal error, or when the jar it runs from has changed.
 *
 * <p>Only the user may reach it: the socket's directory must be the user's own, not a symbolic
 * link, with no permission for group or others, or the server refuses to start (and the client runs
 * the cold path). A socket file left by a process that died is replaced; one that answers is left
 * to its server. Start, check and removal of the socket happen under a lock in the directory, so
 * that two servers starting at once, or one starting as another leaves, never take each other's
 * socket.
 */
final class WarmServer {
  static final int DEFAULT_IDLE_SECONDS = 600;

  private final ServerSocketChannel server;
  private final Path socket;
  private final Duration idle;
  private final LongSupplier nanoClock;
  private final CodeVersion code;
  private final Execution execution;

  /** How a command runs: {@link Main#execute}, or a stand-in in tests. */
  @FunctionalInterface
  interface Execution {
    int execute(JobcCommand command, PrintWriter out, PrintWriter err, String... args);
  }

  WarmServer(
      ServerSocketChannel server,
      Path socket,
      Duration idle,
      LongSupplier nanoClock,
      CodeVersion code) {
    this(server, socket, idle, nanoClock, code, Main::execute);
  }

  WarmServer(
      ServerSocketChannel server,
      Path socket,
      Duration idle,
      LongSupplier nanoClock,
      CodeVersion code,
      Execution execution) {
    this.server = server;
    this.socket = socket;
    this.idle = idle;
    this.nanoClock = nanoClock;
    this.code = code;
    this.execution = execution;
  }

  public static void main(String[] args) throws Exception {
    int idleSeconds = DEFAULT_IDLE_SECONDS;
    int i = 0;
    if (args.length == 3 && args[0].equals("--idle")) {
      idleSeconds = Integer.parseInt(args[1]);
      i = 2;
    }
    if (args.length != i + 1 || idleSeconds < 0) {
      System.err.println("usage: WarmServer [--idle SECONDS] SOCKET");
      System.exit(2);
    }
    Path socket = Path.of(args[i]).toAbsolutePath();
    Path dir = socket.getParent();
    String refused = privateDirectoryProblem(dir);
    if (refused != null) {
      System.err.println("jobc warm: refusing " + dir + ": " + refused);
      System.exit(1);
    }
    ServerSocketChannel server;
    try (FileChannel lockFile = lockFile(socket)) {
      FileLock lock = lockFile.lock();
      server = bind(socket);
      lock.release();
    }
    // Standard output is the client's pipe: "ready" ends its wait, closing it lets it go on.
    System.out.print("ready\n");
    System.out.close();
    if (server == null) {
      return; // another server answers on this socket
    }
    new WarmServer(
            server,
            socket,
            Duration.ofSeconds(idleSeconds),
            System::nanoTime,
            CodeVersion.current())
        .run();
    System.exit(0);
  }

  /**
   * Why {@code dir} is no place for the socket, or null when it is: it must be a directory, not a
   * link, owned by this process's user, with no permission for group or others.
   */
  static String privateDirectoryProblem(Path dir) throws IOException {
    BasicFileAttributes attributes;
    try {
      attributes = Files.readAttributes(dir, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
    } catch (IOException e) {
      return "cannot read it: " + e;
    }
    if (!attributes.isDirectory()) {
      return "not a directory (or a symbolic link)";
    }
    Set<PosixFilePermission> permissions =
        Files.getPosixFilePermissions(dir, LinkOption.NOFOLLOW_LINKS);
    for (PosixFilePermission p : permissions) {
      if (!p.name().startsWith("OWNER_")) {
        return "group or others may open it (mode must be 0700)";
      }
    }
    // This process's uid, as the owner of a file it creates there.
    Path probe = Files.createTempFile(dir, ".owner", "");
    try {
      Object mine = Files.getAttribute(probe, "unix:uid", LinkOption.NOFOLLOW_LINKS);
      Object owner = Files.getAttribute(dir, "unix:uid", LinkOption.NOFOLLOW_LINKS);
      if (!mine.equals(owner)) {
        return "owned by uid " + owner + ", not this user's " + mine;
      }
    } finally {
      Files.deleteIfExists(probe);
    }
    return null;
  }

  private static FileChannel lockFile(Path socket) throws IOException {
    return FileChannel.open(
        socket.resolveSibling(socket.getFileName() + ".lock"),
        StandardOpenOption.CREATE,
        StandardOpenOption.WRITE,
        LinkOption.NOFOLLOW_LINKS);
  }

  /**
   * Binds {@code socket}, replacing a stale socket file; null when a server already answers there.
   * Call under the directory's lock.
   */
  static ServerSocketChannel bind(Path socket) throws IOException {
    UnixDomainSocketAddress address = UnixDomainSocketAddress.of(socket);
    if (Files.exists(socket, LinkOption.NOFOLLOW_LINKS)) {
      try {
        SocketChannel.open(address).close();
        return null; // it answers: leave it to its server
      } catch (IOException e) {
        Files.delete(socket); // nobody listens: left by a server that died
      }
    }
    ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
    server.bind(address, 64);
    return server;
  }

  /** Serves commands until idle, an internal error or a changed jar; then removes the socket. */
  void run() throws IOException {
    // SIGTERM (a pod's end, kill) runs the hooks only: remove the socket there too.
    Thread hook =
        new Thread(
            () -> {
              try {
                close();
              } catch (IOException e) {
                // leaving: the next server replaces a stale socket
              }
            });
    Runtime.getRuntime().addShutdownHook(hook);
    try (Selector selector = Selector.open()) {
      server.configureBlocking(false);
      server.register(selector, SelectionKey.OP_ACCEPT);
      long deadline = nanoClock.getAsLong() + idle.toNanos();
      while (true) {
        long remaining = deadline - nanoClock.getAsLong();
        if (remaining <= 0) {
          break;
        }
        selector.select(Math.max(1, Duration.ofNanos(remaining).toMillis()));
        selector.selectedKeys().clear();
        SocketChannel client = server.accept();
        if (client == null) {
          continue;
        }
        boolean goOn;
        try (client) {
          client.configureBlocking(true);
          goOn = serve(client);
        } catch (IOException e) {
          goOn = true; // that client went away: its own cold path takes over
        }
        if (!goOn) {
          break;
        }
        deadline = nanoClock.getAsLong() + idle.toNanos();
      }
    } finally {
      close();
      try {
        Runtime.getRuntime().removeShutdownHook(hook);
      } catch (IllegalStateException e) {
        // shutting down already: the hook finds the socket closed
      }
    }
  }

  /**
   * Closes the server and removes its socket, under the lock (see the class comment); once, from
   * {@link #run} or the shutdown hook.
   */
  private synchronized void close() throws IOException {
    if (!server.isOpen()) {
      return;
    }
    try (FileChannel lockFile = lockFile(socket)) {
      FileLock lock = lockFile.lock();
      server.close();
      Files.deleteIfExists(socket);
      lock.release();
    }
  }

  /** Runs one client's command; false when this server should stop after it. */
  boolean serve(SocketChannel client) throws IOException {
    DataInputStream in =
        new DataInputStream(new BufferedInputStream(Channels.newInputStream(client)));
    DataOutputStream out =
        new DataOutputStream(new BufferedOutputStream(Channels.newOutputStream(client)));
    // Taken: a client still waiting sends its request; one that gave up has closed, and the read
    // below fails before anything runs.
    WarmFrames.writeFrame(out, WarmFrames.GO, new byte[0], 0, 0);
    WarmFrames.Request request = WarmFrames.readRequest(in);
    if (!code.unchanged()) {
      WarmFrames.writeFrame(out, WarmFrames.FALLBACK, new byte[0], 0, 0);
      return false;
    }
    WarmFrames.FrameInput stdin = new WarmFrames.FrameInput(in, out);
    // The writers Main.main wraps around file descriptors 1 and 2, around frames instead.
    PrintWriter stdout = writer(new WarmFrames.FrameOutput(out, WarmFrames.OUT));
    PrintWriter stderr = writer(new WarmFrames.FrameOutput(out, WarmFrames.ERR));
    JobcCommand command =
        new JobcCommand(Path.of(request.workingDirectory()), stdin, request.environment());
    int exitCode =
        execution.execute(command, stdout, stderr, request.args().toArray(String[]::new));
    stdout.flush();
    stderr.flush();
    stdin.drain();
    WarmFrames.writeFrame(
        out, WarmFrames.EXIT, new byte[] {0, 0, (byte) (exitCode >>> 8), (byte) exitCode}, 0, 4);
    // An internal error may have left this JVM in a bad state (an OutOfMemoryError among them):
    // the next command gets a fresh process.
    return exitCode != JobcCommand.INTERNAL_ERROR;
  }

  private static PrintWriter writer(java.io.OutputStream out) {
    return new PrintWriter(new BufferedWriter(new OutputStreamWriter(out, UTF_8)));
  }

  /**
   * The jar this server runs from, as it was when it started: a rebuilt jar (bin/jobc rebuilds it
   * when sources change) must not be answered by the old classes.
   */
  record CodeVersion(Path jar, long size, long modified) {
    static CodeVersion current() throws IOException {
      Path location;
      try {
        location =
            Path.of(WarmServer.class.getProtectionDomain().getCodeSource().getLocation().toURI());
      } catch (URISyntaxException e) {
        throw new IOException(e);
      }
      if (!Files.isRegularFile(location)) {
        return new CodeVersion(null, 0, 0); // classes in a directory: an image's, never rebuilt
      }
      return new CodeVersion(
          location, Files.size(location), Files.getLastModifiedTime(location).toMillis());
    }

    boolean unchanged() {
      if (jar == null) {
        return true;
      }
      try {
        return Files.size(jar) == size && Files.getLastModifiedTime(jar).toMillis() == modified;
      } catch (IOException e) {
        return false;
      }
    }
  }
}
