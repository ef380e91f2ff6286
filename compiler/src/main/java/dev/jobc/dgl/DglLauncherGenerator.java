package dev.jobc.dgl;

import static dev.jobc.dgl.DglPodParts.env;
import static dev.jobc.dgl.DglPodParts.mount;
import static dev.jobc.dgl.DglPodParts.orEmpty;

import dev.jobc.conventions.DglNaming;
import dev.jobc.conventions.Naming;
import dev.jobc.k8s.Metadata;
import dev.jobc.k8s.PodTemplates;
import dev.jobc.k8s.RestrictedSecurityContext;
import dev.jobc.k8s.SidecarContainer;
import dev.jobc.options.WorkerKind;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.fabric8.kubernetes.api.model.ResourceRequirementsBuilder;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMountBuilder;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Pod {@code <job>-launcher}, as dgl-operator's {@code buildLauncherPod} builds it. A bare Pod, not
 * a Job: the partitioner {@code kubectl cp}s the partitions into it by pod name, and the
 * partitioner's Role grants exec on that name.
 *
 * <p>With workers, it gets dgl-operator's DGL-API launcher: init containers {@code
 * kubectl-download}, {@code watcher-loop-partitioner} (when there is a partitioner) and {@code
 * watcher-loop-worker}, the {@code DGL_OPERATOR_*} paths, kubectl at {@code /opt/kube} and the
 * dataset volume. The watchers run the jobc sidecar's {@code wait}; the last one writes the
 * IP-based {@code hostfile}, {@code partfile} and {@code leadfile} into {@code /etc/dgl}, an
 * emptyDir, where {@code dglrun} reads them; {@code kubexec.sh} is projected into it from the
 * ConfigMap. In Skip mode the launcher only gets {@code DGL_OPERATOR_PHASE_ENV=Launcher_Workload}.
 */
public final class DglLauncherGenerator {
  /**
   * How long a watcher waits. dgl-operator's watcher-loop waits without bound; partitioning a large
   * graph takes hours, and a day still ends a job whose pods can never run.
   */
  static final String WAIT_TIMEOUT = "24h";

  public Pod generate(DglJobPlan plan) {
    String name = Naming.launcher(plan.name());
    PodTemplateSpec template = PodTemplates.copy(plan.job().launcher().template());
    PodSpec spec = template.getSpec();
    spec.setRestartPolicy("Never");
    List<Container> containers = new ArrayList<>(spec.getContainers());
    ContainerBuilder main = new ContainerBuilder(containers.get(0));
    if (isEmpty(containers.get(0).getResources())) {
      // dgl-operator's defaultLauncherContainerCpu/Mem, set only when nothing at all is set.
      main.withResources(defaultResources());
    }

    if (plan.mode() == PartitionMode.SKIP) {
      main.addToEnv(env(DglPodParts.PHASE_ENV, "Launcher_Workload"));
    } else {
      List<Container> inits = DglPodParts.execPod(spec, name, plan);
      if (releasesWorkers(plan)) {
        // First, so it runs from the pod's start: a failed wait ends the pod too.
        inits.add(0, workerRelease(plan, containers.get(0).getName()));
      }
      if (plan.partitioner() != null) {
        inits.add(partitionerWatcher(plan));
      }
      inits.add(workerWatcher(plan));
      spec.setInitContainers(inits);

      main.addToEnv(
          env("DGL_OPERATOR_KUBEXEC_PATH", DglNaming.CONFIG_MOUNT + "/" + DglNaming.KUBEXEC),
          env("DGL_OPERATOR_HOSTFILE_PATH", DglNaming.CONFIG_MOUNT + "/" + DglNaming.HOSTFILE),
          env("DGL_OPERATOR_KUBECTL_PATH", DglNaming.KUBECTL_MOUNT + "/kubectl"),
          env(DglPodParts.KUBE_ENV, "1"));
      main.addToVolumeMounts(
          mount(DglNaming.KUBECTL_VOLUME, DglNaming.KUBECTL_MOUNT),
          mount(DglNaming.IPCONFIG_VOLUME, DglNaming.CONFIG_MOUNT),
          new VolumeMountBuilder()
              .withName(DglNaming.CONFIG_VOLUME)
              .withMountPath(DglNaming.CONFIG_MOUNT + "/" + DglNaming.KUBEXEC)
              .withSubPath(DglNaming.KUBEXEC)
              .build(),
          mount(DglNaming.DATASET_VOLUME, DglNaming.DATASET_MOUNT));

      List<Volume> volumes = orEmpty(spec.getVolumes());
      volumes.add(DglPodParts.emptyDir(DglNaming.KUBECTL_VOLUME));
      volumes.add(DglPodParts.emptyDir(DglNaming.DATASET_VOLUME));
      volumes.add(DglPodParts.emptyDir(DglNaming.IPCONFIG_VOLUME));
      volumes.add(DglPodParts.config(plan, DglNaming.KUBEXEC));
      spec.setVolumes(volumes);
    }
    containers.set(0, main.build());
    spec.setContainers(containers);

    ObjectMeta meta =
        DglPodParts.podMeta(
            template,
            name,
            plan.namespace(),
            DglLabels.podLabels(plan.name(), DglJob.LAUNCHER, name),
            DglLabels.podAnnotations(DglJob.LAUNCHER));
    Metadata.annotate(meta, Metadata.objectAnnotations(plan.job().options()));
    return new PodBuilder().withMetadata(meta).withSpec(spec).build();
  }

  /**
   * Waits for the partitioner pod to succeed. The partitioner copies the partitions into this
   * container's dataset mount with {@code kubectl cp} (dglrun phase 2, {@code --container
   * watcher-loop-partitioner}) before it can succeed, so the wait itself keeps the container
   * running for the copy, and the data stays in the dataset emptyDir for the launcher.
   */
  private static Container partitionerWatcher(DglJobPlan plan) {
    List<String> args =
        new ArrayList<>(
            List.of(
                "wait",
                "--for",
                "succeeded",
                "--pod",
                plan.partitioner().pod(),
                "--timeout",
                WAIT_TIMEOUT));
    // Then start the workers, as dgl-operator creates them once its phase is Partitioned: scale
    // the StatefulSet from 0, or lift the bare pods' scheduling gate.
    if (plan.workerKind() == WorkerKind.PODS) {
      for (String pod : plan.workerPods()) {
        args.add("--then-ungate");
        args.add(pod);
      }
    } else {
      args.add("--then-scale");
      args.add(Naming.workerSet(plan.name()) + "=" + plan.workers());
    }
    return DglPodParts.sidecar(plan, DglNaming.PARTITIONER_WATCHER, args, 1)
        .withVolumeMounts(mount(DglNaming.DATASET_VOLUME, DglNaming.DATASET_MOUNT))
        .build();
  }

  /**
   * Waits for every worker to run, then writes the IP-based files {@code dglrun} reads, in
   * dgl-operator's formats and in worker index order. Running, not Ready, as upstream's
   * watcher-loop ({@code watcher-loop/controllers/controller.go}: {@code WATCHERMODE=ready} is
   * phase Running): a readiness probe that needs the DGL servers, which dglrun starts in its last
   * phase, would otherwise hold the launcher for the whole wait.
   */
  private static Container workerWatcher(DglJobPlan plan) {
    List<String> args = new ArrayList<>(List.of("wait", "--for", "running"));
    for (String pod : plan.workerPods()) {
      args.add("--pod");
      args.add(pod);
    }
    args.addAll(
        List.of(
            "--timeout",
            WAIT_TIMEOUT,
            "--dgl-files",
            DglNaming.CONFIG_MOUNT,
            "--dgl-job",
            plan.name(),
            "--dgl-port",
            Integer.toString(DglNaming.DGL_PORT),
            "--dgl-slots",
            Integer.toString(plan.slots()),
            // The job's workers only, never the whole namespace.
            "--selector",
            selector(DglLabels.typeSelector(plan.name(), DglJob.WORKER))));
    return DglPodParts.sidecar(plan, DglNaming.WORKER_WATCHER, args, plan.workers())
        .withVolumeMounts(mount(DglNaming.IPCONFIG_VOLUME, DglNaming.CONFIG_MOUNT))
        .build();
  }

  /**
   * Whether the launcher releases the workers when it ends: dgl-operator ({@code
   * dgljob_controller.go}, at {@code 47bff27}) deletes the workers of a finished DGLJob unless
   * {@code cleanPodPolicy} is {@code None}.
   */
  static boolean releasesWorkers(DglJobPlan plan) {
    return plan.workers() > 0 && !"None".equals(plan.job().cleanPodPolicy());
  }

  /**
   * The native sidecar (an init container with {@code restartPolicy: Always}) that applies {@code
   * cleanPodPolicy} when the launcher pod ends. The launcher is a bare Pod with restart policy
   * Never, so any end is final: its main container ending (kubelet then stops the sidecar with
   * SIGTERM), a failed wait, or the pod's deletion. The sidecar acts on SIGTERM; before, at its
   * start, it only reads its pod and sends the release once as a dry run (warm-up).
   */
  private static Container workerRelease(DglJobPlan plan, String mainContainer) {
    List<String> args =
        new ArrayList<>(
            List.of(
                "release",
                "--clean-pod-policy",
                plan.job().cleanPodPolicy(),
                "--container",
                mainContainer));
    if (plan.workerKind() == WorkerKind.PODS) {
      args.add("--selector");
      args.add(selector(DglLabels.typeSelector(plan.name(), DglJob.WORKER)));
    } else {
      args.add("--worker-set");
      args.add(Naming.workerSet(plan.name()));
    }
    return new ContainerBuilder()
        .withName(DglNaming.WORKER_RELEASE)
        .withImage(plan.sidecarImage())
        .withImagePullPolicy("IfNotPresent")
        .withArgs(args)
        .withRestartPolicy("Always")
        .withEnv(
            PodTemplates.fieldEnv("POD_NAME", "metadata.name"),
            PodTemplates.fieldEnv("POD_NAMESPACE", "metadata.namespace"),
            new EnvVar(
                "JAVA_TOOL_OPTIONS",
                SidecarContainer.javaToolOptions(plan.renderDefaults(), 0),
                null))
        .withResources(SidecarContainer.resources(plan.renderDefaults(), RELEASE_CPU, 0))
        .withSecurityContext(RestrictedSecurityContext.of(false))
        .build();
  }

  /**
   * The release's CPU: it reads its pod and sends its requests once as dry runs at start, so that
   * after SIGTERM it takes about a second at 50m; a launcher that ends while that warm-up runs
   * leaves it the client's whole start in the grace period, about 18 s at 50m and half that at this
   * (SidecarLimitsIT, under the rendered CPU quota).
   */
  static final String RELEASE_CPU = "100m";

  /** {@code key=value,...} in key order, as the sidecar's {@code --selector} takes labels. */
  private static String selector(Map<String, String> labels) {
    List<String> terms = new ArrayList<>();
    for (Map.Entry<String, String> e : new java.util.TreeMap<>(labels).entrySet()) {
      terms.add(e.getKey() + "=" + e.getValue());
    }
    return String.join(",", terms);
  }

  /** Go's {@code ResourceRequirements.Size() == 0}: no limits, requests or claims at all. */
  private static boolean isEmpty(ResourceRequirements r) {
    return r == null
        || ((r.getLimits() == null || r.getLimits().isEmpty())
            && (r.getRequests() == null || r.getRequests().isEmpty())
            && (r.getClaims() == null || r.getClaims().isEmpty()));
  }

  private static ResourceRequirements defaultResources() {
    return new ResourceRequirementsBuilder()
        .withLimits(Map.of("cpu", new Quantity("1"), "memory", new Quantity("2Gi")))
        .withRequests(Map.of("cpu", new Quantity("1"), "memory", new Quantity("2Gi")))
        .build();
  }
}
