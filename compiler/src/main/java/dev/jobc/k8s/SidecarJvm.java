package dev.jobc.k8s;

/** The JVM settings of every long-running {@code jobc-sidecar} container, whatever the job kind. */
public final class SidecarJvm {
  /**
   * JVM options for a small watcher: serial GC, C1 only, a 16 MiB heap that gives memory back after
   * a collection, bounded metaspace and code cache, no perf-data file (the root file system is
   * read-only). The resident size they give is measured in bench/README.md.
   */
  public static final String JAVA_TOOL_OPTIONS =
      "-XX:+UseSerialGC -XX:TieredStopAtLevel=1 -XX:CICompilerCount=1 -Xss256k -Xms4m -Xmx16m"
          + " -XX:MinHeapFreeRatio=10 -XX:MaxHeapFreeRatio=30 -XX:MaxMetaspaceSize=48m"
          + " -XX:ReservedCodeCacheSize=16m -XX:MaxDirectMemorySize=8m -XX:-UsePerfData"
          + " -XX:+ExitOnOutOfMemoryError";

  private SidecarJvm() {}
}
