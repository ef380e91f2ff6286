package dev.jobc.dgl;

import static dev.jobc.dgl.DglPodParts.env;
import static dev.jobc.dgl.DglPodParts.mount;
import static dev.jobc.dgl.DglPodParts.orEmpty;

import dev.jobc.conventions.DglNaming;
import dev.jobc.k8s.Metadata;
import dev.jobc.k8s.PodTemplates;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.Volume;
import java.util.ArrayList;
import java.util.List;

/**
 * Pod {@code <job>-partitioner} (DGL-API, ParMETIS), as dgl-operator's {@code
 * buildWorkerOrPartitionerPod} builds it: the Worker template running the launcher's command and
 * args with {@code DGL_OPERATOR_PHASE_ENV=Partitioner}, no ports, {@code /dev/shm}, the config at
 * {@code /etc/dgl}, kubectl at {@code /opt/kube} and its own ServiceAccount. A bare Pod, not a Job:
 * the launcher's sidecar waits for it by name and its partfile line names it.
 */
public final class DglPartitionerGenerator {

  public Pod generate(DglJobPlan plan) {
    String name = DglNaming.partitioner(plan.name());
    PodTemplateSpec template = PodTemplates.copy(plan.job().worker().template());
    PodSpec spec = template.getSpec();
    spec.setRestartPolicy("Never");
    List<Container> inits = DglPodParts.execPod(spec, name, plan);
    // dglrun's phase 2 kubectl-cp's the partitions into the launcher's watcher-loop-partitioner
    // container, and fails with "container not found" when that has not started yet
    // (dgl-operator issue #22): start partitioning only once it runs.
    inits.add(
        DglPodParts.sidecar(
                plan,
                DglNaming.LAUNCHER_WAIT,
                List.of(
                    "wait",
                    "--for",
                    "running",
                    "--pod",
                    plan.launcher().pod(),
                    "--container",
                    DglNaming.PARTITIONER_WATCHER,
                    "--timeout",
                    DglLauncherGenerator.WAIT_TIMEOUT),
                1)
            .build());
    spec.setInitContainers(inits);

    Container launcher = plan.job().launcher().template().getSpec().getContainers().get(0);
    List<Container> containers = new ArrayList<>(spec.getContainers());
    ContainerBuilder main =
        new ContainerBuilder(containers.get(0))
            .withCommand(orEmpty(launcher.getCommand()))
            .withArgs(orEmpty(launcher.getArgs()))
            .withPorts(List.of())
            .addToEnv(env(DglPodParts.KUBE_ENV, "1"), env(DglPodParts.PHASE_ENV, "Partitioner"))
            .addToVolumeMounts(
                mount(DglNaming.SHM_VOLUME, DglNaming.SHM_MOUNT),
                mount(DglNaming.CONFIG_VOLUME, DglNaming.CONFIG_MOUNT),
                mount(DglNaming.KUBECTL_VOLUME, DglNaming.KUBECTL_MOUNT));
    containers.set(0, main.build());
    spec.setContainers(containers);

    List<Volume> volumes = orEmpty(spec.getVolumes());
    volumes.add(DglPodParts.shm(plan));
    volumes.add(DglPodParts.fullConfig(plan));
    volumes.add(DglPodParts.emptyDir(DglNaming.KUBECTL_VOLUME));
    spec.setVolumes(volumes);

    ObjectMeta meta =
        DglPodParts.podMeta(
            template,
            name,
            plan.namespace(),
            DglLabels.podLabels(plan.name(), DglJob.PARTITIONER, name),
            DglLabels.podAnnotations(DglJob.PARTITIONER));
    Metadata.annotate(meta, Metadata.objectAnnotations(plan.job().options()));
    return new PodBuilder().withMetadata(meta).withSpec(spec).build();
  }
}
