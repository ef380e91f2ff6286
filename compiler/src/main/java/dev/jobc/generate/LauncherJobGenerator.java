package dev.jobc.generate;

import dev.jobc.api.MpiEra;
import dev.jobc.plan.MpiImplementation.Env;
import dev.jobc.plan.MpiJobPlan;
import dev.jobc.plan.MpiLabels;
import dev.jobc.plan.Naming;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.VolumeMountBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import java.util.ArrayList;
import java.util.List;

/**
 * Launcher Job {@code <job>-launcher}: the user's launcher template with host name and subdomain
 * under the job's Service, the launcher ServiceAccount, the MPI environment of the chosen
 * implementation (after the user's, as upstream orders it), the config and kubectl volumes, and an
 * init container that copies kubectl for {@code kubexec.sh} (mpi-operator's kubectl-delivery).
 * {@code runPolicy} maps onto the Job as in mpi-operator v2beta1.
 */
public final class LauncherJobGenerator {

  public Job generate(MpiJobPlan plan) {
    var replica = plan.job().launcher();
    PodTemplateSpec template = PodTemplates.copy(replica.template());
    var labels =
        Metadata.merge(
            template.getMetadata() == null ? null : template.getMetadata().getLabels(),
            MpiLabels.podLabels(plan.era(), plan.name(), MpiLabels.LAUNCHER));
    PodSpec spec = template.getSpec();
    spec.setHostname(Naming.launcher(plan.name()));
    spec.setSubdomain(Naming.service(plan.name()));
    spec.setServiceAccountName(Naming.launcher(plan.name()));
    spec.setRestartPolicy(replica.restartPolicy());
    PodTemplates.dnsForHostNetwork(spec);

    List<Container> containers = new ArrayList<>(spec.getContainers());
    ContainerBuilder main = new ContainerBuilder(containers.get(0));
    for (Env e : plan.launcherEnv()) {
      main.addToEnv(new EnvVar(e.name(), e.value(), null));
    }
    main.addToVolumeMounts(kubectlMount(), configMount());
    containers.set(0, main.build());
    spec.setContainers(containers);

    var inits =
        new ArrayList<>(spec.getInitContainers() == null ? List.of() : spec.getInitContainers());
    inits.add(
        PodTemplates.kubectlCopy(
            Naming.KUBECTL_DELIVERY,
            plan.kubectlImage(),
            Naming.KUBECTL_VOLUME,
            Naming.KUBECTL_MOUNT));
    spec.setInitContainers(inits);

    var volumes = new ArrayList<>(spec.getVolumes() == null ? List.of() : spec.getVolumes());
    volumes.add(
        new VolumeBuilder()
            .withName(Naming.KUBECTL_VOLUME)
            .withNewEmptyDir()
            .endEmptyDir()
            .build());
    volumes.add(
        PodTemplates.configVolume(
            plan,
            MpiConfigMapGenerator.KUBEXEC,
            PodTemplates.MODE_EXECUTABLE,
            MpiConfigMapGenerator.HOSTFILE,
            PodTemplates.MODE_READ_ONLY,
            MpiConfigMapGenerator.DISCOVER_HOSTS,
            PodTemplates.MODE_EXECUTABLE));
    spec.setVolumes(volumes);

    var job = plan.job();
    Integer backoffLimit = job.backoffLimit();
    if (backoffLimit == null && plan.era() == MpiEra.V1) {
      // mpi-operator v1 ran the launcher as a bare Pod: one attempt, never retried.
      backoffLimit = 0;
    }
    return new JobBuilder()
        .withMetadata(
            Metadata.of(
                Naming.launcher(plan.name()),
                plan.namespace(),
                MpiLabels.objectLabels(plan.name())))
        .withNewSpec()
        .withBackoffLimit(backoffLimit)
        .withActiveDeadlineSeconds(job.activeDeadlineSeconds())
        .withTtlSecondsAfterFinished(job.ttlSecondsAfterFinished())
        .withSuspend(job.suspend() ? Boolean.TRUE : null)
        // Replace a failed launcher pod only once it has fully terminated (mpi-operator v2beta1,
        // kubernetes/kubernetes#115844).
        .withPodReplacementPolicy("Failed")
        .withNewTemplateLike(template)
        .editOrNewMetadata()
        .withLabels(labels)
        .endMetadata()
        .withSpec(spec)
        .endTemplate()
        .endSpec()
        .build();
  }

  private static VolumeMount kubectlMount() {
    return new VolumeMountBuilder()
        .withName(Naming.KUBECTL_VOLUME)
        .withMountPath(Naming.KUBECTL_MOUNT)
        .build();
  }

  private static VolumeMount configMount() {
    return new VolumeMountBuilder()
        .withName(Naming.CONFIG_VOLUME)
        .withMountPath(Naming.CONFIG_MOUNT)
        .build();
  }
}
