package dev.jobc.tf;

import dev.jobc.diag.Code;
import dev.jobc.diag.FieldPath;
import dev.jobc.diag.Finding;
import dev.jobc.diag.Quoting;
import dev.jobc.model.ReplicaSpec;
import dev.jobc.model.RunPolicy;
import dev.jobc.options.CompileOptions;
import dev.jobc.options.JobAnnotations;
import dev.jobc.replica.ReplicaDefaults;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * training-operator v1.9.0 {@code SetDefaults_TFJob}: {@code cleanPodPolicy} None, success policy
 * {@code ""}, replica keys normalised case-insensitively ({@code WORKER} → {@code Worker}), and per
 * replica {@code replicas} 1, {@code restartPolicy} Never and a {@code tfjob-port} 2222 port
 * appended to the {@code tensorflow} container (or container 0) unless it has a port of that name.
 *
 * <p>Unlike upstream, two keys that normalise to one type are an error (upstream keeps one of them
 * and silently drops the other, whichever Go's map order gives), and a key that names no type is an
 * error (upstream creates pods for it that no rule of the job ever looks at).
 */
public final class TfJobDefaults {
  public static final String CLEAN_POD_POLICY = "None";
  public static final String RESTART_POLICY = "Never";

  static final FieldPath REPLICA_SPECS = FieldPath.of("spec", "tfReplicaSpecs");

  private TfJobDefaults() {}

  public static TfJobModel apply(TfJob job, CompileOptions options) {
    TfJobSpec spec = job.spec() != null ? job.spec() : new TfJobSpec(null, null, null, null);
    ObjectMeta meta = job.metadata() != null ? job.metadata() : new ObjectMeta();
    String namespace = options.namespace(meta.getNamespace());
    JobAnnotations.Applied annotations = JobAnnotations.apply(meta, options);
    List<Finding> findings =
        annotations.findingsWithoutScaling(
            "a TFJob cannot scale: every replica's TF_CONFIG lists the whole" + " cluster");
    RunPolicy run = spec.runPolicy() != null ? spec.runPolicy() : RunPolicy.empty();
    if (run.cleanPodPolicy() == null) {
      run = run.withCleanPodPolicy(CLEAN_POD_POLICY);
    }

    Map<TfReplicaType, TfJobModel.Replica> replicas = null;
    if (spec.tfReplicaSpecs() != null) {
      replicas = new EnumMap<>(TfReplicaType.class);
      for (Map.Entry<String, ReplicaSpec> e : spec.tfReplicaSpecs().entrySet()) {
        String key = e.getKey();
        FieldPath at = REPLICA_SPECS.key(key);
        TfReplicaType type = TfReplicaType.of(key).orElse(null);
        if (type == null) {
          findings.add(
              Finding.error(
                  Code.NOT_SUPPORTED,
                  at,
                  "Unsupported value: "
                      + Quoting.quote(key)
                      + ": supported values (in any case): \"Chief\", \"Evaluator\", \"Master\","
                      + " \"PS\", \"Worker\""));
          continue;
        }
        TfJobModel.Replica first = replicas.get(type);
        if (first != null) {
          findings.add(ReplicaDefaults.duplicateKey(at, key, first.key(), type.specName()));
          continue;
        }
        replicas.put(type, new TfJobModel.Replica(key, replica(e.getValue())));
      }
    }
    return new TfJobModel(
        meta,
        namespace,
        run,
        spec.successPolicy() == null ? "" : spec.successPolicy(),
        Boolean.TRUE.equals(spec.enableDynamicWorker()),
        replicas,
        annotations.options(),
        findings);
  }

  private static ReplicaSpec replica(ReplicaSpec given) {
    ReplicaSpec r = given != null ? given : new ReplicaSpec(null, null, null);
    if (r.replicas() == null) {
      r = r.withReplicas(1);
    }
    if (r.restartPolicy() == null || r.restartPolicy().isEmpty()) {
      r = r.withRestartPolicy(RESTART_POLICY);
    }
    return new ReplicaSpec(
        r.replicas(),
        ReplicaDefaults.withDefaultPort(TfJob.CONTAINER, TfJob.PORT_NAME, TfJob.PORT, r.template()),
        r.restartPolicy());
  }
}
