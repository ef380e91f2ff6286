package dev.jobc.generate;

import dev.jobc.api.MpiEra;
import dev.jobc.plan.MpiJobPlan;
import dev.jobc.plan.MpiLabels;
import dev.jobc.plan.Naming;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.VolumeMountBuilder;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.apps.StatefulSetBuilder;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Worker StatefulSet {@code <job>-worker}: pods {@code <job>-worker-<i>} under the job's headless
 * Service, started in parallel, the user's template kept (GPU limits included). As in mpi-operator
 * v1/v1alpha2, the main container gets {@code sleep 365d} only when it has neither command nor
 * args, and {@code kubexec.sh} is mounted because Open MPI checks the agent's path on every rank.
 */
public final class WorkerStatefulSetGenerator {
  /** Flux kustomize-controller's per-object server-side apply policy. */
  public static final String FLUX_SSA = "kustomize.toolkit.fluxcd.io/ssa";

  public StatefulSet generate(MpiJobPlan plan) {
    PodTemplateSpec template = PodTemplates.copy(plan.job().worker().template());
    var labels =
        Metadata.merge(
            template.getMetadata() == null ? null : template.getMetadata().getLabels(),
            MpiLabels.podLabels(plan.era(), plan.name(), MpiLabels.WORKER));
    PodSpec spec = template.getSpec();
    // StatefulSets only accept restartPolicy Always; MPIJob's Never/OnFailure do not apply.
    spec.setRestartPolicy("Always");
    PodTemplates.dnsForHostNetwork(spec);
    if (plan.era() == MpiEra.V2BETA1) {
      PodTemplates.appendSearch(plan, spec);
    }

    List<Container> containers = new ArrayList<>(spec.getContainers());
    ContainerBuilder main = new ContainerBuilder(containers.get(0));
    Container original = containers.get(0);
    if (isEmpty(original.getCommand()) && isEmpty(original.getArgs())) {
      main.withCommand("sleep").withArgs("365d");
    }
    if (plan.era() == MpiEra.V2BETA1) {
      // mpi-operator v2beta1 tells the images' entrypoint which role it runs.
      main.addToEnv(new EnvVar("K_MPI_JOB_ROLE", MpiLabels.WORKER, null));
    }
    main.addToVolumeMounts(
        new VolumeMountBuilder()
            .withName(Naming.CONFIG_VOLUME)
            .withMountPath(Naming.CONFIG_MOUNT)
            .build());
    containers.set(0, main.build());
    spec.setContainers(containers);

    var volumes = new ArrayList<>(spec.getVolumes() == null ? List.of() : spec.getVolumes());
    volumes.add(
        PodTemplates.configVolume(
            plan, MpiConfigMapGenerator.KUBEXEC, PodTemplates.MODE_EXECUTABLE));
    spec.setVolumes(volumes);

    var meta =
        Metadata.of(
            Naming.workerSet(plan.name()), plan.namespace(), MpiLabels.objectLabels(plan.name()));
    if (!"None".equals(SidecarContainers.cleanPodPolicy(plan))) {
      // The sidecar scales this StatefulSet to 0 when the launcher ends. Flux would apply
      // spec.replicas again on its next reconciliation and start the workers anew; with
      // IfNotPresent it creates the object when missing and leaves it alone otherwise.
      // (Argo CD needs ignoreDifferences on the Application instead: see README.)
      meta.setAnnotations(new java.util.LinkedHashMap<>(Map.of(FLUX_SSA, "IfNotPresent")));
    }
    return new StatefulSetBuilder()
        .withMetadata(meta)
        .withNewSpec()
        .withReplicas(plan.workers())
        .withServiceName(Naming.service(plan.name()))
        .withPodManagementPolicy("Parallel")
        .withNewSelector()
        .withMatchLabels(MpiLabels.roleSelector(plan.era(), plan.name(), MpiLabels.WORKER))
        .endSelector()
        .withNewTemplateLike(template)
        .editOrNewMetadata()
        .withLabels(labels)
        .endMetadata()
        .withSpec(spec)
        .endTemplate()
        .endSpec()
        .build();
  }

  private static boolean isEmpty(List<String> list) {
    return list == null || list.isEmpty();
  }
}
