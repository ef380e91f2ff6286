package dev.jobc.generate;

import dev.jobc.api.MpiEra;
import dev.jobc.plan.MpiJobPlan;
import dev.jobc.plan.MpiLabels;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import java.util.ArrayList;
import java.util.List;

/**
 * The worker pod template, shared by the StatefulSet and the bare-Pod forms: the user's template
 * (GPU limits included) with jobc's labels, DNS search path, transport wiring, and a default
 * command only when the main container has neither command nor args ({@code sleep 365d} for kubexec
 * as mpi-operator v1; {@code /usr/sbin/sshd -De} for ssh as v2beta1).
 */
final class WorkerTemplates {
  private WorkerTemplates() {}

  static PodTemplateSpec build(MpiJobPlan plan, String restartPolicy) {
    PodTemplateSpec template = PodTemplates.copy(plan.job().worker().template());
    var labels =
        Metadata.merge(
            template.getMetadata() == null ? null : template.getMetadata().getLabels(),
            MpiLabels.podLabels(plan.era(), plan.name(), MpiLabels.WORKER));
    labels.putAll(plan.kueueLabels());
    PodSpec spec = template.getSpec();
    spec.setRestartPolicy(restartPolicy);
    PodTemplates.dnsForHostNetwork(spec);
    PodTemplates.appendSearch(plan, spec);

    List<Container> containers = new ArrayList<>(spec.getContainers());
    Container original = containers.get(0);
    ContainerBuilder main = new ContainerBuilder(original);
    if (isEmpty(original.getCommand()) && isEmpty(original.getArgs())) {
      if (plan.ssh()) {
        main.withCommand("/usr/sbin/sshd").withArgs("-De");
      } else {
        main.withCommand("sleep").withArgs("365d");
      }
    }
    if (plan.era() == MpiEra.V2BETA1 || plan.ssh()) {
      // mpi-operator v2beta1 tells the images' entrypoint which role it runs.
      main.addToEnv(new EnvVar("K_MPI_JOB_ROLE", MpiLabels.WORKER, null));
    }
    var volumes = new ArrayList<>(spec.getVolumes() == null ? List.of() : spec.getVolumes());
    if (plan.ssh()) {
      main.addToVolumeMounts(PodTemplates.sshMount(plan));
      volumes.add(PodTemplates.sshVolume(plan));
    } else {
      // Open MPI checks the rsh agent's path on every rank (mpi-operator v1).
      main.addToVolumeMounts(PodTemplates.configMount());
      volumes.add(
          PodTemplates.configVolume(
              plan, MpiConfigMapGenerator.KUBEXEC, PodTemplates.MODE_EXECUTABLE));
    }
    containers.set(0, main.build());
    spec.setContainers(containers);
    spec.setVolumes(volumes);
    if (template.getMetadata() == null) {
      template.setMetadata(new io.fabric8.kubernetes.api.model.ObjectMeta());
    }
    template.getMetadata().setLabels(labels);
    return template;
  }

  private static boolean isEmpty(List<String> list) {
    return list == null || list.isEmpty();
  }
}
