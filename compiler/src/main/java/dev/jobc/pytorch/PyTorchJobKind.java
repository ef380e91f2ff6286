package dev.jobc.pytorch;

import dev.jobc.diag.Finding;
import dev.jobc.options.CompileOptions;
import dev.jobc.replica.ReplicaJob;
import dev.jobc.replica.ReplicaJobKind;
import dev.jobc.replica.ReplicaPlan;
import java.util.List;

/** Kubeflow PyTorchJob ({@code kubeflow.org/v1}) through the pipeline. Immutable, thread-safe. */
public final class PyTorchJobKind extends ReplicaJobKind<PyTorchJob, PyTorchJobModel> {

  public PyTorchJobKind() {
    super(PyTorchJob.FRAMEWORK, PyTorchJob.class);
  }

  @Override
  protected ReplicaJob job(PyTorchJobModel model) {
    return model.job();
  }

  @Override
  public PyTorchJobModel defaults(PyTorchJob job, CompileOptions options) {
    return PyTorchJobDefaults.apply(job, options);
  }

  @Override
  public List<Finding> validate(PyTorchJobModel model) {
    return PyTorchJobValidator.validate(model);
  }

  @Override
  public ReplicaPlan plan(PyTorchJobModel model) {
    return PyTorchJobPlanner.plan(model);
  }
}
