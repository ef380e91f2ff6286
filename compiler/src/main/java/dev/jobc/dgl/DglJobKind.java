package dev.jobc.dgl;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jobc.bind.ObjectTrees;
import dev.jobc.diag.Finding;
import dev.jobc.k8s.OutputSize;
import dev.jobc.kind.JobKind;
import dev.jobc.options.CompileOptions;
import dev.jobc.render.Templates;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.ArrayList;
import java.util.List;

/**
 * Qihoo360 DGLJob ({@code qihoo.net/v1alpha1}) through the pipeline. Skip mode renders the launcher
 * alone: no ConfigMap, Service or RBAC, whose exec rule would name no pod.
 */
public final class DglJobKind implements JobKind<DglJob, DglJobModel, DglJobPlan> {
  private final DglConfigMapGenerator configMaps;
  private final DglRbacGenerator rbac = new DglRbacGenerator();
  private final DglServiceGenerator services = new DglServiceGenerator();
  private final DglWorkerGenerator workers = new DglWorkerGenerator();
  private final DglPartitionerGenerator partitioners = new DglPartitionerGenerator();
  private final DglLauncherGenerator launchers = new DglLauncherGenerator();

  public DglJobKind(Templates templates) {
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
  public List<Finding> validate(DglJobModel model) {
    return DglJobValidator.validate(model);
  }

  @Override
  public OutputSize.Estimate outputSize(DglJobModel model) {
    return DglOutputSize.estimate(model);
  }

  @Override
  public DglJobPlan plan(DglJobModel model) {
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
