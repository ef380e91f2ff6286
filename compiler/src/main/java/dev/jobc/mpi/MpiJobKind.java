package dev.jobc.mpi;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jobc.bind.ObjectTrees;
import dev.jobc.conventions.MpiEra;
import dev.jobc.diag.FieldPath;
import dev.jobc.diag.Finding;
import dev.jobc.k8s.GangScheduling;
import dev.jobc.k8s.OutputSize;
import dev.jobc.kind.JobKind;
import dev.jobc.options.CompileOptions;
import dev.jobc.render.Templates;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.ArrayList;
import java.util.List;

/** Kubeflow MPIJob ({@code kubeflow.org}) through the pipeline. Immutable and thread-safe. */
public final class MpiJobKind implements JobKind<MpiJob, MpiJobModel, MpiJobPlan> {
  private static final String MULTIKUEUE = "kueue.x-k8s.io/multikueue";
  private final LauncherRbacGenerator rbac = new LauncherRbacGenerator();
  private final MpiConfigMapGenerator configMaps;
  private final HeadlessServiceGenerator services = new HeadlessServiceGenerator();
  private final WorkerStatefulSetGenerator workers = new WorkerStatefulSetGenerator();
  private final WorkerPodsGenerator workerPods = new WorkerPodsGenerator();
  private final LauncherJobGenerator launchers = new LauncherJobGenerator();
  private final MpiJobSetGenerator jobSets = new MpiJobSetGenerator(launchers);
  private final WorkerScalerJobGenerator scalers = new WorkerScalerJobGenerator();

  public MpiJobKind(Templates templates) {
    this.configMaps = new MpiConfigMapGenerator(templates);
  }

  @Override
  public String kind() {
    return MpiJob.KIND;
  }

  @Override
  public String group() {
    return "kubeflow.org";
  }

  @Override
  public List<String> apiVersions() {
    return MpiEra.apiVersions();
  }

  @Override
  public MpiJob bind(JsonNode root) {
    return ObjectTrees.bind(root, MpiJob.class);
  }

  @Override
  public MpiJobModel defaults(MpiJob job, CompileOptions options) {
    MpiEra era = MpiEra.of(job.apiVersion()).orElseThrow();
    return MpiJobDefaults.apply(job, era, options);
  }

  @Override
  public Finding renderedElsewhere(MpiJobModel model) {
    if (!MULTIKUEUE.equals(model.managedBy())) {
      return null;
    }
    // MultiKueue dispatches the MPIJob itself to a worker cluster that runs mpi-operator;
    // rendering it here would run the job twice. It passes through as written.
    return Finding.warning(
        FieldPath.of("spec", "runPolicy", "managedBy"),
        "passed through unrendered: MultiKueue dispatches this MPIJob to a worker"
            + " cluster running mpi-operator");
  }

  @Override
  public List<Finding> validate(MpiJobModel model) {
    return MpiJobValidator.validate(model);
  }

  @Override
  public OutputSize.Estimate outputSize(MpiJobModel model) {
    return MpiOutputSize.estimate(model);
  }

  @Override
  public MpiJobPlan plan(MpiJobModel model) {
    return MpiJobPlanner.plan(model);
  }

  @Override
  public List<HasMetadata> generate(MpiJobPlan plan) {
    if (plan.jobSet()) {
      // The JobSet and what it does not create; its controller makes the headless Service.
      List<HasMetadata> out = new ArrayList<>();
      if (plan.launcherRbac()) {
        out.addAll(rbac.generate(plan));
      }
      out.add(configMaps.generate(plan));
      out.add(jobSets.generate(plan));
      if (plan.gang() != null) {
        out.add(
            GangScheduling.podGroup(plan.gang(), plan.name(), plan.namespace(), plan.options()));
      }
      return out;
    }
    // kubexec execs into workers; with ssh (mpi-operator v2beta1 creates no RBAC) the launcher's
    // jobc-sidecar still watches pods, releases the workers and records events.
    List<HasMetadata> out = new ArrayList<>(rbac.generate(plan));
    out.add(configMaps.generate(plan));
    out.add(services.generate(plan));
    if (plan.workers() > 0) {
      if (plan.podWorkers()) {
        out.addAll(workerPods.generate(plan));
      } else {
        out.add(workers.generate(plan));
      }
    }
    out.add(launchers.generate(plan));
    if (WorkerScalerJobGenerator.needed(plan)) {
      out.add(scalers.generate(plan));
    }
    // Gang scheduling: the pod-carrying generators mark their pods; the group itself.
    if (plan.gang() != null) {
      out.add(GangScheduling.podGroup(plan.gang(), plan.name(), plan.namespace(), plan.options()));
    }
    return out;
  }
}
