package dev.jobc.tf;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jobc.bind.ObjectTrees;
import dev.jobc.diag.FieldPath;
import dev.jobc.diag.Finding;
import dev.jobc.k8s.OutputSize;
import dev.jobc.kind.JobKind;
import dev.jobc.options.CompileOptions;
import dev.jobc.replica.ReplicaObjects;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.ArrayList;
import java.util.List;

/** Kubeflow TFJob ({@code kubeflow.org/v1}) through the pipeline. Immutable and thread-safe. */
public final class TfJobKind implements JobKind<TfJob, TfJobModel, TfJobPlan> {
  static final String MULTIKUEUE = "kueue.x-k8s.io/multikueue";

  private final TfRbacGenerator rbac = new TfRbacGenerator();
  private final TfServiceGenerator services = new TfServiceGenerator();
  private final TfReplicaJobGenerator jobs = new TfReplicaJobGenerator();
  private final TfReplicaPodGenerator pods = new TfReplicaPodGenerator();
  private final TfJobSetGenerator jobSet = new TfJobSetGenerator();

  @Override
  public String kind() {
    return TfJob.KIND;
  }

  @Override
  public String group() {
    return "kubeflow.org";
  }

  @Override
  public List<String> apiVersions() {
    return List.of(TfJob.API_VERSION);
  }

  @Override
  public TfJob bind(JsonNode root) {
    return ObjectTrees.bind(root, TfJob.class);
  }

  @Override
  public TfJobModel defaults(TfJob job, CompileOptions options) {
    return TfJobDefaults.apply(job, options);
  }

  @Override
  public Finding renderedElsewhere(TfJobModel model) {
    if (!MULTIKUEUE.equals(model.runPolicy().managedBy())) {
      return null;
    }
    // MultiKueue dispatches the TFJob itself to a worker cluster that runs training-operator;
    // rendering it here would run the job twice.
    return Finding.warning(
        FieldPath.of("spec", "runPolicy", "managedBy"),
        "passed through unrendered: MultiKueue dispatches this TFJob to a worker"
            + " cluster running training-operator");
  }

  @Override
  public List<Finding> validate(TfJobModel model) {
    return TfJobValidator.validate(model);
  }

  @Override
  public OutputSize.Estimate outputSize(TfJobModel model) {
    return TfOutputSize.estimate(model);
  }

  @Override
  public TfJobPlan plan(TfJobModel model) {
    return TfJobPlanner.plan(model);
  }

  @Override
  public List<HasMetadata> generate(TfJobPlan plan) {
    List<HasMetadata> out = new ArrayList<>();
    if (plan.jobSet()) {
      out.addAll(jobSet.generate(plan));
    } else {
      out.addAll(rbac.generate(plan));
      out.addAll(services.generate(plan));
      out.addAll(plan.pods() ? pods.generate(plan) : jobs.generate(plan));
    }
    if (plan.gang() != null) {
      out.add(
          ReplicaObjects.podGroup(
              plan.gang(), plan.name(), plan.namespace(), plan.options(), plan.job().metadata()));
    }
    return out;
  }
}
