package dev.jobc.mpi;

import dev.jobc.conventions.MpiLabels;
import dev.jobc.conventions.Naming;
import dev.jobc.k8s.Metadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodSpecBuilder;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Bare worker Pods {@code <job>-worker-<i>} ({@code --workers pods}), the shape mpi-operator v1 and
 * v2beta1 create: each with {@code training.kubeflow.org/replica-index}, host name and subdomain
 * under the job's Service, and the replica's restart policy. Nothing recreates a deleted Pod; at
 * the end the sidecars end them by {@code cleanPodPolicy}, and never delete them.
 */
public final class WorkerPodsGenerator {

  public List<Pod> generate(MpiJobPlan plan) {
    PodTemplateSpec template = WorkerTemplates.build(plan, plan.job().worker().restartPolicy());
    // v2beta1: with runLauncherAsWorker the launcher is index 0 and workers start at 1.
    int offset = plan.job().runLauncherAsWorker() ? 1 : 0;
    List<Pod> pods = new ArrayList<>(plan.workers());
    var annotations = Metadata.objectAnnotations(plan.options());
    for (int i = 0; i < plan.workers(); i++) {
      String name = Naming.workerPod(plan.name(), i);
      var labels = new LinkedHashMap<>(template.getMetadata().getLabels());
      labels.put(MpiLabels.REPLICA_INDEX, Integer.toString(i + offset));
      ObjectMeta meta =
          new ObjectMetaBuilder(template.getMetadata())
              .withName(name)
              .withNamespace(plan.namespace())
              .withLabels(labels)
              .build();
      Metadata.annotate(meta, annotations);
      // The sidecars end these pods (activeDeadlineSeconds lowered to 1; nothing rendered is
      // deleted) when the job has finished, unless cleanPodPolicy is None, and whatever it is when
      // the job is suspended: Flux must not apply them again, which with IfNotPresent it does only
      // when one is missing (Argo CD: docs/gitops.md).
      Metadata.annotate(meta, Map.of(Metadata.FLUX_SSA, "IfNotPresent"));
      pods.add(
          new PodBuilder()
              .withMetadata(meta)
              .withSpec(
                  new PodSpecBuilder(template.getSpec())
                      .withHostname(name)
                      .withSubdomain(Naming.service(plan.name()))
                      .build())
              .build());
    }
    return pods;
  }
}
