package dev.jobc.mpi;

import dev.jobc.conventions.MpiEra;
import dev.jobc.conventions.MpiImplementation.Env;
import dev.jobc.conventions.MpiLabels;
import dev.jobc.conventions.Naming;
import dev.jobc.k8s.GangScheduling;
import dev.jobc.k8s.Metadata;
import dev.jobc.k8s.PodTemplates;
import dev.jobc.k8s.SidecarContainer;
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
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobSpec;
import java.util.ArrayList;
import java.util.List;

/**
 * Launcher Job {@code <job>-launcher}: the user's launcher template with host name and subdomain
 * under the job's Service, the MPI environment of the chosen implementation and transport (after
 * the user's, as upstream orders it), and the config volume. With kubexec it also runs as the
 * launcher ServiceAccount and gets an init container that copies kubectl for {@code kubexec.sh}
 * (mpi-operator's kubectl-delivery); with ssh it mounts the keys instead. Either way the {@code
 * jobc-sidecar} native sidecar gates the main container until the workers are Ready (what
 * mpi-operator v1's kubectl-delivery and v2beta1's {@code WaitForWorkersReady} did), keeps {@code
 * /etc/mpi/discover_hosts.sh} live and applies {@code cleanPodPolicy} at the end; it runs as the
 * launcher ServiceAccount. {@code runPolicy} maps onto the Job as in mpi-operator v2beta1.
 */
public final class LauncherJobGenerator {

  public Job generate(MpiJobPlan plan) {
    var replica = plan.job().launcher();
    // A copy: generators never change the plan.
    PodTemplateSpec template = plan.launcherTemplate().copy();
    if (template.getMetadata() == null) {
      template.setMetadata(new ObjectMeta());
    }
    var labels =
        Metadata.merge(
            template.getMetadata().getLabels(),
            MpiLabels.podLabels(plan.era(), plan.name(), MpiLabels.LAUNCHER));
    if (plan.job().runLauncherAsWorker()) {
      // mpi-operator v2beta1: with runLauncherAsWorker the launcher is replica index 0.
      labels.put(MpiLabels.REPLICA_INDEX, "0");
    }
    labels.putAll(plan.kueueLabels());
    PodSpec spec = template.getSpec();
    spec.setHostname(Naming.launcher(plan.name()));
    spec.setSubdomain(Naming.service(plan.name()));
    spec.setRestartPolicy(replica.restartPolicy());
    PodTemplates.dnsForHostNetwork(spec);
    if (plan.era().podNameHosts()) {
      // The hostfile names pods; the search path lets the launcher resolve them.
      PodTemplates.appendSearch(
          spec,
          Naming.service(plan.name()),
          plan.namespace(),
          plan.options().get(OptionTable.CLUSTER_DOMAIN));
    }

    Container main = spec.getContainers().get(0);
    List<EnvVar> env = new ArrayList<>(main.getEnv() == null ? List.of() : main.getEnv());
    for (Env e : plan.launcherEnv()) {
      env.add(new EnvVar(e.name(), e.value(), null));
    }
    main.setEnv(env);
    var volumes = new ArrayList<>(spec.getVolumes() == null ? List.of() : spec.getVolumes());
    // kubexec.sh runs kubectl as this account, and the jobc-sidecar watches pods with it.
    spec.setServiceAccountName(plan.launcherAccount());
    if (plan.ssh()) {
      main.setVolumeMounts(
          PodTemplates.append(
              main.getVolumeMounts(),
              PodTemplates.sshMount(plan.job().sshAuthMountPath()),
              runtimeMount()));
      volumes.add(
          PodTemplates.sshVolume(
              plan.options().get(OptionTable.SSH_SECRET), plan.job().sshAuthMountPath()));
      volumes.add(
          PodTemplates.configVolume(
              Naming.configMap(plan.name()),
              MpiConfigMapGenerator.HOSTFILE,
              PodTemplates.MODE_READ_ONLY,
              MpiConfigMapGenerator.DISCOVER_HOSTS,
              PodTemplates.MODE_EXECUTABLE));
    } else {
      main.setVolumeMounts(
          PodTemplates.append(main.getVolumeMounts(), kubectlMount(), runtimeMount()));
      var inits =
          new ArrayList<>(spec.getInitContainers() == null ? List.of() : spec.getInitContainers());
      inits.add(
          PodTemplates.kubectlCopy(
              Naming.KUBECTL_DELIVERY,
              plan.options().get(OptionTable.KUBECTL_IMAGE),
              Naming.KUBECTL_VOLUME,
              Naming.KUBECTL_MOUNT));
      spec.setInitContainers(inits);
      Volume kubectl = new Volume();
      kubectl.setName(Naming.KUBECTL_VOLUME);
      kubectl.setEmptyDir(new EmptyDirVolumeSource());
      volumes.add(kubectl);
      volumes.add(
          PodTemplates.configVolume(
              Naming.configMap(plan.name()),
              MpiConfigMapGenerator.KUBEXEC,
              PodTemplates.MODE_EXECUTABLE,
              MpiConfigMapGenerator.HOSTFILE,
              PodTemplates.MODE_READ_ONLY,
              MpiConfigMapGenerator.DISCOVER_HOSTS,
              PodTemplates.MODE_EXECUTABLE));
    }
    // First of all init containers: kubelet starts the next one, and the main container, only
    // once the sidecar's startup probe reports the workers Ready. Running from the pod's start,
    // it sees every end of the pod, also one that comes while an init container after it (the
    // user's, kubectl-delivery) is stuck.
    var inits =
        new ArrayList<>(spec.getInitContainers() == null ? List.of() : spec.getInitContainers());
    inits.add(0, SidecarContainers.mpiRun(plan, main.getName()));
    spec.setInitContainers(inits);
    volumes.add(memoryVolume(Naming.RUNTIME_VOLUME, "4Mi"));
    volumes.add(memoryVolume(Naming.SIDECAR_TMP_VOLUME, "1Mi"));
    if (plan.sidecarToken()) {
      volumes.add(SidecarContainer.tokenVolume());
    }
    spec.setVolumes(volumes);
    template.getMetadata().setLabels(labels);
    GangScheduling.decorate(plan.gang(), plan.name(), template);

    var job = plan.job();
    Integer backoffLimit = job.backoffLimit();
    if (backoffLimit == null && plan.era() == MpiEra.V1) {
      // mpi-operator v1 ran the launcher as a bare Pod: one attempt, never retried.
      backoffLimit = 0;
    }
    var jobLabels = MpiLabels.objectLabels(plan.name());
    jobLabels.putAll(plan.kueueLabels());
    JobSpec jobSpec = new JobSpec();
    jobSpec.setBackoffLimit(backoffLimit);
    jobSpec.setActiveDeadlineSeconds(job.activeDeadlineSeconds());
    jobSpec.setTtlSecondsAfterFinished(job.ttlSecondsAfterFinished());
    jobSpec.setSuspend(job.suspend() ? Boolean.TRUE : null);
    // Replace a failed launcher pod only once it has fully terminated (mpi-operator v2beta1,
    // kubernetes/kubernetes#115844).
    jobSpec.setPodReplacementPolicy("Failed");
    jobSpec.setTemplate(template);
    Job launcher = new Job();
    launcher.setMetadata(
        Metadata.of(
            Naming.launcher(plan.name()),
            plan.namespace(),
            jobLabels,
            Metadata.objectAnnotations(plan.options())));
    launcher.setSpec(jobSpec);
    return launcher;
  }

  /**
   * The launcher sees the sidecar's copies at {@code /etc/mpi}, read-only: the ConfigMap volume
   * cannot hold a file that changes at run time (see {@link Naming#RUNTIME_VOLUME}).
   */
  private static VolumeMount runtimeMount() {
    VolumeMount mount = PodTemplates.mount(Naming.RUNTIME_VOLUME, Naming.CONFIG_MOUNT);
    mount.setReadOnly(true);
    return mount;
  }

  /** A small memory-backed emptyDir (the files are a few KiB; a ConfigMap holds at most 1 MiB). */
  private static Volume memoryVolume(String name, String size) {
    Volume volume = new Volume();
    volume.setName(name);
    volume.setEmptyDir(new EmptyDirVolumeSource("Memory", new Quantity(size)));
    return volume;
  }

  private static VolumeMount kubectlMount() {
    return PodTemplates.mount(Naming.KUBECTL_VOLUME, Naming.KUBECTL_MOUNT);
  }
}
