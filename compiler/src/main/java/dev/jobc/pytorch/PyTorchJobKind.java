package dev.jobc.pytorch;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jobc.bind.ObjectTrees;
import dev.jobc.diag.Finding;
import dev.jobc.kind.JobKind;
import dev.jobc.options.CompileOptions;
import dev.jobc.replica.Framework;
import dev.jobc.replica.ReplicaKueue;
import dev.jobc.replica.ReplicaObjects;
import dev.jobc.replica.ReplicaPlan;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.List;

/** Kubeflow PyTorchJob ({@code kubeflow.org/v1}) through the pipeline. Immutable, thread-safe. */
public final class PyTorchJobKind implements JobKind<PyTorchJob, PyTorchJobModel, ReplicaPlan> {
  private final ReplicaObjects objects = new ReplicaObjects();

  @Override
  public String kind() {
    return PyTorchJob.KIND;
  }

  @Override
  public String group() {
    return Framework.GROUP;
  }

  @Override
  public List<String> apiVersions() {
    return List.of(Framework.API_VERSION);
  }

  @Override
  public PyTorchJob bind(JsonNode root) {
    return ObjectTrees.bind(root, PyTorchJob.class);
  }

  @Override
  public PyTorchJobModel defaults(PyTorchJob job, CompileOptions options) {
    return PyTorchJobDefaults.apply(job, options);
  }

  @Override
  public Finding renderedElsewhere(PyTorchJobModel model) {
    return ReplicaKueue.renderedElsewhere(model.job());
  }

  @Override
  public List<Finding> validate(PyTorchJobModel model) {
    return PyTorchJobValidator.validate(model);
  }

  @Override
  public ReplicaPlan plan(PyTorchJobModel model) {
    return PyTorchJobPlanner.plan(model);
  }

  @Override
  public List<HasMetadata> generate(ReplicaPlan plan) {
    return objects.generate(plan);
  }
}
