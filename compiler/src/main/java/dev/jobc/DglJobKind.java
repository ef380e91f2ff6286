package dev.jobc;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jobc.api.DglJob;
import dev.jobc.api.DglJobModel;
import dev.jobc.api.PartitionMode;
import dev.jobc.defaults.DglJobDefaults;
import dev.jobc.diag.Finding;
import dev.jobc.generate.DglConfigMapGenerator;
import dev.jobc.generate.DglLauncherGenerator;
import dev.jobc.generate.DglPartitionerGenerator;
import dev.jobc.generate.DglRbacGenerator;
import dev.jobc.generate.DglServiceGenerator;
import dev.jobc.generate.DglWorkerGenerator;
import dev.jobc.plan.DglJobPlan;
import dev.jobc.plan.DglJobPlanner;
import dev.jobc.render.ObjectTrees;
import dev.jobc.render.Templates;
import dev.jobc.validate.DglJobValidator;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.ArrayList;
import java.util.List;

/**
 * Qihoo360 DGLJob ({@code qihoo.net/v1alpha1}) through the pipeline. Skip mode renders the launcher
 * alone: no ConfigMap, Service or RBAC, whose exec rule would name no pod.
 */
final class DglJobKind implements JobKind<DglJob, DglJobModel, DglJobPlan> {
  private final DglConfigMapGenerator configMaps;
  private final DglRbacGenerator rbac = new DglRbacGenerator();
  private final DglServiceGenerator services = new DglServiceGenerator();
  private final DglWorkerGenerator workers = new DglWorkerGenerator();
  private final DglPartitionerGenerator partitioners = new DglPartitionerGenerator();
  private final DglLauncherGenerator launchers = new DglLauncherGenerator();

  DglJobKind(Templates templates) {
    this.configMaps = new DglConfigMapGenerator(templates);
  }

  @Override
  public String kind() {
    return DglJob.KIND;
  }

  @Override
  public String group() {
    return "qihoo.net";
  }

  @Override
  public List<String> apiVersions() {
    return List.of(DglJob.API_VERSION);
  }

  @Override
  public DglJob bind(JsonNode root) {
    return ObjectTrees.bind(root, DglJob.class);
  }

  @Override
  public DglJobModel defaults(DglJob job, CompileOptions options) {
    return DglJobDefaults.apply(job, options);
  }

  @Override
  public List<Finding> validate(DglJobModel model, CompileOptions options) {
    return DglJobValidator.validate(model);
  }

  @Override
  public DglJobPlan plan(DglJobModel model, CompileOptions options) {
    return DglJobPlanner.plan(model);
  }

  @Override
  public List<HasMetadata> generate(DglJobPlan plan) {
    List<HasMetadata> out = new ArrayList<>();
    if (plan.mode() != PartitionMode.SKIP) {
      out.addAll(rbac.generate(plan));
      out.add(configMaps.generate(plan));
      out.add(services.generate(plan));
      out.addAll(workers.generate(plan));
    }
    if (plan.partitioner() != null) {
      out.add(partitioners.generate(plan));
    }
    out.add(launchers.generate(plan));
    return out;
  }
}
