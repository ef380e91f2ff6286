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
import dev.jobc.options.CompileOptions;
import dev.jobc.options.WorkerKind;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.PodBuilder;
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
        Metadata.annotate(template.getMetadata(), Metadata.objectAnnotations(plan.job().options()));
        pods.add(new PodBuilder().withMetadata(template.getMetadata()).withSpec(spec).build());
      }
      return pods;
    }
    PodTemplateSpec template = template(plan, null);
    template.getMetadata().setName(null);
    template.getMetadata().setNamespace(null);
    // StatefulSets accept only restartPolicy Always; the controller recreates a lost worker.
    template.getSpec().setRestartPolicy("Always");
    return List.of(
        new StatefulSetBuilder()
            .withMetadata(setMeta(plan))
            .withNewSpec()
            .withReplicas(plan.workers())
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
   * of the other files. No brace expansions: Flux substitution would rewrite them.
   */
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
          "    if [ $tries -gt 600 ]; then echo \"jobc: $name does not resolve\" >&2; exit 1; fi",
          "    sleep 1",
          "  done",
          "  set -- $addr",
          "  echo \"$1 $port $pod $slots\" >> hostfile.tmp",
          "done < $src/hostfile",
          "mv hostfile.tmp hostfile",
          "");

  private static Container resolveHosts(String image) {
    Container c = new Container();
    c.setName(DglNaming.RESOLVE_HOSTS);
    c.setImage(image);
    c.setCommand(List.of("sh", "-c", RESOLVE_SCRIPT));
    VolumeMount source = mount(DglNaming.CONFIG_VOLUME, DglNaming.CONFIG_SOURCE_MOUNT);
    source.setReadOnly(true);
    c.setVolumeMounts(List.of(source, mount(DglNaming.IPCONFIG_VOLUME, DglNaming.CONFIG_MOUNT)));
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

  /**
   * The StatefulSet's metadata; the launcher's sidecar scales it to 0 at the end (cleanPodPolicy),
   * so Flux must not apply spec.replicas again: with {@code IfNotPresent} it creates the object
   * when missing and leaves it alone otherwise.
   */
  private static ObjectMeta setMeta(DglJobPlan plan) {
    ObjectMeta meta =
        Metadata.of(
            Naming.workerSet(plan.name()),
            plan.namespace(),
            MpiLabels.objectLabels(plan.name()),
            Metadata.objectAnnotations(plan.job().options()));
    if (DglLauncherGenerator.releasesWorkers(plan)) {
      Metadata.annotate(meta, Map.of(CompileOptions.FLUX_SSA_ANNOTATION, "IfNotPresent"));
    }
    return meta;
  }
}
