package dev.jobc.replica;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jobc.bind.ObjectTrees;
import dev.jobc.diag.Finding;
import dev.jobc.k8s.ApiLimits;
import dev.jobc.k8s.OutputSize;
import dev.jobc.kind.JobKind;
import dev.jobc.options.OptionTable;
import dev.jobc.options.RenderDefaults;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.List;

/**
 * What every kind of the family has alike as a {@link JobKind}: its name and API version from its
 * {@link Framework}, binding, MultiKueue's pass-through, the size of its output, and the plain
 * target's objects of its {@link ReplicaPlan}. A kind says how it defaults, validates and plans.
 * Immutable and thread-safe.
 *
 * @param <J> the input record
 * @param <M> the defaulted model
 */
public abstract class ReplicaJobKind<J, M> implements JobKind<J, M, ReplicaPlan> {
  private final Framework framework;
  private final Class<J> type;
  private final ReplicaObjects objects = new ReplicaObjects();

  protected ReplicaJobKind(Framework framework, Class<J> type) {
    this.framework = framework;
    this.type = type;
  }

  /** The part of {@code model} every kind of the family shares. */
  protected abstract ReplicaJob job(M model);

  /**
   * Characters the kind's env adds to every pod beyond {@link OutputSize#OBJECT_OVERHEAD}, when it
   * grows with the job (XGBoost's {@code WORKER_ADDRS}); none by default.
   */
  protected long envPerPod(ReplicaJob job) {
    return 0;
  }

  @Override
  public final String kind() {
    return framework.kind();
  }

  @Override
  public final String group() {
    return Framework.GROUP;
  }

  @Override
  public final List<String> apiVersions() {
    return List.of(Framework.API_VERSION);
  }

  @Override
  public final J bind(JsonNode root) {
    return ObjectTrees.bind(root, type);
  }

  @Override
  public final Finding renderedElsewhere(M model) {
    return ReplicaKueue.renderedElsewhere(job(model));
  }

  /**
   * A pod (or Job) and a Service per replica, each about its template's size plus what jobc adds to
   * it: metadata and the kind's env ({@link OutputSize#OBJECT_OVERHEAD}), the names that repeat the
   * job's name and namespace, the replica's line in the sidecar's Role and, on a deciding replica
   * (the Master, else every Worker: each kind's {@code UpdateJobStatus}), the {@code jobc-sidecar}
   * container with its volumes, whose arguments have the same size whatever the counts. The
   * family's env grows with the replicas only in XGBoost's {@code WORKER_ADDRS} (every pod lists
   * every worker), counted through {@link #envPerPod}.
   */
  @Override
  public final OutputSize.Estimate outputSize(M model) {
    ReplicaJob job = job(model);
    long chars = 0;
    ReplicaJob.Replica biggest = null;
    long each = 0;
    int total = 0;
    boolean hasMaster = job.replica("Master") != null;
    long names =
        OutputSize.plus(
            NAME_COPIES * (length(job.name()) + length(job.namespace())), envPerPod(job));
    for (ReplicaJob.Replica r : job.replicas().values()) {
      boolean decides = "Master".equals(r.type()) || !hasMaster && "Worker".equals(r.type());
      long one =
          OutputSize.plus(
              OutputSize.template(r.spec().template()),
              OutputSize.OBJECT_OVERHEAD
                  + SERVICE
                  + names
                  + ROLE_LINE
                  + length(r.type())
                  + (decides
                      ? SIDECAR
                          + RenderDefaults.sidecarImage(job.options()).length()
                          + replicaArgs(job)
                      : 0));
      chars = OutputSize.plus(chars, OutputSize.times(r.count(), one));
      total += r.count();
      if (biggest == null || r.count() > biggest.count()) {
        biggest = r;
        each = one;
      }
    }
    if (biggest == null) {
      return new OutputSize.Estimate(0, framework.replicaSpecsPath(), "no replicas");
    }
    return new OutputSize.Estimate(
        chars,
        framework.replicaSpecsPath().key(biggest.key()).child("replicas"),
        total
            + " replicas, the "
            + biggest.count()
            + " of type "
            + biggest.type()
            + " about "
            + ApiLimits.kib(each)
            + " each");
  }

  /**
   * The deciding sidecar's {@code --replica TYPE:NAME} per replica under render defaults from
   * before 2026-11-28 (the counts since take the same size whatever the job).
   */
  private static long replicaArgs(ReplicaJob job) {
    if (job.options().get(OptionTable.RENDER_DEFAULTS).replicaCounts()) {
      return 0;
    }
    return OutputSize.times(job.totalReplicas(), REPLICA_ARG + length(job.name()));
  }

  /** One {@code - --replica} and {@code - TYPE:NAME} line, the job's name aside. */
  private static final long REPLICA_ARG = 64;

  private static long length(String s) {
    return s == null ? 0 : s.length();
  }

  /** A replica's headless Service, written. */
  private static final long SERVICE = 600;

  /**
   * The {@code jobc-sidecar} container of a deciding replica, its two volumes and mounts and the
   * account, written (about 2,600 characters, the image aside).
   */
  private static final long SIDECAR = 3_072;

  /** How often a replica's objects repeat the job's name and namespace, at most. */
  private static final long NAME_COPIES = 16;

  /** A replica's name in the sidecar Role's {@code resourceNames}, its type and job aside. */
  private static final long ROLE_LINE = 24;

  @Override
  public final List<HasMetadata> generate(ReplicaPlan plan) {
    return objects.generate(plan);
  }
}
