package dev.jobc.testkit;

import static java.nio.charset.StandardCharsets.UTF_8;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.GZIPInputStream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * A container image as Jib's {@code buildTar} writes it (Docker's {@code docker save} format:
 * {@code manifest.json}, the config, one gzipped tar per layer), its layers extracted in order into
 * a directory, so that a test can check what the image holds and run its entrypoint as a process of
 * this machine. The tests build the images on {@code scratch} (no base image, offline), so the base
 * image's {@code java} is this JDK's.
 */
public final class ImageTar {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final Path root;
  private final List<String> repoTags = new ArrayList<>();
  private final JsonNode config;
  private final Map<String, Integer> modes = new TreeMap<>();

  private ImageTar(Path root, JsonNode config) {
    this.root = root;
    this.config = config;
  }

  /**
   * Reads {@code tar} and extracts its layers into {@code root}; fails when a layer's content does
   * not have the digest the config names for it.
   */
  public static ImageTar open(Path tar, Path root) throws IOException {
    Map<String, byte[]> files = new LinkedHashMap<>();
    try (InputStream in = new BufferedInputStream(Files.newInputStream(tar))) {
      Entry e;
      while ((e = Entry.next(in)) != null) {
        if (e.type == Entry.FILE) {
          files.put(e.name, in.readNBytes((int) e.size));
          e.skipPadding(in);
        } else {
          e.skip(in);
        }
      }
    }
    JsonNode manifest = JSON.readTree(require(files, "manifest.json")).get(0);
    JsonNode config = JSON.readTree(require(files, manifest.get("Config").asText()));
    ImageTar image = new ImageTar(root, config);
    manifest.get("RepoTags").forEach(t -> image.repoTags.add(t.asText()));
    JsonNode diffIds = config.get("rootfs").get("diff_ids");
    JsonNode layers = manifest.get("Layers");
    if (diffIds.size() != layers.size()) {
      throw new AssertionError(layers.size() + " layers, " + diffIds.size() + " diff_ids");
    }
    Files.createDirectories(root);
    for (int i = 0; i < layers.size(); i++) {
      byte[] layer = require(files, layers.get(i).asText());
      String digest = image.extract(layer);
      if (!digest.equals(diffIds.get(i).asText())) {
        throw new AssertionError(
            "layer "
                + layers.get(i).asText()
                + ": content "
                + digest
                + ", config "
                + diffIds.get(i));
      }
    }
    return image;
  }

  /** The names the image is tagged with ({@code registry/repository:tag}). */
  public List<String> repoTags() {
    return repoTags;
  }

  /** The image config's {@code config} object ({@code Entrypoint}, {@code User}, ...). */
  public JsonNode config() {
    return config.get("config");
  }

  public List<String> entrypoint() {
    return strings(config().get("Entrypoint"));
  }

  /** {@code Cmd}: empty when the image has none. */
  public List<String> cmd() {
    return strings(config().get("Cmd"));
  }

  public String user() {
    return config().path("User").asText("");
  }

  public String workingDir() {
    return config().path("WorkingDir").asText("");
  }

  /** {@code Env} as a map. */
  public Map<String, String> env() {
    Map<String, String> out = new TreeMap<>();
    for (String e : strings(config().get("Env"))) {
      int eq = e.indexOf('=');
      out.put(e.substring(0, eq), e.substring(eq + 1));
    }
    return out;
  }

  /** Every regular file and directory of the image, absolute path to permission bits. */
  public Map<String, Integer> modes() {
    return modes;
  }

  /** Where {@code imagePath} (absolute, as the image sees it) is under the extracted root. */
  public Path file(String imagePath) {
    if (!imagePath.startsWith("/")) {
      throw new IllegalArgumentException("not an absolute path: " + imagePath);
    }
    return root.resolve(imagePath.substring(1));
  }

  /** The entries of the {@code -cp @FILE} argument file, as the image sees them. */
  public List<String> classPath(String argumentFile) throws IOException {
    List<String> out = new ArrayList<>();
    for (String entry : Files.readString(file(argumentFile)).trim().split(":")) {
      if (entry.endsWith("/*")) {
        // The java launcher expands DIR/* into DIR's jars (Jib's packaged mode writes one).
        String dir = entry.substring(0, entry.length() - 1);
        modes().keySet().stream()
            .filter(f -> f.startsWith(dir) && f.endsWith(".jar"))
            .filter(f -> f.indexOf('/', dir.length()) < 0)
            .sorted()
            .forEach(out::add);
      } else {
        out.add(entry);
      }
    }
    return out;
  }

  /** The names of the entries of every jar on {@code argumentFile}'s class path, and of classes. */
  public List<String> classPathEntries(String argumentFile) throws IOException {
    List<String> out = new ArrayList<>();
    for (String entry : classPath(argumentFile)) {
      Path p = file(entry);
      if (Files.isDirectory(p)) {
        try (var walk = Files.walk(p)) {
          walk.filter(Files::isRegularFile).forEach(f -> out.add(p.relativize(f).toString()));
        }
      } else {
        try (ZipFile jar = new ZipFile(p.toFile())) {
          jar.stream().map(ZipEntry::getName).forEach(out::add);
        }
      }
    }
    return out;
  }

  /**
   * {@code command}, as the image would run it, made into a command of this machine: {@code java}
   * is this JDK's; a {@code @FILE} argument file gets the extracted root before each of its class
   * path entries; a {@code #!/bin/sh} script of the image is copied to {@code scratch/bin} (same
   * name, mode 755) with its argument files rewritten likewise, and runs from there. Rewritten
   * files go to {@code scratch}: the only change made to what the image holds. Run it with {@link
   * #hostPath}.
   */
  public List<String> hostCommand(List<String> command, Path scratch) throws IOException {
    List<String> out = new ArrayList<>();
    String program = command.get(0);
    if (program.equals("java")) {
      out.add(javaExecutable().toString());
    } else if (program.startsWith("/")) {
      out.add(hostScript(program, scratch).toString());
    } else {
      throw new IllegalArgumentException("no stand-in for " + program);
    }
    for (String arg : command.subList(1, command.size())) {
      out.add(rewriteArgumentFiles(arg, scratch));
    }
    return out;
  }

  /**
   * The image's {@code #!/bin/sh} script {@code imagePath}, copied to {@code scratch/bin} with its
   * argument files rewritten (see {@link #hostCommand}); {@code scratch/bin} stands for the
   * script's directory on the image's {@code PATH}.
   */
  public Path hostScript(String imagePath, Path scratch) throws IOException {
    String script = Files.readString(file(imagePath));
    if (!script.startsWith("#!/bin/sh\n")) {
      throw new IllegalArgumentException(imagePath + " is not a #!/bin/sh script");
    }
    Path copy = scratch.resolve("bin").resolve(file(imagePath).getFileName().toString());
    Files.createDirectories(copy.getParent());
    Files.writeString(copy, rewriteArgumentFiles(script, scratch));
    Files.setPosixFilePermissions(copy, permissions(0755));
    return copy;
  }

  /**
   * The {@code PATH} for {@link #hostCommand}: this JDK's {@code bin} first, where the image's base
   * would have its {@code java}.
   */
  public static String hostPath() {
    return javaExecutable().getParent()
        + ":"
        + System.getenv().getOrDefault("PATH", "/usr/bin:/bin");
  }

  private static Path javaExecutable() {
    return Path.of(System.getProperty("java.home"), "bin", "java");
  }

  private static final Pattern ARGUMENT_FILE = Pattern.compile("@(/[^\\s\"']+)");

  private String rewriteArgumentFiles(String text, Path scratch) throws IOException {
    Matcher m = ARGUMENT_FILE.matcher(text);
    StringBuilder out = new StringBuilder();
    while (m.find()) {
      List<String> mapped = new ArrayList<>();
      for (String entry : classPath(m.group(1))) {
        mapped.add(file(entry).toString());
      }
      Path copy = scratch.resolve(file(m.group(1)).getFileName().toString());
      Files.createDirectories(scratch);
      Files.writeString(copy, String.join(":", mapped));
      m.appendReplacement(out, Matcher.quoteReplacement("@" + copy));
    }
    m.appendTail(out);
    return out.toString();
  }

  private static List<String> strings(JsonNode array) {
    List<String> out = new ArrayList<>();
    if (array != null && !array.isNull()) {
      array.forEach(n -> out.add(n.asText()));
    }
    return out;
  }

  private static byte[] require(Map<String, byte[]> files, String name) {
    byte[] b = files.get(name);
    if (b == null) {
      throw new AssertionError("no " + name + " in the image tar; it has " + files.keySet());
    }
    return b;
  }

  /** Extracts one gzipped layer; returns {@code sha256:} of its uncompressed content. */
  private String extract(byte[] layer) throws IOException {
    MessageDigest sha256;
    try {
      sha256 = MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
    try (InputStream in =
        new DigestInputStream(
            new GZIPInputStream(new java.io.ByteArrayInputStream(layer)), sha256)) {
      Entry e;
      while ((e = Entry.next(in)) != null) {
        String name = e.name.replaceFirst("^\\./", "").replaceFirst("/$", "");
        if (name.isEmpty() || name.startsWith("/") || ("/" + name + "/").contains("/../")) {
          throw new AssertionError("layer entry outside the root: " + e.name);
        }
        Path target = root.resolve(name);
        switch (e.type) {
          case Entry.DIRECTORY -> {
            Files.createDirectories(target);
            modes.put("/" + name, e.mode);
          }
          case Entry.FILE -> {
            Files.createDirectories(target.getParent());
            try (OutputStream out = Files.newOutputStream(target)) {
              copy(in, out, e.size);
            }
            e.skipPadding(in);
            Files.setPosixFilePermissions(target, permissions(e.mode));
            modes.put("/" + name, e.mode);
          }
          default -> throw new AssertionError("unexpected entry type " + e.type + ": " + e.name);
        }
      }
      in.transferTo(OutputStream.nullOutputStream());
    }
    return "sha256:" + HexFormat.of().formatHex(sha256.digest());
  }

  private static void copy(InputStream in, OutputStream out, long size) throws IOException {
    byte[] buffer = new byte[8192];
    long left = size;
    while (left > 0) {
      int n = in.read(buffer, 0, (int) Math.min(buffer.length, left));
      if (n < 0) {
        throw new IOException("truncated tar entry");
      }
      out.write(buffer, 0, n);
      left -= n;
    }
  }

  private static Set<PosixFilePermission> permissions(int mode) {
    Set<PosixFilePermission> out = EnumSet.noneOf(PosixFilePermission.class);
    PosixFilePermission[] bits = PosixFilePermission.values(); // OWNER_READ .. OTHERS_EXECUTE
    for (int i = 0; i < 9; i++) {
      if ((mode & (0400 >> i)) != 0) {
        out.add(bits[i]);
      }
    }
    return out;
  }

  /**
   * One member of a POSIX tar (ustar headers, with the pax extended headers Jib's tar writer adds
   * for long names and extra times).
   */
  private record Entry(String name, int mode, long size, char type) {
    static final char FILE = '0';
    static final char DIRECTORY = '5';

    /** The next member, pax headers applied; null at the end of the archive. */
    static Entry next(InputStream in) throws IOException {
      String paxPath = null;
      while (true) {
        byte[] h = in.readNBytes(512);
        if (h.length < 512 || isZero(h)) {
          return null;
        }
        String name = field(h, 0, 100);
        if (field(h, 257, 5).equals("ustar") && !field(h, 345, 155).isEmpty()) {
          name = field(h, 345, 155) + "/" + name;
        }
        int mode = (int) octal(h, 100, 8);
        long size = octal(h, 124, 12);
        char type = h[156] == 0 ? FILE : (char) h[156];
        Entry e = new Entry(paxPath != null ? paxPath : name, mode & 0777, size, type);
        switch (type) {
          case 'x' -> {
            paxPath = pax(in.readNBytes((int) size)).get("path");
            e.skipPadding(in);
          }
          case 'g' -> e.skip(in);
          default -> {
            return e;
          }
        }
      }
    }

    void skip(InputStream in) throws IOException {
      in.readNBytes((int) size); // read, not skipped: a digest may be following the stream
      skipPadding(in);
    }

    void skipPadding(InputStream in) throws IOException {
      in.readNBytes((int) ((512 - size % 512) % 512));
    }

    /** pax records: {@code "<length> <key>=<value>\n"}, the length in bytes. */
    private static Map<String, String> pax(byte[] records) {
      Map<String, String> out = new TreeMap<>();
      int at = 0;
      while (at < records.length) {
        int space = at;
        while (records[space] != ' ') {
          space++;
        }
        int length = Integer.parseInt(new String(records, at, space - at, UTF_8));
        String record = new String(records, space + 1, at + length - space - 2, UTF_8);
        int eq = record.indexOf('=');
        out.put(record.substring(0, eq), record.substring(eq + 1));
        at += length;
      }
      return out;
    }

    private static String field(byte[] h, int offset, int length) {
      int end = offset;
      while (end < offset + length && h[end] != 0) {
        end++;
      }
      return new String(h, offset, end - offset, UTF_8);
    }

    private static long octal(byte[] h, int offset, int length) {
      String s = field(h, offset, length).trim();
      return s.isEmpty() ? 0 : Long.parseLong(s, 8);
    }

    private static boolean isZero(byte[] h) {
      for (byte b : h) {
        if (b != 0) {
          return false;
        }
      }
      return true;
    }
  }
}
