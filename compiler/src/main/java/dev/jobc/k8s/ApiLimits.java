package dev.jobc.k8s;

import java.util.Map;

/**
 * The sizes beyond which a cluster refuses what jobc renders: every object it writes is held to
 * these, so that a render is never an object the API server or the node rejects.
 */
public final class ApiLimits {
  private ApiLimits() {}

  /**
   * The largest object the API server stores: etcd's default request limit, 1.5 MiB ({@code
   * --max-request-bytes}, etcd {@code server/embed/config.go} {@code DefaultMaxRequestBytes}); a
   * larger one fails with "etcdserver: request is too large". jobc measures the object as it writes
   * it (YAML, about the size of the JSON a client sends).
   */
  public static final int OBJECT_BYTES = 1_572_864;

  /**
   * A ConfigMap's {@code data} and {@code binaryData} together (kubernetes {@code
   * pkg/apis/core/validation} {@code ValidateConfigMap}, {@code core.MaxSecretSize}).
   */
  public static final int CONFIG_MAP_BYTES = 1_048_576;

  /**
   * An object's annotations, keys and values together (apimachinery {@code pkg/api/validation}
   * {@code TotalAnnotationSizeLimitB}).
   */
  public static final int ANNOTATIONS_BYTES = 262_144;

  /**
   * The longest environment string ({@code NAME=value}) Linux passes to a new process ({@code
   * MAX_ARG_STRLEN}, 32 pages of 4 KiB, {@code include/uapi/linux/binfmts.h}): {@code execve} fails
   * with E2BIG on a longer one, so the container never starts.
   */
  public static final int ENV_STRING_BYTES = 131_072;

  /**
   * Why the API server would refuse the {@code kind} {@code name}, written as {@code yaml}, for its
   * size, or null: the object, its annotations, or a ConfigMap's data too large.
   */
  public static String problem(
      String kind, String name, String yaml, long annotationBytes, long configMapBytes) {
    String what = "the " + kind + " " + name;
    if (configMapBytes > CONFIG_MAP_BYTES) {
      return what
          + " would hold "
          + kib(configMapBytes)
          + " of data, more than the "
          + kib(CONFIG_MAP_BYTES)
          + " of a ConfigMap (Too long: may not be more than "
          + CONFIG_MAP_BYTES
          + " bytes)";
    }
    if (annotationBytes > ANNOTATIONS_BYTES) {
      return what
          + " would carry "
          + kib(annotationBytes)
          + " of annotations, more than the "
          + kib(ANNOTATIONS_BYTES)
          + " of any object (Too long: may not be more than "
          + ANNOTATIONS_BYTES
          + " bytes)";
    }
    if (yaml.length() > OBJECT_BYTES / 3 && bytes(yaml) > OBJECT_BYTES) {
      return what
          + " would be "
          + mib(bytes(yaml))
          + ", more than the "
          + mib(OBJECT_BYTES)
          + " the API server stores in one object (etcd: request is too large)";
    }
    return null;
  }

  /** {@code s} in UTF-8 bytes, as the API server counts. */
  public static long bytes(String s) {
    long n = s.length();
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c >= 0x80) {
        n += c < 0x800 || Character.isSurrogate(c) ? 1 : 2; // a pair is 4 bytes for 2 chars
      }
    }
    return n;
  }

  /** Keys and values of {@code map} in UTF-8 bytes; 0 for none. */
  public static long bytes(Map<String, String> map) {
    if (map == null) {
      return 0;
    }
    long n = 0;
    for (Map.Entry<String, String> e : map.entrySet()) {
      n += bytes(e.getKey()) + (e.getValue() == null ? 0 : bytes(e.getValue()));
    }
    return n;
  }

  /** {@code bytes} in KiB, rounded up, for messages. */
  public static String kib(long bytes) {
    return (bytes + 1023) / 1024 + " KiB";
  }

  /** {@code bytes} in MiB, one decimal, for messages. */
  public static String mib(long bytes) {
    return String.format(java.util.Locale.ROOT, "%.1f MiB", bytes / (1024.0 * 1024.0));
  }
}
