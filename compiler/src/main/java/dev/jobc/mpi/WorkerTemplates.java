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
import io.fabric8.kubernetes.api.model.Probe;
import java.util.List;

/**
 * The worker pod template, shared by the StatefulSet and the bare-Pod forms: the user's template
 * (GPU limits included) with jobc's labels, DNS search path, transport wiring, and a default
 * command only when the main container has neither command nor args ({@code sleep 365d} for kubexec
 * as mpi-operator v1; {@code /usr/sbin/sshd -De} for ssh as v2beta1).
 *
 * <p>Under kubexec a main container that starts {@code sshd} runs {@code sleep 365d} instead:
 * mpi-operator v0.8.2's own {@code examples/v2beta1/pi/pi-intel.yaml} and {@code pi-mpich.yaml}
 * start {@code /usr/sbin/sshd} through {@code args}, and without the key Secret the operator
 * generates (jobc never does) sshd exits ("no hostkeys available") and the worker crash-loops.
 * Probes of that container on a port (their readiness probe on sshd's 2222) are dropped with it:
 * nothing listens there any more, so they could never pass and the launcher would wait forever.
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
    if (!plan.ssh() && sshdWord(main) != null) {
      main.setCommand(List.of("sleep"));
      main.setArgs(List.of("365d"));
      if (probesPort(main.getReadinessProbe())) {
        main.setReadinessProbe(null);
      }
      if (probesPort(main.getLivenessProbe())) {
        main.setLivenessProbe(null);
      }
      if (probesPort(main.getStartupProbe())) {
        main.setStartupProbe(null);
      }
    } else if (isEmpty(main.getCommand()) && isEmpty(main.getArgs())) {
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

  /** Where a word of the container's command, then args, names {@code sshd}; or {@code null}. */
  static SshdWord sshdWord(Container c) {
    for (String field : List.of("command", "args")) {
      List<String> words = "command".equals(field) ? c.getCommand() : c.getArgs();
      for (int i = 0; words != null && i < words.size(); i++) {
        // A word of an element, so "sh -c '/usr/sbin/sshd -De'" counts too; a file name, so
        // "-f /home/mpiuser/.sshd_config" does not.
        for (String word : String.valueOf(words.get(i)).split("[\\s;&|'\"]+")) {
          if (word.equals("sshd") || word.endsWith("/sshd")) {
            return new SshdWord(field, i);
          }
        }
      }
    }
    return null;
  }

  /** Element {@code index} of the container's {@code field} ({@code command} or {@code args}). */
  record SshdWord(String field, int index) {}

  /** A probe on a port (TCP, HTTP, gRPC): it needs a server in the container. */
  static boolean probesPort(Probe probe) {
    return probe != null
        && (probe.getTcpSocket() != null || probe.getHttpGet() != null || probe.getGrpc() != null);
  }

  private static boolean isEmpty(List<String> list) {
    return list == null || list.isEmpty();
  }
}
