package dev.jobc.mpi;

import dev.jobc.conventions.MpiEra;
import dev.jobc.conventions.MpiLabels;
import dev.jobc.conventions.Naming;
import dev.jobc.k8s.GangScheduling;
import dev.jobc.k8s.Metadata;
import dev.jobc.k8s.PodTemplates;
import dev.jobc.options.OptionTable;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import java.util.List;

/**
 * The worker pod template, shared by the StatefulSet and the bare-Pod forms: the user's template
 * (GPU limits included) with jobc's labels, DNS search path, transport wiring, and a default
 * command only when the main container has neither command nor args ({@code sleep 365d} for kubexec
 * as mpi-operator v1; {@code /usr/sbin/sshd -De} for ssh as v2beta1).
 */
final class WorkerTemplates {
  private WorkerTemplates() {}

  /** The worker template, built on a copy of the plan's: generators never change the plan. */
  static PodTemplateSpec build(MpiJobPlan plan, String restartPolicy) {
    PodTemplateSpec template = plan.workerTemplate().copy();
    if (template.getMetadata() == null) {
      template.setMetadata(new ObjectMeta());
    }
    var labels =
        Metadata.merge(
            template.getMetadata().getLabels(),
            MpiLabels.podLabels(plan.era(), plan.name(), MpiLabels.WORKER));
    labels.putAll(plan.kueueLabels());
    template.getMetadata().setLabels(labels);
    PodSpec spec = template.getSpec();
    spec.setRestartPolicy(restartPolicy);
    PodTemplates.dnsForHostNetwork(spec);
    PodTemplates.appendSearch(
        spec,
        Naming.service(plan.name()),
        plan.namespace(),
        plan.options().get(OptionTable.CLUSTER_DOMAIN));

    Container main = spec.getContainers().get(0);
    if (isEmpty(main.getCommand()) && isEmpty(main.getArgs())) {
      if (plan.ssh()) {
        main.setCommand(List.of("/usr/sbin/sshd"));
        main.setArgs(List.of("-De"));
      } else {
        main.setCommand(List.of("sleep"));
        main.setArgs(List.of("365d"));
      }
    }
    if (plan.era() == MpiEra.V2BETA1 || plan.ssh()) {
      // mpi-operator v2beta1 tells the images' entrypoint which role it runs.
      main.setEnv(
          PodTemplates.append(main.getEnv(), new EnvVar("K_MPI_JOB_ROLE", MpiLabels.WORKER, null)));
    }
    if (plan.ssh()) {
      main.setVolumeMounts(
          PodTemplates.append(
              main.getVolumeMounts(), PodTemplates.sshMount(plan.job().sshAuthMountPath())));
      spec.setVolumes(
          PodTemplates.append(
              spec.getVolumes(),
              PodTemplates.sshVolume(
                  plan.options().get(OptionTable.SSH_SECRET), plan.job().sshAuthMountPath())));
    } else {
      // Open MPI checks the rsh agent's path on every rank (mpi-operator v1).
      main.setVolumeMounts(PodTemplates.append(main.getVolumeMounts(), PodTemplates.configMount()));
      spec.setVolumes(
          PodTemplates.append(
              spec.getVolumes(),
              PodTemplates.configVolume(
                  Naming.configMap(plan.name()),
                  MpiConfigMapGenerator.KUBEXEC,
                  PodTemplates.MODE_EXECUTABLE)));
    }
    GangScheduling.decorate(plan.gang(), plan.name(), template);
    return template;
  }

  private static boolean isEmpty(List<String> list) {
    return list == null || list.isEmpty();
  }
}
