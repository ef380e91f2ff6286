package dev.jobc.tf;

import dev.jobc.k8s.ApiLimits;
import dev.jobc.k8s.OutputSize;
import dev.jobc.options.OptionTable;
import java.util.Map;

/**
 * How large a TFJob's objects are, from its replica counts and names, before it is planned: every
 * replica's TF_CONFIG lists the address of every replica ({@link TfConfig}), so the text grows with
 * the square of the replicas, and it is worked out with arithmetic, never by writing it.
 */
final class TfOutputSize {
  /** {@code "TF_CONFIG="}: the environment string is the name, '=' and the value. */
  static final int ENV_PREFIX = "TF_CONFIG=".length();

  /** A Service per replica. */
  private static final long SERVICE = 600;

  private TfOutputSize() {}

  /** Characters of the longest TF_CONFIG any replica gets; 0 when the job is not distributed. */
  static long longestTfConfig(TfJobModel job) {
    if (job.totalReplicas() == 1) {
      return 0;
    }
    String domain = job.options().get(OptionTable.CLUSTER_DOMAIN);
    // "<job>-<type>-<i>" + ".<ns>.svc" [+ ".<domain>"] + ":<port>"
    long suffix = 1 + job.namespace().length() + 4 + (domain == null ? 0 : 1 + domain.length()) + 1;
    if (job.enableDynamicWorker()) {
      // SparseTFConfig: a worker lists itself and every PS, a PS itself; nothing else grows.
      TfJobModel.Replica ps = job.replica(TfReplicaType.PS);
      TfJobModel.Replica worker = job.replica(TfReplicaType.WORKER);
      if (worker == null || worker.count() <= 0) {
        // Room for the longest type and index (an upper bound: only the PS's address grows).
        long index = digits(job.totalReplicas());
        return ps == null || ps.count() <= 0
            ? 96 + index
            : 96 + index + host(job.name(), TfReplicaType.PS, ps, suffix);
      }
      long psList = ps == null ? 4 : 2 + hosts(job.name(), TfReplicaType.PS, ps, suffix);
      long own =
          2 + digits(worker.count()) + 3 + host(job.name(), TfReplicaType.WORKER, worker, suffix);
      return 40 + own + psList + 30 + digits(worker.count());
    }
    long length = "{\"cluster\":{".length();
    int longestTask = 0; // the type's name and the last index's digits
    boolean first = true;
    for (Map.Entry<TfReplicaType, TfJobModel.Replica> e : job.replicas().entrySet()) {
      String type = e.getKey().lower();
      // ,"<type>":[<hosts>]
      length +=
          (first ? 0 : 1) + type.length() + 5 + hosts(job.name(), e.getKey(), e.getValue(), suffix);
      first = false;
      longestTask =
          Math.max(longestTask, type.length() + digits(Math.max(e.getValue().count() - 1, 0)));
    }
    // },"task":{"type":"<type>","index":<i>},"environment":"cloud"}
    return length + 2 + 15 + 2 + 9 + longestTask + 1 + 23;
  }

  /** About how much a TFJob renders, and the replica count that makes it so large. */
  static OutputSize.Estimate estimate(TfJobModel job) {
    long tfConfig = longestTfConfig(job);
    long chars = 0;
    TfJobModel.Replica biggest = null;
    TfReplicaType biggestType = null;
    long each = 0;
    for (Map.Entry<TfReplicaType, TfJobModel.Replica> e : job.replicas().entrySet()) {
      long one =
          OutputSize.plus(
              OutputSize.template(e.getValue().spec().template()),
              tfConfig + OutputSize.OBJECT_OVERHEAD + SERVICE);
      chars = OutputSize.plus(chars, OutputSize.times(e.getValue().count(), one));
      if (biggest == null || e.getValue().count() > biggest.count()) {
        biggest = e.getValue();
        biggestType = e.getKey();
        each = one;
      }
    }
    return new OutputSize.Estimate(
        chars,
        TfJobDefaults.REPLICA_SPECS.key(biggest.key()).child("replicas"),
        job.totalReplicas()
            + " replicas, the "
            + biggest.count()
            + " of type "
            + biggestType.specName()
            + " about "
            + ApiLimits.kib(each)
            + " each");
  }

  /** Characters of the quoted, comma-separated addresses of every replica of a type. */
  private static long hosts(String job, TfReplicaType type, TfJobModel.Replica r, long suffix) {
    long n = r.count();
    if (n <= 0) {
      return 0;
    }
    long port = digits(TfJobPlanner.tfPort(r.spec().template()));
    long fixed = 2 + job.length() + 1 + type.lower().length() + 1 + suffix + port + 1;
    return n * fixed + sumOfDigits(n) - 1;
  }

  /** The address of the last replica of a type, quoted. */
  private static long host(String job, TfReplicaType type, TfJobModel.Replica r, long suffix) {
    long port = digits(TfJobPlanner.tfPort(r.spec().template()));
    return 2
        + job.length()
        + 1
        + type.lower().length()
        + 1
        + digits(Math.max(r.count() - 1, 0))
        + suffix
        + port;
  }

  /** Decimal digits of {@code n ≥ 0}. */
  static int digits(long n) {
    return Long.toString(n).length();
  }

  /** The decimal digits of 0, 1, ..., n - 1 together. */
  static long sumOfDigits(long n) {
    long total = 0;
    long low = 0;
    for (int d = 1; low < n; d++) {
      long high = d == 1 ? 10 : low * 10;
      total += (Math.min(high, n) - low) * d;
      low = high;
    }
    return total;
  }
}
