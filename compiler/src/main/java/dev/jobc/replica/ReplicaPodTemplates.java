package dev.jobc.replica;

import dev.jobc.bind.ObjectTrees.Snapshot;
import dev.jobc.conventions.MpiLabels;
import dev.jobc.conventions.Naming;
import dev.jobc.conventions.ReplicaLabels;
import dev.jobc.k8s.GangPlan;
import dev.jobc.k8s.GangPlan.Flavor;
import dev.jobc.k8s.GangScheduling;
import dev.jobc.k8s.Metadata;
import dev.jobc.k8s.PodTemplates;
import dev.jobc.k8s.SidecarContainer;
import dev.jobc.options.CompileOptions;
import dev.jobc.options.OptionTable;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EmptyDirVolumeSource;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One replica's pod as training-operator v1.9.0 creates it ({@code common/pod.go createNewPod}),
 * whatever carries it: the type's defaulted template, the operator's labels, the kind's {@code
 * SetClusterSpec} (its environment after the user's on every container, its init containers after
 * the user's), the replica's restart policy, gang-scheduling marks; with a Kueue queue name the
 * pod-group marks; and beside a deciding replica the jobc sidecar.
 */
public final class ReplicaPodTemplates {
  /**
   * training-operator's Volcano pod annotation naming the replica type ({@code
   * volcano.sh/task-spec}).
   */
  static final String VOLCANO_TASK_SPEC = "volcano.sh/task-spec";

  private ReplicaPodTemplates() {}

  /**
   * A fresh template for {@code replica}; {@code inJob} when a batch/v1 Job carries it (which
   * accepts only restart policies Never and OnFailure).
   */
  public static PodTemplateSpec of(ReplicaPlan plan, ReplicaPod replica, boolean inJob) {
    PodTemplateSpec template = plan.templates().get(replica.type()).copy();
    if (template.getMetadata() == null) {
      template.setMetadata(new ObjectMeta());
    }
    ObjectMeta meta = template.getMetadata();
    Map<String, String> labels =
        labels(
            meta,
            ReplicaLabels.replicaSelector(
                plan.framework().operator(), plan.name(), replica.lower(), replica.index()),
            replica.masterRole(),
            plan.jobSet() ? Map.of() : plan.kueueLabels());
    Map<String, String> annotations = new LinkedHashMap<>();
    if (plan.podGroup()) {
      labels.put(ReplicaKueue.POD_GROUP_NAME, plan.name());
      annotations.put(ReplicaKueue.POD_GROUP_TOTAL_COUNT, Integer.toString(plan.replicas().size()));
      // Nothing replaces a failed replica's Pod: Kueue must not hold the group's quota waiting for
      // one (pod_controller.go Finished: done once no pod is active in an unretriable group).
      annotations.put(ReplicaKueue.RETRIABLE_IN_GROUP, "false");
    }
    meta.setLabels(labels);
    Metadata.annotate(meta, annotations);

    PodSpec spec = template.getSpec();
    for (Container c : spec.getContainers()) {
      List<EnvVar> env = c.getEnv() == null ? new ArrayList<>() : new ArrayList<>(c.getEnv());
      for (PodEnv e : replica.env()) {
        env.add(e.var());
      }
      c.setEnv(env);
    }
    if (!replica.initContainers().isEmpty()) {
      List<Container> init =
          spec.getInitContainers() == null
              ? new ArrayList<>()
              : new ArrayList<>(spec.getInitContainers());
      for (Snapshot<Container> c : replica.initContainers()) {
        init.add(c.copy());
      }
      spec.setInitContainers(init);
    }
    spec.setRestartPolicy(restartPolicy(plan.restartPolicy(replica.type()), inJob));
    hostname(spec, replica.name(), plan.options());
    decorate(plan.gang(), plan.name(), replica.lower(), meta, spec);
    if (replica.decides() && !plan.jobSet()) {
      addSidecar(spec, plan.serviceAccount(), ReplicaSidecar.container(plan, replica));
    }
    return template;
  }

  /**
   * Puts {@code sidecar} beside a deciding pod's containers (TFJob's too). The sidecar's Role is
   * bound to {@code account}: the pod's own containers get no token (so user code gains none of the
   * Role's rights), and the sidecar mounts one of its own ({@link #sidecarMounts}).
   */
  public static void addSidecar(PodSpec spec, String account, Container sidecar) {
    spec.setServiceAccountName(account);
    spec.setAutomountServiceAccountToken(Boolean.FALSE);
    spec.setInitContainers(PodTemplates.append(spec.getInitContainers(), sidecar));
    spec.setVolumes(
        PodTemplates.append(spec.getVolumes(), sidecarTmpVolume(), SidecarContainer.tokenVolume()));
  }

  /** The sidecar's mounts: its scratch space and its own API token. */
  public static List<VolumeMount> sidecarMounts() {
    return new ArrayList<>(
        List.of(
            PodTemplates.mount(Naming.SIDECAR_TMP_VOLUME, Naming.SIDECAR_TMP_MOUNT),
            SidecarContainer.tokenMount()));
  }

  /**
   * A replica pod's labels: the template's, then over them the operator's ({@code selector}, with
   * {@code job-role: master} on a pod {@code IsMasterRole} picks) and jobc's, then the job's Kueue
   * labels. TFJob's pods are labelled here too.
   */
  public static Map<String, String> labels(
      ObjectMeta meta,
      Map<String, String> selector,
      boolean masterRole,
      Map<String, String> kueueLabels) {
    Map<String, String> ours = new LinkedHashMap<>(selector);
    if (masterRole) {
      ours.put(ReplicaLabels.JOB_ROLE, ReplicaLabels.MASTER);
    }
    ours.put(MpiLabels.MANAGED_BY, MpiLabels.JOBC);
    Map<String, String> labels = Metadata.merge(meta.getLabels(), ours);
    labels.putAll(kueueLabels);
    return labels;
  }

  /** The sidecar's scratch space: a 1Mi memory-backed emptyDir (TFJob's sidecar's too). */
  public static Volume sidecarTmpVolume() {
    Volume tmp = new Volume();
    tmp.setName(Naming.SIDECAR_TMP_VOLUME);
    tmp.setEmptyDir(new EmptyDirVolumeSource("Memory", new Quantity("1Mi")));
    return tmp;
  }

  /**
   * The replica pod's host name {@code <job>-<type>-<i>} ({@code name}), under its own headless
   * Service as subdomain, unless the template names a host. Upstream's pod is named so and the
   * kubelet takes the pod's name as host name ({@code kubernetes pkg/kubelet/kubelet_pods.go
   * GeneratePodHostNameAndDomain}): it is the host that MASTER_ADDR, PET_RDZV_ENDPOINT, TF_CONFIG
   * and the other variables name, and torchrun's c10d rendezvous hosts its store on the node whose
   * host name (or FQDN) equals that host ({@code pytorch
   * torch/distributed/elastic/rendezvous/utils.py _matches_machine_hostname}). A Job's pod is named
   * {@code <job>-<random>}, and nothing else names its host: the Job controller does only for an
   * Indexed Job ({@code kubernetes pkg/controller/job/job_controller.go manageJob}), and a JobSet
   * only with {@code network.enableDNSHostnames}, which the family's JobSets leave off ({@code
   * jobset v0.12.0 pkg/controllers/jobset_controller.go constructJob}). The subdomain makes {@code
   * <host>.<host>.<ns>.svc} resolve as well, and the pod's FQDN that name. A bare Pod is named so
   * already; the same fields keep it so under any carrier. A job pinned to render defaults from
   * before 2026-11-28 gets neither field, as those releases rendered it.
   */
  public static void hostname(PodSpec spec, String name, CompileOptions options) {
    if (!options.get(OptionTable.RENDER_DEFAULTS).replicaHostnames()
        || spec.getHostname() != null && !spec.getHostname().isEmpty()) {
      return;
    }
    spec.setHostname(name);
    if (spec.getSubdomain() == null || spec.getSubdomain().isEmpty()) {
      spec.setSubdomain(name);
    }
  }

  /**
   * {@code setRestartPolicy}: ExitCode runs as Never (what carries the pod decides retries); the
   * others as written, except that a Job's pods cannot have Always: OnFailure restarts the
   * container just as well, and a container that exits 0 ends the replica rather than running
   * again.
   */
  public static String restartPolicy(String replicaPolicy, boolean inJob) {
    return switch (replicaPolicy) {
      case "ExitCode" -> "Never";
      case "Always" -> inJob ? "OnFailure" : "Always";
      default -> replicaPolicy;
    };
  }

  /**
   * training-operator's gang marks: {@code schedulerName} only where the template names none (it
   * keeps another and warns), the group annotation or label, and for Volcano the replica type in
   * {@code volcano.sh/task-spec}.
   */
  public static void decorate(
      GangPlan gang, String job, String lowerType, ObjectMeta meta, PodSpec spec) {
    if (gang == null) {
      return;
    }
    String given = spec.getSchedulerName();
    GangScheduling.decorate(gang, job, meta, spec);
    if (given != null && !given.isEmpty()) {
      spec.setSchedulerName(given);
    }
    if (gang.flavor() == Flavor.VOLCANO) {
      Metadata.annotate(meta, Map.of(VOLCANO_TASK_SPEC, lowerType));
    }
  }
}
