package dev.jobc.conventions;

import java.util.List;

/**
 * The lines and text of {@code discover_hosts.sh} (Horovod's host discovery script), shared by the
 * compiler's static form in the ConfigMap and the sidecar's live form, so both print the same bytes
 * for the same workers.
 *
 * <p>Formats follow mpi-operator: v2beta1 echoes each worker's Service FQDN ({@code
 * newConfigMap}/{@code updateDiscoverHostsInConfigMap}), v1 and before echo {@code <pod>:<slots>};
 * a launcher that also runs ranks ({@code runLauncherAsWorker}) comes first, always. Upstream lists
 * Running pods in name order (so {@code worker-10} before {@code worker-2}) and, in v1, leaves out
 * the final newline; jobc lists workers in index order and ends every line with a newline.
 */
public final class DiscoverHosts {
  /** The interpreter line every form starts with. */
  public static final String SHEBANG = "#!/bin/sh";

  private DiscoverHosts() {}

  /** What the script echoes for worker {@code index} of job {@code job}. */
  public static String entry(
      MpiEra era, String job, String namespace, String clusterDomain, int index, int slots) {
    return hostEntry(era, Naming.workerPod(job, index), job, namespace, clusterDomain, slots);
  }

  /**
   * What the script echoes for worker {@code index} of job {@code job} in the JobSet target: the
   * host name the JobSet gives that worker's pod ({@link JobSetNames#host}), in the era's form.
   */
  public static String jobSetEntry(
      MpiEra era, String job, String namespace, String clusterDomain, int index, int slots) {
    return hostEntry(
        era,
        JobSetNames.host(job, MpiLabels.WORKER, 0, index),
        job,
        namespace,
        clusterDomain,
        slots);
  }

  private static String hostEntry(
      MpiEra era, String host, String job, String namespace, String clusterDomain, int slots) {
    return era.podNameHosts()
        ? host + ":" + slots
        : Naming.fqdn(host, Naming.service(job), namespace, clusterDomain);
  }

  /**
   * The whole script: the shebang line, then {@code echo <entry>} per entry, each line ended. An
   * entry that is not a plain host word (letters, digits, {@code . _ : -}) is single-quoted, so
   * that no value, whatever the API server or a flag holds, can run as shell code.
   */
  public static String script(List<String> entries) {
    StringBuilder out = new StringBuilder(SHEBANG).append('\n');
    for (String e : entries) {
      out.append("echo ").append(shellWord(e)).append('\n');
    }
    return out.toString();
  }

  /** {@code value} as one shell word: as it is when plain, else single-quoted. */
  public static String shellWord(String value) {
    boolean plain = !value.isEmpty() && value.charAt(0) != '-';
    for (int i = 0; plain && i < value.length(); i++) {
      char c = value.charAt(i);
      plain =
          (c >= 'a' && c <= 'z')
              || (c >= 'A' && c <= 'Z')
              || (c >= '0' && c <= '9')
              || c == '.'
              || c == '_'
              || c == ':'
              || c == '-';
    }
    return plain ? value : "'" + value.replace("'", "'\\''") + "'";
  }
}
