package dev.jobc.sidecar;

import io.fabric8.kubernetes.api.model.ContainerState;
import io.fabric8.kubernetes.api.model.ContainerStateRunning;
import io.fabric8.kubernetes.api.model.ContainerStateTerminated;
import io.fabric8.kubernetes.api.model.ContainerStateWaiting;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.fabric8.kubernetes.client.informers.cache.BasicItemStore;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Pods cut down to what the sidecar reads, so that the watch's store holds a few hundred bytes per
 * pod instead of the API server's whole object (a worker of a realistic template is about 6 KB of
 * JSON with its managed fields, and several times that once parsed: 400 of them filled the 32 MiB
 * heap). Kept: metadata's name, namespace, uid, resource version (the informer compares it),
 * labels, deletion timestamp and owner references of kind Job; {@code spec.restartPolicy} and
 * {@code terminationGracePeriodSeconds}; {@code status}' phase, pod IP, the Ready condition and the
 * container and init container statuses (name, restart count, state with exit code and reasons).
 * Everything {@link Pods}, {@link JobOutcome}, {@link JobEvents} and the {@code tfjob} sidecar read
 * is among them.
 */
final class ReducedPods {
  private ReducedPods() {}

  /** A new pod holding only the fields listed above. */
  static Pod of(Pod full) {
    Pod out = new Pod();
    out.setApiVersion(full.getApiVersion());
    out.setKind(full.getKind());
    ObjectMeta m = full.getMetadata();
    if (m != null) {
      ObjectMeta meta = new ObjectMeta();
      meta.setName(m.getName());
      meta.setNamespace(m.getNamespace());
      meta.setUid(m.getUid());
      meta.setResourceVersion(m.getResourceVersion());
      meta.setDeletionTimestamp(m.getDeletionTimestamp());
      if (m.getLabels() != null) {
        // Keys and most values repeat from pod to pod (job, role, operator): one copy of each.
        Map<String, String> labels = new LinkedHashMap<>();
        m.getLabels().forEach((k, v) -> labels.put(k.intern(), v == null ? null : v.intern()));
        meta.setLabels(labels);
      }
      if (m.getOwnerReferences() != null && !m.getOwnerReferences().isEmpty()) {
        List<OwnerReference> owners = new ArrayList<>(1);
        for (OwnerReference r : m.getOwnerReferences()) {
          if (!"Job".equals(r.getKind())) {
            continue; // a worker's StatefulSet says nothing the sidecar uses
          }
          OwnerReference o = new OwnerReference();
          o.setApiVersion(r.getApiVersion());
          o.setKind(r.getKind());
          o.setName(r.getName());
          o.setUid(r.getUid());
          o.setController(r.getController());
          owners.add(o);
        }
        meta.setOwnerReferences(owners);
      }
      out.setMetadata(meta);
    }
    PodSpec s = full.getSpec();
    if (s != null) {
      PodSpec spec = new PodSpec();
      spec.setRestartPolicy(s.getRestartPolicy());
      spec.setTerminationGracePeriodSeconds(s.getTerminationGracePeriodSeconds());
      out.setSpec(spec);
    }
    PodStatus st = full.getStatus();
    if (st != null) {
      PodStatus status = new PodStatus();
      status.setPhase(st.getPhase() == null ? null : st.getPhase().intern());
      status.setPodIP(st.getPodIP());
      if (st.getConditions() != null) {
        List<PodCondition> conditions = new ArrayList<>(1);
        for (PodCondition c : st.getConditions()) {
          if ("Ready".equals(c.getType())) {
            PodCondition condition = new PodCondition();
            condition.setType("Ready");
            condition.setStatus(c.getStatus() == null ? null : c.getStatus().intern());
            conditions.add(condition);
          }
        }
        status.setConditions(conditions);
      }
      status.setContainerStatuses(statuses(st.getContainerStatuses()));
      status.setInitContainerStatuses(statuses(st.getInitContainerStatuses()));
      out.setStatus(status);
    }
    return out;
  }

  private static List<ContainerStatus> statuses(List<ContainerStatus> all) {
    if (all == null) {
      return null;
    }
    List<ContainerStatus> out = new ArrayList<>(all.size());
    for (ContainerStatus c : all) {
      ContainerStatus s = new ContainerStatus();
      s.setName(c.getName());
      s.setRestartCount(c.getRestartCount());
      s.setReady(c.getReady());
      s.setStarted(c.getStarted());
      s.setState(state(c.getState()));
      out.add(s);
    }
    return out;
  }

  private static ContainerState state(ContainerState in) {
    if (in == null) {
      return null;
    }
    ContainerState out = new ContainerState();
    if (in.getRunning() != null) {
      out.setRunning(new ContainerStateRunning());
    }
    if (in.getTerminated() != null) {
      ContainerStateTerminated t = new ContainerStateTerminated();
      t.setExitCode(in.getTerminated().getExitCode());
      t.setReason(in.getTerminated().getReason());
      out.setTerminated(t);
    }
    if (in.getWaiting() != null) {
      ContainerStateWaiting w = new ContainerStateWaiting();
      w.setReason(in.getWaiting().getReason());
      out.setWaiting(w);
    }
    return out;
  }

  /** The informer's store: keeps each pod reduced, keyed as fabric8's default store keys it. */
  static final class Store extends BasicItemStore<Pod> {
    Store() {
      super(Cache::metaNamespaceKeyFunc);
    }

    @Override
    public Pod put(String key, Pod pod) {
      return super.put(key, of(pod));
    }
  }

  /** The pods of {@code pods} by name, each reduced (a list read outside the watch). */
  static Map<String, Pod> byName(List<Pod> pods) {
    Map<String, Pod> out = new LinkedHashMap<>();
    for (Pod p : pods) {
      out.put(p.getMetadata().getName(), of(p));
    }
    return out;
  }
}
