package dev.jobc.mpi;

import static dev.jobc.mpi.MpiPaths.SPEC;

import dev.jobc.model.ReplicaSpec;
import io.fabric8.kubernetes.api.model.AffinityBuilder;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.NodeSelectorTerm;
import io.fabric8.kubernetes.api.model.NodeSelectorTermBuilder;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpecBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.fabric8.kubernetes.api.model.TolerationBuilder;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code kubeflow.org/v1alpha1} ({@code pkg/apis/kubeflow/v1alpha1/types.go}): one {@code template}
 * for both roles, split as the final v1alpha1 controller did: the launcher without resources,
 * workers running {@code sleep 365d} (the template's command is the launcher's); the worker count
 * and per-worker units from {@link SlotPlan}. There is no cleanPodPolicy: the controller scaled the
 * workers to 0 when the launcher finished, which is {@code All}.
 */
final class V1alpha1Conversion implements MpiEraConversion {

  @Override
  public void copy(MpiJobSpec spec, MpiJobModel.Draft draft) {
    SlotPlan.Packing packing = SlotPlan.pack(spec, draft.options());
    draft.addFindings(packing.errors());
    SlotPlan slots = packing.plan();
    PodTemplateSpec template = spec.template();
    if (template != null) {
      String templateRestart =
          template.getSpec() == null ? null : template.getSpec().getRestartPolicy();
      Map<String, ReplicaSpec> replicas = new LinkedHashMap<>();
      // The launcher Job keeps the template's Never; anything else becomes the default OnFailure.
      replicas.put(
          MpiJob.LAUNCHER,
          new ReplicaSpec(
              null,
              launcherTemplate(template, Boolean.TRUE.equals(spec.launcherOnMaster())),
              "Never".equals(templateRestart) ? "Never" : null));
      replicas.put(
          MpiJob.WORKER,
          new ReplicaSpec(
              slots == null ? null : slots.workers(), workerTemplate(template, slots), null));
      draft.replicaSpecs(replicas);
    }
    // "Defaults to the number of processing units per worker"; without any, the defaults' 1.
    Integer slotsPerWorker = spec.slotsPerWorker();
    if (slotsPerWorker == null && slots != null && slots.unitsPerWorker() > 0) {
      slotsPerWorker = slots.unitsPerWorker();
    }
    draft
        .slotsPerWorker(slotsPerWorker)
        .cleanPodPolicy("All")
        .activeDeadlineSeconds(spec.activeDeadlineSeconds())
        .backoffLimit(spec.backoffLimit())
        // The worker count comes from the total when there is one (SlotPlan), else from replicas.
        .workerTotal(spec.gpus() != null ? spec.gpus() : spec.processingUnits())
        .paths(
            new MpiPaths(
                SPEC,
                SPEC,
                SPEC,
                SPEC.child("backoffLimit"),
                SPEC.child("activeDeadlineSeconds"),
                SPEC,
                SPEC.child(
                    spec.gpus() != null
                        ? "gpus"
                        : spec.processingUnits() != null ? "processingUnits" : "replicas")));
  }

  /**
   * v1alpha1's launcher: no resources at all (so a template written for GPU workers takes no GPU
   * for the launcher), and with {@code launcherOnMaster} a toleration and node affinity for the
   * control plane. Upstream only knew the {@code master} label; clusters since Kubernetes 1.24
   * label {@code control-plane}, so jobc accepts either.
   */
  static PodTemplateSpec launcherTemplate(PodTemplateSpec template, boolean onMaster) {
    PodTemplateSpec copy = new PodTemplateSpecBuilder(template).build();
    PodSpec pod = copy.getSpec();
    if (pod == null || pod.getContainers() == null || pod.getContainers().isEmpty()) {
      return copy;
    }
    List<Container> containers = new ArrayList<>(pod.getContainers());
    containers.set(0, new ContainerBuilder(containers.get(0)).withResources(null).build());
    pod.setContainers(containers);
    if (onMaster) {
      var tolerations =
          new ArrayList<>(pod.getTolerations() == null ? List.of() : pod.getTolerations());
      for (String role : List.of("master", "control-plane")) {
        tolerations.add(
            new TolerationBuilder()
                .withKey("node-role.kubernetes.io/" + role)
                .withEffect("NoSchedule")
                .withOperator("Exists")
                .build());
      }
      pod.setTolerations(tolerations);
      pod.setAffinity(
          new AffinityBuilder()
              .withNewNodeAffinity()
              .withNewRequiredDuringSchedulingIgnoredDuringExecution()
              .withNodeSelectorTerms(
                  term("node-role.kubernetes.io/master"),
                  term("node-role.kubernetes.io/control-plane"))
              .endRequiredDuringSchedulingIgnoredDuringExecution()
              .endNodeAffinity()
              .build());
    }
    return copy;
  }

  private static NodeSelectorTerm term(String key) {
    return new NodeSelectorTermBuilder()
        .addNewMatchExpression()
        .withKey(key)
        .withOperator("Exists")
        .endMatchExpression()
        .build();
  }

  /**
   * v1alpha1's workers: the template's command belongs to the launcher, so workers always sleep; in
   * total mode each gets its share of units as a limit.
   */
  static PodTemplateSpec workerTemplate(PodTemplateSpec template, SlotPlan slots) {
    PodTemplateSpec copy = new PodTemplateSpecBuilder(template).build();
    PodSpec pod = copy.getSpec();
    if (pod == null || pod.getContainers() == null || pod.getContainers().isEmpty()) {
      return copy;
    }
    List<Container> containers = new ArrayList<>(pod.getContainers());
    ContainerBuilder main =
        new ContainerBuilder(containers.get(0)).withCommand("sleep").withArgs("365d");
    if (slots != null && slots.writeLimit()) {
      ResourceRequirements resources = containers.get(0).getResources();
      Map<String, Quantity> limits = new LinkedHashMap<>();
      if (resources != null && resources.getLimits() != null) {
        limits.putAll(resources.getLimits());
      }
      limits.put(slots.resource(), new Quantity(Integer.toString(slots.unitsPerWorker())));
      main.editOrNewResources().withLimits(limits).endResources();
    }
    containers.set(0, main.build());
    pod.setContainers(containers);
    return copy;
  }
}
