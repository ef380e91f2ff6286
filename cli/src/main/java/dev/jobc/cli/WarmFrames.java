package dev.jobc.cli;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The warm path's wire format between the thin client ({@code jobc-warm}) and {@link WarmServer},
 * over one Unix-domain stream connection per command. Every number is a big-endian unsigned 32-bit
 * integer; a string is its length and its bytes (UTF-8 for text, raw for stdin).
 *
 * <p>First, from the server, {@code g} (empty): it has taken the connection ({@link #GO}). Then the
 * request: the magic {@value #MAGIC}, the working directory, the argument count and each argument,
 * the environment entry count and each {@code NAME=value}. Then frames, each a one-byte type, a
 * length and that many bytes, from the server: {@code o} standard output, {@code e} standard error,
 * {@code i} (empty) "send your standard input", {@code x} the exit status (4 bytes), {@code f}
 * (empty) "run the cold path instead"; from the client, only after an {@code i}: {@code i} frames
 * of its standard input, an empty one at its end.
 *
 * <p>Every size is checked before anything is allocated for it: a request larger than a command
 * line and environment can be on Linux is refused.
 */
final class WarmFrames {
  static final String MAGIC = "jobc-warm-2";

  /** Standard output bytes, server to client. */
  static final int OUT = 'o';

  /** Standard error bytes, server to client. */
  static final int ERR = 'e';

  /** Server to client: send stdin; client to server: stdin bytes, empty at its end. */
  static final int STDIN = 'i';

  /** The exit status, server to client; the last frame. */
  static final int EXIT = 'x';

  /** Server to client: this server does not run the command; run the cold path. */
  static final int FALLBACK = 'f';

  /**
   * Server to client, empty, before anything else: the server has taken the connection. A client
   * that gave up waiting for it (the server was busy) has closed the connection, and the server
   * then reads no request and runs nothing.
   */
  static final int GO = 'g';

  /**
   * The most bytes a request's strings may hold together: Linux's limit on a command line and its
   * environment together is 2 MiB by default ({@code ARG_MAX}, a quarter of an 8 MiB stack).
   */
  static final int MAX_REQUEST_BYTES = 4 << 20;

  /** The most bytes one stdin frame may carry. */
  static final int MAX_FRAME_BYTES = 1 << 20;

  private WarmFrames() {} // don't instantiate

  /** A command to run: what the cold path's JVM would have been started with. */
  record Request(String workingDirectory, List<String> args, Map<String, String> environment) {}

  /** Reads a request; throws {@link IOException} on a malformed or oversized one. */
  static Request readRequest(DataInputStream in) throws IOException {
    int[] budget = {MAX_REQUEST_BYTES};
    String magic = readString(in, budget);
    if (!magic.equals(MAGIC)) {
      throw new IOException("not a " + MAGIC + " request");
    }
    String cwd = readString(in, budget);
    int argc = readCount(in, budget);
    List<String> args = new ArrayList<>(argc);
    for (int i = 0; i < argc; i++) {
      args.add(readString(in, budget));
    }
    int envc = readCount(in, budget);
    Map<String, String> env = new LinkedHashMap<>();
    for (int i = 0; i < envc; i++) {
      String entry = readString(in, budget);
      int eq = entry.indexOf('=');
      // As the JDK's System.getenv: an entry without '=' (or only a leading one) is left out.
      if (eq > 0) {
        env.putIfAbsent(entry.substring(0, eq), entry.substring(eq + 1));
      }
    }
    return new Request(cwd, List.copyOf(args), env);
  }

  /** Writes a request as the client does (tests and the bench stand in for it with this). */
  static void writeRequest(DataOutputStream out, Request request) throws IOException {
    writeString(out, MAGIC);
    writeString(out, request.workingDirectory());
    out.writeInt(request.args().size());
    for (String arg : request.args()) {
      writeString(out, arg);
    }
    out.writeInt(request.environment().size());
    for (Map.Entry<String, String> e : request.environment().entrySet()) {
      writeString(out, e.getKey() + "=" + e.getValue());
    }
    out.flush();
  }

  /** Writes one frame. */
  static void writeFrame(DataOutputStream out, int type, byte[] bytes, int off, int len)
      throws IOException {
    out.writeByte(type);
    out.writeInt(len);
    out.write(bytes, off, len);
    out.flush();
  }

  /** Reads the length of the next frame, which must be of {@code type}. */
  static int readFrameHeader(DataInputStream in, int type) throws IOException {
    int got = in.read();
    if (got < 0) {
      throw new EOFException("connection closed");
    }
    if (got != type) {
      throw new IOException("unexpected frame type " + got);
    }
    int len = in.readInt();
    if (len < 0 || len > MAX_FRAME_BYTES) {
      throw new IOException("frame too large: " + Integer.toUnsignedString(len) + " bytes");
    }
    return len;
  }

  private static int readCount(DataInputStream in, int[] budget) throws IOException {
    int n = in.readInt();
    // Each entry costs at least its 4-byte length.
    if (n < 0 || (long) n * 4 > budget[0]) {
      throw new IOException("request too large");
    }
    return n;
  }

  private static String readString(DataInputStream in, int[] budget) throws IOException {
    int len = in.readInt();
    if (len < 0 || len > budget[0]) {
      throw new IOException("request too large");
    }
    budget[0] -= len + 4;
    byte[] bytes = in.readNBytes(len);
    if (bytes.length != len) {
      throw new EOFException("request cut short");
    }
    return new String(bytes, UTF_8);
  }

  private static void writeString(DataOutputStream out, String s) throws IOException {
    byte[] bytes = s.getBytes(UTF_8);
    out.writeInt(bytes.length);
    out.write(bytes);
  }

  /** One output stream of the command, each write sent as a frame of {@code type}. */
  static final class FrameOutput extends OutputStream {
    private final DataOutputStream out;
    private final int type;

    FrameOutput(DataOutputStream out, int type) {
      this.out = out;
      this.type = type;
    }

    @Override
    public void write(int b) throws IOException {
      write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      if (len > 0) {
        // The writers above buffer 8 KiB: frames stay small.
        synchronized (out) {
          writeFrame(out, type, b, off, len);
        }
      }
    }
  }

  /**
   * The command's standard input: asks the client for it at the first read, as a JVM's {@code
   * System.in} costs nothing until read. The client then sends all of it; what the command leaves
   * unread is drained by {@link #drain} before the exit status, so that the client never writes
   * into a closed connection.
   */
  static final class FrameInput extends InputStream {
    private final DataInputStream in;
    private final DataOutputStream out;
    private boolean requested;
    private boolean ended;
    private int remaining;

    FrameInput(DataInputStream in, DataOutputStream out) {
      this.in = in;
      this.out = out;
    }

    @Override
    public int read() throws IOException {
      byte[] one = new byte[1];
      return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      if (len == 0) {
        return 0;
      }
      if (!requested) {
        requested = true;
        synchronized (out) {
          writeFrame(out, STDIN, new byte[0], 0, 0);
        }
      }
      while (remaining == 0) {
        if (ended) {
          return -1;
        }
        remaining = readFrameHeader(in, STDIN);
        if (remaining == 0) {
          ended = true;
        }
      }
      int n = in.read(b, off, Math.min(len, remaining));
      if (n < 0) {
        throw new EOFException("stdin cut short");
      }
      remaining -= n;
      return n;
    }

    /** Reads and discards what the client still sends, if it was asked for its stdin. */
    void drain() throws IOException {
      if (!requested) {
        return;
      }
      byte[] skip = new byte[8192];
      while (read(skip, 0, skip.length) >= 0) {
        // discard
      }
    }
  }
}
