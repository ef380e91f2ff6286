package dev.jobc.tf;

import dev.jobc.bind.ObjectTrees;
import dev.jobc.bind.ObjectTrees.Snapshot;
import dev.jobc.conventions.MpiLabels;
import dev.jobc.conventions.TfLabels;
import dev.jobc.k8s.PodTemplates;
import dev.jobc.options.CompileOptions;
import dev.jobc.options.OptionTable;
import dev.jobc.options.WorkerKind;
import dev.jobc.replica.ReplicaJobSets;
import dev.jobc.replica.ReplicaPlanner;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.ServicePort;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Decides replica names, TF_CONFIG, Service ports and the deciding replica of a valid TFJob. */
public final class TfJobPlanner {
  /** Suffix of the ServiceAccount jobc creates for the sidecar when the user names none. */
  public static final String SIDECAR_ACCOUNT_SUFFIX = "-sidecar";

  private TfJobPlanner() {}

  public static TfJobPlan plan(TfJobModel job) {
    CompileOptions options = job.options();
    String name = job.name();
    String ns = job.namespace();
    String domain = options.get(OptionTable.CLUSTER_DOMAIN);

    // genClusterSpec: every type, Evaluator included, "<svc>.<ns>.svc[.<domain>]:<port>".
    Map<String, List<String>> cluster = new LinkedHashMap<>();
    Map<TfReplicaType, Snapshot<PodTemplateSpec>> templates = new EnumMap<>(TfReplicaType.class);
    Map<TfReplicaType, List<ServicePort>> ports = new EnumMap<>(TfReplicaType.class);
    for (Map.Entry<TfReplicaType, TfJobModel.Replica> e : job.replicas().entrySet()) {
      TfReplicaType type = e.getKey();
      PodTemplateSpec template = e.getValue().spec().template();
      int port = tfPort(template);
      List<String> hosts = new ArrayList<>();
      for (int i = 0; i < e.getValue().count(); i++) {
        String host = TfLabels.replica(name, type.lower(), i) + "." + ns + ".svc";
        hosts.add((domain == null ? host : host + "." + domain) + ":" + port);
      }
      cluster.put(type.lower(), hosts);
      templates.put(type, ObjectTrees.snapshot(template, PodTemplateSpec.class));
      ports.put(type, ReplicaPlanner.servicePorts(TfJob.CONTAINER, template));
    }

    // isDistributed: TF_CONFIG only when the job has other than exactly one replica.
    boolean distributed = job.totalReplicas() != 1;
    List<TfReplica> replicas = new ArrayList<>();
    for (Map.Entry<TfReplicaType, TfJobModel.Replica> e : job.replicas().entrySet()) {
      TfReplicaType type = e.getKey();
      for (int i = 0; i < e.getValue().count(); i++) {
        String config = null;
        if (distributed) {
          config =
              job.enableDynamicWorker()
                  ? TfConfig.sparse(cluster, type.lower(), i)
                  : TfConfig.dense(cluster, type.lower(), i);
        }
        replicas.add(
            new TfReplica(
                type,
                i,
                TfLabels.replica(name, type.lower(), i),
                config,
                masterRole(job, type, i),
                decides(job, type, i)));
      }
    }

    TfReplica decider = replicas.stream().filter(TfReplica::decides).findFirst().orElseThrow();
    // The account the deciding replica's template names is kept (image pull secrets, cloud
    // identity) and the sidecar's Role bound to it; training-operator leaves it as it is too.
    String account =
        PodTemplates.namedAccount(job.replica(decider.type()).spec().template().getSpec());
    boolean create = account == null;
    return new TfJobPlan(
        job,
        name,
        ns,
        options,
        replicas,
        options.get(OptionTable.WORKERS) == WorkerKind.PODS && !ReplicaJobSets.chosen(options),
        templates,
        ports,
        create ? name + SIDECAR_ACCOUNT_SUFFIX : account,
        create,
        MpiLabels.kueueLabels(job.metadata().getLabels()),
        TfGangPlanner.plan(job).orElse(null));
  }

  /** {@code IsMasterRole}: every Chief/Master pod, else Worker 0. */
  static boolean masterRole(TfJobModel job, TfReplicaType type, int index) {
    return job.hasChiefOrMaster()
        ? type.chiefOrMaster()
        : type == TfReplicaType.WORKER && index == 0;
  }

  /**
   * Whether replica {@code index} of {@code type} decides the job's outcome, and so carries the
   * sidecar: the master role; with {@code AllWorkers} (and no Chief or Master) every Worker, since
   * the last one to succeed completes the job.
   */
  static boolean decides(TfJobModel job, TfReplicaType type, int index) {
    return masterRole(job, type, index)
        || !job.hasChiefOrMaster()
            && TfJob.ALL_WORKERS.equals(job.successPolicy())
            && type == TfReplicaType.WORKER;
  }

  /** The first {@code tensorflow} container, or {@code null}. */
  static Container tensorflow(PodTemplateSpec template) {
    // Also asked while validating (the TF_CONFIG size check), before the missing containers are
    // reported: no containers, or a null one, is no tensorflow container.
    if (template == null
        || template.getSpec() == null
        || template.getSpec().getContainers() == null) {
      return null;
    }
    for (Container c : template.getSpec().getContainers()) {
      if (c != null && TfJob.CONTAINER.equals(c.getName())) {
        return c;
      }
    }
    return null;
  }

  /** {@code GetPortFromTFJob}: the {@code tfjob-port} of the tensorflow container, else 2222. */
  static int tfPort(PodTemplateSpec template) {
    Container c = tensorflow(template);
    if (c != null && c.getPorts() != null) {
      for (ContainerPort p : c.getPorts()) {
        if (TfJob.PORT_NAME.equals(p.getName()) && p.getContainerPort() != null) {
          return p.getContainerPort();
        }
      }
    }
    return TfJob.PORT;
  }
}
