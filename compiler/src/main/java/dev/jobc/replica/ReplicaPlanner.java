package dev.jobc.replica;

import dev.jobc.bind.ObjectTrees;
import dev.jobc.bind.ObjectTrees.Snapshot;
import dev.jobc.conventions.MpiLabels;
import dev.jobc.conventions.ReplicaLabels;
import dev.jobc.k8s.PodTemplates;
import dev.jobc.options.OptionTable;
import dev.jobc.options.WorkerKind;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.ServicePort;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What the plan of every kind of the family decides alike, once the kind has planned its replicas:
 * each type's template and Service ports, what carries each pod, the account the sidecar runs as,
 * Kueue and gang scheduling.
 */
public final class ReplicaPlanner {
  /** Suffix of the ServiceAccount jobc creates for the sidecar when the user names none. */
  public static final String SIDECAR_ACCOUNT_SUFFIX = "-sidecar";

  private ReplicaPlanner() {}

  /**
   * The plan of {@code job}, a valid job, with the replicas its kind planned.
   *
   * @param replicas every replica in type order and by index, at least one deciding
   * @param anyDecides see {@link ReplicaPlan#anyDecides()}
   */
  public static ReplicaPlan plan(ReplicaJob job, List<ReplicaPod> replicas, boolean anyDecides) {
    Map<String, Snapshot<PodTemplateSpec>> templates = new LinkedHashMap<>();
    Map<String, List<ServicePort>> ports = new LinkedHashMap<>();
    for (ReplicaJob.Replica r : job.each()) {
      templates.put(r.type(), ObjectTrees.snapshot(r.spec().template(), PodTemplateSpec.class));
      ports.put(r.type(), servicePorts(job.framework().container(), r.spec().template()));
    }
    ReplicaPod decider = replicas.stream().filter(ReplicaPod::decides).findFirst().orElseThrow();
    // The account the deciding replicas' template names (the deprecated serviceAccount too) is
    // kept (image pull secrets, cloud identity) and the sidecar's Role bound to it.
    String account =
        PodTemplates.namedAccount(job.replica(decider.type()).spec().template().getSpec());
    boolean create = account == null;
    Map<String, String> kueue = MpiLabels.kueueLabels(job.metadata().getLabels());
    // In the JobSet target Kueue admits the JobSet as one Workload, and Jobs carry the replicas.
    boolean jobSet = ReplicaJobSets.chosen(job.options());
    boolean queued = !jobSet && kueue.containsKey(ReplicaKueue.QUEUE_NAME);
    // Kueue admits a Job per replica as a Workload each, or, unlabelled, ignores their pods: one
    // pod group of bare Pods is the one Workload the plain target can make (see ReplicaKueue).
    boolean pods = !jobSet && (queued || job.options().get(OptionTable.WORKERS) == WorkerKind.PODS);
    return new ReplicaPlan(
        job,
        job.name(),
        job.namespace(),
        job.options(),
        replicas,
        templates,
        ports,
        pods,
        create ? job.name() + SIDECAR_ACCOUNT_SUFFIX : account,
        create,
        kueue,
        queued,
        ReplicaGangPlanner.plan(job, replicas).orElse(null),
        anyDecides);
  }

  /** {@code <job>-<lower type>-<index>}. */
  public static String name(ReplicaJob job, String type, int index) {
    return ReplicaLabels.replica(job.name(), Framework.lower(type), index);
  }

  /**
   * {@code getPortFrom<Kind>Job}: the port named as the kind's default on a container of the kind's
   * name in {@code type}'s template; defaulting has put one there, else the kind's default port
   * (PaddleJob's lookup falls back to it; the others' cannot miss).
   */
  public static int port(ReplicaJob job, String type) {
    Framework fw = job.framework();
    for (Container c : job.replica(type).spec().template().getSpec().getContainers()) {
      if (fw.container().equals(c.getName()) && c.getPorts() != null) {
        for (ContainerPort p : c.getPorts()) {
          if (fw.portName().equals(p.getName()) && p.getContainerPort() != null) {
            return p.getContainerPort();
          }
        }
      }
    }
    return fw.port();
  }

  /**
   * {@code core.GetPortsFromJob}: the first container named {@code container} (the kind's), its
   * ports as a name → port map, which makes the order of the Service's ports random upstream; jobc
   * sorts them by name. TFJob's planner takes its Services' ports here too.
   */
  public static List<ServicePort> servicePorts(String container, PodTemplateSpec template) {
    Map<String, Integer> byName = new TreeMap<>();
    if (template != null && template.getSpec() != null) {
      for (Container c : template.getSpec().getContainers()) {
        if (container.equals(c.getName())) {
          if (c.getPorts() != null) {
            for (ContainerPort p : c.getPorts()) {
              byName.put(p.getName() == null ? "" : p.getName(), p.getContainerPort());
            }
          }
          break;
        }
      }
    }
    List<ServicePort> out = new ArrayList<>(byName.size());
    byName.forEach(
        (portName, port) -> {
          ServicePort sp = new ServicePort();
          if (!portName.isEmpty()) {
            sp.setName(portName);
          }
          sp.setPort(port);
          out.add(sp);
        });
    return out;
  }
}
