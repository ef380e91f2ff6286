package dev.jobc.mpi;

import dev.jobc.conventions.MpiLabels;
import dev.jobc.conventions.Naming;
import dev.jobc.k8s.Metadata;
import dev.jobc.k8s.PodTemplates;
import dev.jobc.k8s.SidecarContainer;
import dev.jobc.options.OptionTable;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EmptyDirVolumeSource;
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
import java.util.Map;

/**
 * Job {@code <job>-scaler}: {@code jobc-sidecar scale-workers}, which follows the launcher Job from
 * a pod of its own and releases the workers when the Job is suspended, has finished or is deleted,
 * and scales them back up when it is resumed. mpi-operator's controller did this from outside the
 * launcher ({@code mpi_job_controller.go} syncHandler, {@code cleanUpWorkerPods}); the launcher's
 * own sidecar cannot when no launcher pod runs it: a launcher that is Pending, pulling images,
 * between retries, force-deleted, or whose sidecar lost the API for longer than the pod's grace
 * period. The command exits once the Job has finished, so the scaler holds nothing after the run.
 *
 * <p>It runs as the launcher's ServiceAccount (the launcher Role grants what it needs: the Job by
 * name, the worker StatefulSet's scale or the worker pods by name, Events) with a projected token
 * of its own, so a ServiceAccount that turns the automatic token off does not stop it. It is
 * scheduled where the launcher may be (node selector, tolerations, priority class, image pull
 * secrets), and takes part in no gang.
 */
public final class WorkerScalerJobGenerator {
  /** Small: it follows one Job and changes a scale now and then. */
  static final String CPU = "100m";

  /**
   * Whether the job gets a scaler: it has workers, and there is something to do for them (a
   * StatefulSet is scaled on suspension and resumption whatever {@code cleanPodPolicy} says).
   */
  static boolean needed(MpiJobPlan plan) {
    return plan.workers() > 0
        && (!plan.podWorkers() || !"None".equals(SidecarContainers.cleanPodPolicy(plan)));
  }

  public Job generate(MpiJobPlan plan) {
    List<String> args = new ArrayList<>();
    args.add("scale-workers");
    args.add("--launcher-job");
    args.add(Naming.launcher(plan.name()));
    if (plan.podWorkers()) {
      args.add("--selector");
      List<String> terms = new ArrayList<>();
      for (Map.Entry<String, String> e :
          new java.util.TreeMap<>(MpiLabels.roleSelector(plan.era(), plan.name(), MpiLabels.WORKER))
              .entrySet()) {
        terms.add(e.getKey() + "=" + e.getValue());
      }
      args.add(String.join(",", terms));
    } else {
      args.add("--worker-set");
      args.add(Naming.workerSet(plan.name()));
      args.add("--worker-replicas");
      args.add(Integer.toString(plan.workers()));
    }
    args.add("--clean-pod-policy");
    args.add(SidecarContainers.cleanPodPolicy(plan));

    Container c = SidecarContainer.base(plan.options(), Naming.SIDECAR, args);
    c.setResources(
        SidecarContainer.resources(plan.options().get(OptionTable.RENDER_DEFAULTS), CPU, 0));
    List<VolumeMount> mounts = new ArrayList<>();
    mounts.add(PodTemplates.mount(Naming.SIDECAR_TMP_VOLUME, Naming.SIDECAR_TMP_MOUNT));
    VolumeMount token =
        PodTemplates.mount(Naming.SIDECAR_TOKEN_VOLUME, Naming.SERVICE_ACCOUNT_MOUNT);
    token.setReadOnly(true);
    mounts.add(token);
    c.setVolumeMounts(mounts);

    PodSpec spec = new PodSpec();
    spec.setRestartPolicy("OnFailure");
    spec.setServiceAccountName(plan.launcherAccount());
    spec.setAutomountServiceAccountToken(false);
    // Wherever the launcher may run, this may: taints, pools and pull secrets are the cluster's.
    // Read from the job's template, never changed (no copy of the whole template: new lists
    // hold the same, unchanged elements).
    PodSpec launcher = plan.job().launcher().template().getSpec();
    if (launcher.getNodeSelector() != null && !launcher.getNodeSelector().isEmpty()) {
      spec.setNodeSelector(new java.util.LinkedHashMap<>(launcher.getNodeSelector()));
    }
    if (launcher.getTolerations() != null && !launcher.getTolerations().isEmpty()) {
      spec.setTolerations(new ArrayList<>(launcher.getTolerations()));
    }
    if (launcher.getImagePullSecrets() != null && !launcher.getImagePullSecrets().isEmpty()) {
      spec.setImagePullSecrets(new ArrayList<>(launcher.getImagePullSecrets()));
    }
    spec.setPriorityClassName(launcher.getPriorityClassName());
    spec.setContainers(new ArrayList<>(List.of(c)));
    Volume tmp = new Volume();
    tmp.setName(Naming.SIDECAR_TMP_VOLUME);
    tmp.setEmptyDir(new EmptyDirVolumeSource("Memory", new Quantity("1Mi")));
    spec.setVolumes(new ArrayList<>(List.of(tmp, SidecarContainer.tokenVolume())));

    PodTemplateSpec template = new PodTemplateSpec();
    ObjectMeta podMeta = new ObjectMeta();
    podMeta.setLabels(MpiLabels.objectLabels(plan.name()));
    template.setMetadata(podMeta);
    template.setSpec(spec);

    JobSpec jobSpec = new JobSpec();
    // Every restart of a crashed or evicted scaler counts against this; it must outlast the job.
    jobSpec.setBackoffLimit(Integer.MAX_VALUE);
    jobSpec.setTemplate(template);
    Job job = new Job();
    job.setMetadata(
        Metadata.of(
            Naming.scaler(plan.name()),
            plan.namespace(),
            MpiLabels.objectLabels(plan.name()),
            Metadata.objectAnnotations(plan.options())));
    job.setSpec(jobSpec);
    return job;
  }
}
