package dev.jobc.options;

import dev.jobc.diag.Quoting;
import dev.jobc.diag.Suggestions;
import java.util.Arrays;

/**
 * What jobc renders by default into fields the API server will not change in an existing object (a
 * Job's pod template, a bare Pod's spec), one row per set of defaults a release introduced, named
 * by the date of that release's main. A job pinned to a row ({@code jobc.dev/render-defaults})
 * renders those fields as that release did, so that a jobc upgrade re-renders a running job byte
 * for byte and GitOps can apply it; a new release that changes such a default adds one row here and
 * one line to docs/gitops.md's table.
 */
public enum RenderDefaults implements Option.Spelled {
  /**
   * Until 2026-11-25: sidecar 0.1.0 on fabric8's client, heap max(32, 12 + ceil(pods/128)) MiB and
   * 96 MiB besides (128Mi up to 2,560 pods); the family's sidecar lists the other replicas by name
   * ({@code --replica TYPE:NAME}), replica pods name no host, the launcher's sidecar gets no grace
   * period.
   */
  V2026_11_25("2026-11-25", "ghcr.io/jobc-dev/jobc-sidecar:0.1.0", 32, 12, 96, false),
  /**
   * 2026-11-26 to 2026-11-27: as {@link #V2026_11_25} with the sidecar's own API client's sizes,
   * heap max(16, 8 + ceil(pods/128)) MiB and 64 MiB besides (80Mi up to 1,024 pods).
   */
  V2026_11_27("2026-11-27", "ghcr.io/jobc-dev/jobc-sidecar:0.1.0", 16, 8, 64, false),
  /**
   * This release's (default): sidecar 0.2.0, the family's sidecar gets each type's count ({@code
   * --replicas TYPE=N}), replica pods name their host and subdomain, the launcher's sidecar its
   * pod's grace period ({@code --termination-grace-period}), its JVM compiles late.
   */
  CURRENT("current", "ghcr.io/jobc-dev/jobc-sidecar:0.2.0", 16, 8, 64, true);

  /**
   * Pods a sidecar watches per MiB of heap, the same in every row (see {@code SidecarContainer}).
   */
  public static final int PODS_PER_HEAP_MIB = 128;

  private final String spelling;
  private final String sidecarImage;
  private final int minHeapMiB;
  private final int fixedHeapMiB;
  private final int nonHeapMiB;
  private final boolean sidecarV2;

  RenderDefaults(
      String spelling,
      String sidecarImage,
      int minHeapMiB,
      int fixedHeapMiB,
      int nonHeapMiB,
      boolean sidecarV2) {
    this.spelling = spelling;
    this.sidecarImage = sidecarImage;
    this.minHeapMiB = minHeapMiB;
    this.fixedHeapMiB = fixedHeapMiB;
    this.nonHeapMiB = nonHeapMiB;
    this.sidecarV2 = sidecarV2;
  }

  @Override
  public String spelling() {
    return spelling;
  }

  /** The sidecar image these defaults pull. */
  public String sidecarImage() {
    return sidecarImage;
  }

  /**
   * The image a job's sidecars pull: the {@code sidecar-image} option where it names another image
   * than jobc's default, else the image of the job's render defaults.
   */
  public static String sidecarImage(CompileOptions options) {
    String image = options.get(OptionTable.SIDECAR_IMAGE);
    return image.equals(OptionTable.SIDECAR_IMAGE.defaultValue())
        ? options.get(OptionTable.RENDER_DEFAULTS).sidecarImage
        : image;
  }

  /** The least heap of any sidecar, MiB. */
  public int minHeapMiB() {
    return minHeapMiB;
  }

  /** What a sidecar's heap holds whatever it watches, MiB. */
  public int fixedHeapMiB() {
    return fixedHeapMiB;
  }

  /** What a sidecar's JVM needs besides the heap, MiB. */
  public int nonHeapMiB() {
    return nonHeapMiB;
  }

  /**
   * Whether the family's deciding sidecar gets each type's count ({@code --replicas TYPE=N}) rather
   * than every other replica's name ({@code --replica TYPE:NAME}), which sidecar 0.2.0 no longer
   * takes.
   */
  public boolean replicaCounts() {
    return sidecarV2;
  }

  /** Whether the family's replica pods name their host and subdomain. */
  public boolean replicaHostnames() {
    return sidecarV2;
  }

  /**
   * Whether the MPIJob launcher's sidecar gets {@code --termination-grace-period}, which sidecar
   * 0.1.0 does not take.
   */
  public boolean launcherGracePeriod() {
    return sidecarV2;
  }

  /**
   * Whether the sidecar's JVM compiles late ({@code -XX:CompileThresholdScaling=50}): the TLS and
   * HTTP start-up code of sidecar 0.2.0's client then stays interpreted (bench/README.md).
   */
  public boolean lateCompilation() {
    return sidecarV2;
  }

  /** A date or {@code current}, as the flag and the annotation spell them. */
  public static RenderDefaults parse(String value) {
    for (RenderDefaults d : values()) {
      if (d.spelling.equals(value)) {
        return d;
      }
    }
    String[] known = Arrays.stream(values()).map(d -> d.spelling).toArray(String[]::new);
    String hint = Suggestions.closest(value, Arrays.asList(known));
    throw new IllegalArgumentException(
        "render-defaults must be one of "
            + String.join(", ", known)
            + ", not "
            + Quoting.quote(value)
            + (hint != null ? "; did you mean " + Quoting.quote(hint) + "?" : ""));
  }
}
