package dev.jobc.dgl;

import dev.jobc.diag.Finding;
import dev.jobc.model.ReplicaSpec;
import dev.jobc.options.CompileOptions;
import dev.jobc.options.JobAnnotations;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Applies dgl-operator's defaults: the CRD's {@code partitionMode: DGL-API} and {@code
 * cleanPodPolicy: Running} (kubebuilder markers on {@code DGLJobSpec}), {@code slotsPerWorker} 1
 * (what {@code updateHostfileInConfigMap} uses when it is unset) and one Launcher replica (the
 * operator creates exactly one launcher pod whatever the count says).
 */
public final class DglJobDefaults {
  public static final String DEFAULT_PARTITION_MODE = "DGL-API";
  public static final String DEFAULT_CLEAN_POD_POLICY = "Running";
  public static final int DEFAULT_SLOTS = 1;

  private DglJobDefaults() {}

  public static DglJobModel apply(DglJob job, CompileOptions options) {
    DglJobSpec spec = job.spec() != null ? job.spec() : new DglJobSpec(null, null, null, null);
    ObjectMeta meta = job.metadata() != null ? job.metadata() : new ObjectMeta();
    String namespace = options.namespace(meta.getNamespace());
    JobAnnotations.Applied annotations = JobAnnotations.apply(meta, options);
    List<Finding> findings =
        annotations.findingsWithoutScaling(
            "a DGLJob cannot scale: every worker holds one graph partition");
    Map<String, ReplicaSpec> replicas = null;
    if (spec.dglReplicaSpecs() != null) {
      replicas = new LinkedHashMap<>();
      for (Map.Entry<String, ReplicaSpec> e : spec.dglReplicaSpecs().entrySet()) {
        ReplicaSpec r = e.getValue() != null ? e.getValue() : new ReplicaSpec(null, null, null);
        if (DglJob.LAUNCHER.equals(e.getKey()) && r.replicas() == null) {
          r = r.withReplicas(1);
        }
        replicas.put(e.getKey(), r);
      }
    }
    return new DglJobModel(
        meta,
        namespace,
        spec.slotsPerWorker() != null ? spec.slotsPerWorker() : DEFAULT_SLOTS,
        isEmpty(spec.partitionMode()) ? DEFAULT_PARTITION_MODE : spec.partitionMode(),
        isEmpty(spec.cleanPodPolicy()) ? DEFAULT_CLEAN_POD_POLICY : spec.cleanPodPolicy(),
        replicas,
        annotations.options(),
        annotations.distParMetisImage(),
        findings);
  }

  private static boolean isEmpty(String s) {
    return s == null || s.isEmpty();
  }
}
