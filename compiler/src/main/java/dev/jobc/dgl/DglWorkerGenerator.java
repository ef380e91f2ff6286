package dev.jobc.dgl;

import static dev.jobc.dgl.DglPodParts.env;
import static dev.jobc.dgl.DglPodParts.isEmpty;
import static dev.jobc.dgl.DglPodParts.mount;
import static dev.jobc.dgl.DglPodParts.orEmpty;

import dev.jobc.conventions.DglNaming;
import dev.jobc.conventions.MpiLabels;
import dev.jobc.conventions.Naming;
import dev.jobc.k8s.Metadata;
import dev.jobc.k8s.PodTemplates;
import dev.jobc.k8s.RestrictedSecurityContext;
import dev.jobc.options.WorkerKind;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodSchedulingGate;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.apps.StatefulSetBuilder;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The DGL workers: by default a StatefulSet {@code <job>-worker} under the job's headless Service,
 * or with {@code --workers pods} bare Pods {@code <job>-worker-<i>} as dgl-operator creates them.
 * Each pod is dgl-operator's {@code buildWorkerOrPartitionerPod} for a Worker: {@code sleep 365d}
 * when the container has no command (and, unlike upstream, no args either), {@code
 * DGL_OPERATOR_ENV=1}, {@code /dev/shm} and the config at {@code /etc/dgl}, and the operator's 20
 * ports 30050-30069 only when the user declared none (upstream replaces the user's ports).
 */
public final class DglWorkerGenerator {

  public List<HasMetadata> generate(DglJobPlan plan) {
    if (plan.workerKind() == WorkerKind.PODS) {
      List<HasMetadata> pods = new ArrayList<>(plan.workers());
      for (String pod : plan.workerPods()) {
        PodTemplateSpec template = template(plan, pod);
        PodSpec spec = template.getSpec();
        // A bare pod gets its DNS name <pod>.<job>.<ns>.svc from hostname + subdomain.
        spec.setHostname(pod);
        spec.setSubdomain(Naming.service(plan.name()));
        spec.setRestartPolicy("Never");
        if (plan.workersAfterPartitioning()) {
          List<PodSchedulingGate> gates = orEmpty(spec.getSchedulingGates());
          gates.add(new PodSchedulingGate(DglNaming.PARTITIONED_GATE));
          spec.setSchedulingGates(gates);
        }
        Metadata.annotate(template.getMetadata(), Metadata.objectAnnotations(plan.job().options()));
        if (plan.workersAfterPartitioning() || DglLauncherGenerator.releasesWorkers(plan)) {
          // The launcher's sidecars lift the gate after partitioning and end the pod at the end
          // (activeDeadlineSeconds lowered to 1; nothing rendered is deleted): Flux must not
          // apply the pod again, which with IfNotPresent it does only when it is missing (Argo
          // CD: ignoreDifferences, see docs/gitops.md).
          Metadata.annotate(template.getMetadata(), Map.of(Metadata.FLUX_SSA, "IfNotPresent"));
        }
        pods.add(new PodBuilder().withMetadata(template.getMetadata()).withSpec(spec).build());
      }
      return pods;
    }
    PodTemplateSpec template = template(plan, null);
    template.getMetadata().setName(null);
    template.getMetadata().setNamespace(null);
    // StatefulSets accept only restartPolicy Always; the controller recreates a lost worker.
    template.getSpec().setRestartPolicy("Always");
    ObjectMeta meta =
        Metadata.of(
            Naming.workerSet(plan.name()),
            plan.namespace(),
            MpiLabels.objectLabels(plan.name()),
            Metadata.objectAnnotations(plan.job().options()));
    if (plan.workersAfterPartitioning() || DglLauncherGenerator.releasesWorkers(plan)) {
      // The launcher's sidecar scales this StatefulSet up after partitioning, and to 0 when it
      // releases the workers. Flux would apply the rendered replicas again on its next
      // reconciliation; with IfNotPresent it creates the object when missing and leaves it alone
      // otherwise (Argo CD: ignoreDifferences, see docs/gitops.md).
      Metadata.annotate(meta, Map.of(Metadata.FLUX_SSA, "IfNotPresent"));
    }
    return List.of(
        new StatefulSetBuilder()
            .withMetadata(meta)
            .withNewSpec()
            .withReplicas(plan.workersAfterPartitioning() ? 0 : plan.workers())
            .withServiceName(Naming.service(plan.name()))
            .withPodManagementPolicy("Parallel")
            .withNewSelector()
            .withMatchLabels(DglLabels.typeSelector(plan.name(), DglJob.WORKER))
            .endSelector()
            .withTemplate(template)
            .endSpec()
            .build());
  }

  /**
   * dglrun's phase 4 runs {@code revise_hostfile.py --ip_config /etc/dgl/hostfile} on every worker,
   * and the DGL servers bind to the addresses it writes, which must be IPs. The operator rewrote
   * its ConfigMap with pod IPs at run time; jobc's ConfigMap holds stable DNS names, so this init
   * container (the worker's own image: it needs only sh and getent) resolves them once every worker
   * has an address (the Service publishes not-ready addresses, so no worker waits for another to be
   * Ready) and writes the operator's IP-based hostfile into the worker's /etc/dgl, next to copies
   * of the other files. It tries for as long as the launcher waits for the workers (24 hours; a
   * worker that cannot be scheduled keeps the others waiting, as it keeps the launcher waiting). No
   * brace expansions: Flux substitution would rewrite them.
   */
  static final int RESOLVE_INTERVAL_SECONDS = 2;

  /** 24 hours of tries, {@link DglLauncherGenerator#WAIT_TIMEOUT}. */
  static final int RESOLVE_TRIES = 24 * 60 * 60 / RESOLVE_INTERVAL_SECONDS;

  static final String RESOLVE_SCRIPT =
      String.join(
          "\n",
          "set -eu",
          "cd " + DglNaming.CONFIG_MOUNT,
          "src=" + DglNaming.CONFIG_SOURCE_MOUNT,
          "cp $src/kubexec.sh $src/partfile $src/leadfile .",
          ": > hostfile.tmp",
          "while read -r name port pod slots; do",
          "  tries=0",
          "  until addr=$(getent hosts \"$name\") && [ -n \"$addr\" ]; do",
          "    tries=$((tries + 1))",
          "    if [ $tries -gt "
              + RESOLVE_TRIES
              + " ]; then echo \"jobc: $name does not resolve\" >&2; exit 1; fi",
          "    sleep " + RESOLVE_INTERVAL_SECONDS,
          "  done",
          "  set -- $addr",
          "  echo \"$1 $port $pod $slots\" >> hostfile.tmp",
          "done < $src/hostfile",
          "mv hostfile.tmp hostfile",
          "");

  /** A shell loop around getent: a tenth of a CPU and 64 MiB of memory and disk are ample. */
  static final String RESOLVE_CPU = "100m";

  static final String RESOLVE_MEMORY = "64Mi";

  private static Container resolveHosts(String image) {
    Container c = new Container();
    c.setName(DglNaming.RESOLVE_HOSTS);
    c.setImage(image);
    c.setCommand(List.of("sh", "-c", RESOLVE_SCRIPT));
    VolumeMount source = mount(DglNaming.CONFIG_VOLUME, DglNaming.CONFIG_SOURCE_MOUNT);
    source.setReadOnly(true);
    c.setVolumeMounts(List.of(source, mount(DglNaming.IPCONFIG_VOLUME, DglNaming.CONFIG_MOUNT)));
    // Requests equal to limits: a namespace whose ResourceQuota covers cpu, memory or
    // ephemeral-storage rejects a pod with a container that sets none, and a Guaranteed worker
    // stays Guaranteed only when every container, init containers included, is.
    c.setResources(DglPodParts.helperResources(RESOLVE_CPU, RESOLVE_MEMORY, RESOLVE_MEMORY));
    // Non-root even where the worker image runs as root: getent and the copies need no privilege,
    // and dglrun only reads /etc/dgl (revise_hostfile.py writes its result elsewhere).
    c.setSecurityContext(RestrictedSecurityContext.of(true));
    return c;
  }

  /** The worker pod for {@code pod}, or the StatefulSet's template when it is {@code null}. */
  private static PodTemplateSpec template(DglJobPlan plan, String pod) {
    PodTemplateSpec template = PodTemplates.copy(plan.job().worker().template());
    PodSpec spec = template.getSpec();
    PodTemplates.dnsForHostNetwork(spec);

    List<Container> containers = new ArrayList<>(spec.getContainers());
    Container original = containers.get(0);
    ContainerBuilder main = new ContainerBuilder(original);
    if (isEmpty(original.getCommand()) && isEmpty(original.getArgs())) {
      main.withCommand("sleep").withArgs("365d");
    }
    main.addToEnv(env(DglPodParts.KUBE_ENV, "1"));
    if (plan.portBlock()) {
      main.withPorts(DglPodParts.portBlock());
    }
    main.addToVolumeMounts(
        mount(DglNaming.SHM_VOLUME, DglNaming.SHM_MOUNT),
        mount(DglNaming.IPCONFIG_VOLUME, DglNaming.CONFIG_MOUNT));
    containers.set(0, main.build());
    spec.setContainers(containers);
    List<Container> inits = orEmpty(spec.getInitContainers());
    inits.add(resolveHosts(original.getImage()));
    spec.setInitContainers(inits);

    List<io.fabric8.kubernetes.api.model.Volume> volumes = orEmpty(spec.getVolumes());
    volumes.add(DglPodParts.shm(plan));
    volumes.add(DglPodParts.fullConfig(plan));
    volumes.add(DglPodParts.emptyDir(DglNaming.IPCONFIG_VOLUME));
    spec.setVolumes(volumes);

    template.setMetadata(
        DglPodParts.podMeta(
            template,
            pod,
            pod == null ? null : plan.namespace(),
            DglLabels.podLabels(plan.name(), DglJob.WORKER, pod),
            DglLabels.podAnnotations(DglJob.WORKER)));
    return template;
  }
}
