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
    var job = plan.job();
    var jobLabels = MpiLabels.objectLabels(plan.name());
    jobLabels.putAll(plan.kueueLabels());
    JobSpec jobSpec = jobSpec(plan);
    jobSpec.setTtlSecondsAfterFinished(job.ttlSecondsAfterFinished());
    jobSpec.setSuspend(job.suspend() ? Boolean.TRUE : null);
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
   * The launcher Job's spec, alike in both targets: the pod template, {@code backoffLimit} and
   * {@code activeDeadlineSeconds} from {@code runPolicy} (mpi-operator v2beta1 {@code
   * newLauncherJob}); in the JobSet target suspension and time to live are the JobSet's.
   */
  JobSpec jobSpec(MpiJobPlan plan) {
    var job = plan.job();
    Integer backoffLimit = job.backoffLimit();
    if (backoffLimit == null && plan.era() == MpiEra.V1) {
      // mpi-operator v1 ran the launcher as a bare Pod: one attempt, never retried.
      backoffLimit = 0;
    }
    JobSpec jobSpec = new JobSpec();
    jobSpec.setBackoffLimit(backoffLimit);
    jobSpec.setActiveDeadlineSeconds(job.activeDeadlineSeconds());
    // Replace a failed launcher pod only once it has fully terminated (mpi-operator v2beta1,
    // kubernetes/kubernetes#115844).
    jobSpec.setPodReplacementPolicy("Failed");
    jobSpec.setTemplate(template(plan));
    return jobSpec;
  }

  private static PodTemplateSpec template(MpiJobPlan plan) {
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
    if (!plan.jobSet()) {
      // In the JobSet target the Job controller names the host and the JobSet sets the subdomain.
      spec.setHostname(Naming.launcher(plan.name()));
      spec.setSubdomain(Naming.service(plan.name()));
    }
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
    if (plan.launcherRbac()) {
      spec.setServiceAccountName(plan.launcherAccount());
    }
    if (plan.ssh()) {
      main.setVolumeMounts(
          PodTemplates.append(
              main.getVolumeMounts(),
              PodTemplates.sshMount(plan.job().sshAuthMountPath()),
              etcMpi(plan)));
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
          PodTemplates.append(main.getVolumeMounts(), kubectlMount(), etcMpi(plan)));
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
    if (plan.launcherSidecar()) {
      var inits =
          new ArrayList<>(spec.getInitContainers() == null ? List.of() : spec.getInitContainers());
      inits.add(
          0,
          plan.jobSet()
              ? SidecarContainers.jobSetHosts(plan)
              : SidecarContainers.mpiRun(plan, main.getName()));
      spec.setInitContainers(inits);
      volumes.add(memoryVolume(Naming.RUNTIME_VOLUME, "4Mi"));
      volumes.add(memoryVolume(Naming.SIDECAR_TMP_VOLUME, "1Mi"));
      if (plan.sidecarToken()) {
        volumes.add(SidecarContainer.tokenVolume());
      }
    }
    spec.setVolumes(volumes);
    template.getMetadata().setLabels(labels);
    GangScheduling.decorate(plan.gang(), plan.name(), template);
    return template;
  }

  /**
   * What the launcher sees at {@code /etc/mpi}, read-only: the sidecar's copies when it runs one,
   * since the ConfigMap volume cannot hold a file that changes at run time (see {@link
   * Naming#RUNTIME_VOLUME}); else the ConfigMap itself.
   */
  private static VolumeMount etcMpi(MpiJobPlan plan) {
    VolumeMount mount =
        PodTemplates.mount(
            plan.launcherSidecar() ? Naming.RUNTIME_VOLUME : Naming.CONFIG_VOLUME,
            Naming.CONFIG_MOUNT);
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
